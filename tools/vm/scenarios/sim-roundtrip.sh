#!/bin/bash
# `waware sim` creates, lists and removes NAN radios.
# timeout: 60
source "$(dirname "$0")/../guest/lib.sh"

radio_ids() { ww sim list --json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
print(" ".join(str(r["id"]) for r in doc["radios"]))'; }

step "no radios at first"
ww sim list
expect_eq "radios before" "" "$(radio_ids)"

step "add two"
ww sim add --count 2 || fail "waware sim add --count 2 exited $?"
ww sim list
ids=($(radio_ids))
expect_eq "number of radios" 2 "${#ids[@]}"
expect_eq "wiphys in sysfs" 2 "$(ls /sys/class/ieee80211 | wc -l)"
for phy in $(ls /sys/class/ieee80211); do
    expect_contains "iftypes of $phy" "* NAN" "$(iw phy "$phy" info)"
done

step "remove the first"
ww sim remove "${ids[0]}" || fail "waware sim remove ${ids[0]} exited $?"
expect_eq "radios left" "${ids[1]}" "$(radio_ids)"
expect_eq "wiphys in sysfs" 1 "$(ls /sys/class/ieee80211 | wc -l)"

step "remove all"
ww sim remove all || fail "waware sim remove all exited $?"
expect_eq "radios left" "" "$(radio_ids)"
expect_eq "wiphys in sysfs" 0 "$(ls /sys/class/ieee80211 | wc -l)"
