#!/bin/bash
# `waware sim` creates, lists and removes NAN radios. Every waware call's exit status is checked, and
# the radio ids come from `sim list --json` only when that call succeeded.
# timeout: 180
source "$(dirname "$0")/../guest/lib.sh"

# The ids `waware sim list --json` prints, into IDS; fails the scenario if the command fails.
IDS=()
list_ids() {
    local json rc
    json=$(ww sim list --json)
    rc=$?
    expect_eq "waware sim list --json exit status" 0 "$rc"
    expect_contains "waware sim list --json output" '"radios"' "$json"
    mapfile -t IDS < <(grep -o '"id": *[0-9]*' <<<"$json" | grep -o '[0-9]*$')
    echo "radio ids: ${IDS[*]}"
}

step "no radios at first"
ww sim list || fail "waware sim list exited $?"
list_ids
expect_eq "radios before" 0 "${#IDS[@]}"

step "add two"
ww sim add --count 2 || fail "waware sim add --count 2 exited $?"
ww sim list || fail "waware sim list exited $?"
list_ids
expect_eq "number of radios" 2 "${#IDS[@]}"
expect_eq "wiphys in sysfs" 2 "$(ls /sys/class/ieee80211 | wc -l)"
for phy in $(ls /sys/class/ieee80211); do
    expect_contains "iftypes of $phy" "* NAN" "$(iw phy "$phy" info)"
done
first=${IDS[0]} second=${IDS[1]}

step "remove the first"
ww sim remove "$first" || fail "waware sim remove $first exited $?"
list_ids
expect_eq "radios left" "$second" "${IDS[*]}"
expect_eq "wiphys in sysfs" 1 "$(ls /sys/class/ieee80211 | wc -l)"

step "removing it again fails"
ww sim remove "$first"
rc=$?
expect_match "exit status of removing a radio that is gone (nonzero, not a hang)" '^([1-9]|[1-9][0-9])$' "$rc"

step "remove all"
ww sim remove all || fail "waware sim remove all exited $?"
list_ids
expect_eq "radios left" 0 "${#IDS[@]}"
expect_eq "wiphys in sysfs" 0 "$(ls /sys/class/ieee80211 | wc -l)"
