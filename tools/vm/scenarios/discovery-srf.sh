#!/bin/bash
# Service response filters: an active subscribe whose SRF excludes the publisher (as an address list, then
# as a Bloom filter) gets no answer and the publisher does not reply; one that includes it is answered.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "solicited-only publish on radio 0"
start_bg pub dA "$WAWARE" publish _file._tcp --solicited --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)

step "SRF address list excluding the publisher: nothing found"
out=$(in_netns dB "$WAWARE" subscribe _file._tcp --active --srf-exclude "$pub_addr" --count 1 --timeout "$(scaled 4)" --json 2>&1)
expect_nothing_found "subscribe excluding the publisher by address" $? "$out"
expect_running pub

step "SRF Bloom filter excluding the publisher: nothing found"
out=$(in_netns dB "$WAWARE" subscribe _file._tcp --active --srf-exclude "$pub_addr" --srf-bloom --count 1 --timeout "$(scaled 4)" --json 2>&1)
expect_nothing_found "subscribe excluding the publisher by Bloom filter" $? "$out"
expect_running pub
expect_not_contains "publisher output (no reply so far)" '"event":"replied"' "$(cat "$(bg_log pub)")"

step "SRF including the publisher: found"
out=$(in_netns dB "$WAWARE" subscribe _file._tcp --active --srf-include "$pub_addr" --srf-bloom --count 1 --timeout "$(scaled 20)" --json) \
    || fail "subscribe failed: $out"
expect_contains "publisher found" "\"peer\":\"$pub_addr\"" "$(echo "$out" | grep '"event":"discovered"')"
stop_bg pub
