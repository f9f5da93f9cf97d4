#!/bin/bash
# An active subscribe finds a solicited-only publish (which never announces itself), and the publisher
# reports the subscriber that asked.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "solicited-only publish on radio 0"
start_bg pub dA "$WAWARE" publish _print._tcp --solicited --info ready --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)

step "a passive subscribe hears nothing (the publish is solicited only)"
out=$(in_netns dB "$WAWARE" subscribe _print._tcp --count 1 --timeout "$(scaled 4)" --json 2>&1)
expect_nothing_found "passive subscribe" $? "$out"
expect_running pub

step "an active subscribe on radio 1 finds it"
out=$(in_netns dB "$WAWARE" subscribe _print._tcp --active --info asking --count 1 --timeout "$(scaled 30)" --json) || fail "subscribe failed: $out"
echo "$out"
found=$(echo "$out" | grep '"event":"discovered"')
sub_addr=$(echo "$out" | sed -n 's/.*"address":"\([0-9a-f:]*\)".*"event":"started".*/\1/p' | head -n 1)
expect_eq "discoveries" 1 "$(echo "$found" | grep -c .)"
expect_contains "publisher address" "\"peer\":\"$pub_addr\"" "$found"
expect_contains "publisher's service info" '"info":"ready"' "$found"

step "the publisher saw the subscriber ask"
wait_for_line "$(bg_log pub)" "\"event\":\"replied\".*\"peer\":\"$sub_addr\"" 10
expect_contains "subscriber's service info" '"info":"asking"' "$LINE"
stop_bg pub
