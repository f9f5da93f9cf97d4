#!/bin/bash
# `waware list` and `waware info` on a simulated radio: NAN supported, discovery engine in user space
# (hwsim sets USERSPACE_DE), and the NAN bands (hwsim's NAN runs on 2.4 and 5 GHz).
# timeout: 60
source "$(dirname "$0")/../guest/lib.sh"

step "one radio"
sim_radios 1
phy=${PHYS[0]}

step "waware list"
out=$(ww list) || fail "waware list exited $?: $out"
printf '%s\n' "$out"
line=$(printf '%s\n' "$out" | grep -E "^$phy ")
expect_contains "the line of $phy" "mac80211_hwsim" "$line"
expect_contains "the line of $phy" "NAN: yes" "$line"
expect_contains "the line of $phy" "user-space discovery engine" "$line"
expect_contains "the line of $phy" "2.4+5 GHz" "$line"

step "waware list --json"
json=$(ww list --json) || fail "waware list --json exited $?: $json"
printf '%s\n' "$json"
fields=$(printf '%s' "$json" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
adapters = doc["adapters"] if isinstance(doc, dict) else doc
a = next(a for a in adapters if a["phy"] == sys.argv[1])
print(a["nan"]["supported"], a["nan"]["userspaceDiscovery"], ",".join(a["nan"]["bands"]))
' "$phy") || fail "waware list --json is not the expected JSON (above)"
read -r supported userspace bands <<<"$fields"
expect_eq "nan.supported" True "$supported"
expect_eq "nan.userspaceDiscovery" True "$userspace"
expect_eq "nan.bands" "2.4GHz,5GHz" "$bands"

step "waware info $phy"
info=$(ww info "$phy") || fail "waware info $phy exited $?: $info"
printf '%s\n' "$info"
expect_match "info: discovery engine" 'discovery engine: +in user space' "$info"
expect_match "info: NAN bands" 'NAN bands: +2\.4GHz, 5GHz' "$info"
