#!/bin/bash
# Matching filters: a subscribe whose filter does not match the publish finds nothing; one that matches
# (with a wildcard) finds it.
# timeout: 90
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "publish with matching filter red,large"
start_bg pub dA "$WAWARE" publish _paint._tcp --match-filter red,large --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30

step "subscribe with filter blue finds nothing"
out=$(in_netns dB "$WAWARE" subscribe _paint._tcp --match-filter blue --count 1 --timeout "$(scaled 5)" --json 2>&1)
expect_nothing_found "subscribe with filter blue" $? "$out"
expect_running pub

step "subscribe with filter red,* finds it"
out=$(in_netns dB "$WAWARE" subscribe _paint._tcp --match-filter 'red,*' --count 1 --timeout "$(scaled 20)" --json) \
    || fail "subscribe failed: $out"
expect_eq "discoveries" 1 "$(echo "$out" | grep -c '"event":"discovered"')"
stop_bg pub
