#!/bin/bash
# A passive subscribe on one radio finds an unsolicited publish on another, with the right service info,
# the publisher's NMI address and instance, and radio facts (signal, frequency) from its frames.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

step "two NAN radios in namespaces dA and dB"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "publish _chat._tcp (unsolicited) with service info on radio 0"
start_bg pub dA "$WAWARE" publish _chat._tcp --unsolicited --info hello-world --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)
pub_instance=$(sed -n 's/.*"event":"started".*"localInstance":\([0-9]*\).*/\1/p' "$(bg_log pub)" | head -n 1)
expect_match "publisher NMI address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$pub_addr"

step "passive subscribe on radio 1 finds it"
out=$(in_netns dB "$WAWARE" subscribe _chat._tcp --count 1 --timeout "$(scaled 30)" --json) || fail "subscribe failed: $out"
echo "$out"
found=$(echo "$out" | grep '"event":"discovered"')
expect_eq "discoveries" 1 "$(echo "$found" | grep -c .)"
expect_contains "service info" '"info":"hello-world"' "$found"
expect_contains "publisher address" "\"peer\":\"$pub_addr\"" "$found"
expect_contains "publisher instance" "\"peerInstance\":$pub_instance," "$found"
expect_match "signal from the publisher's frames" '"signal":-[0-9]+' "$found"
expect_contains "frequency of the 2.4 GHz DW" '"frequency":2437' "$found"
stop_bg pub
