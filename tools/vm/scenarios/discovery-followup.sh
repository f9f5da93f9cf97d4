#!/bin/bash
# Follow-up messages both ways: the subscriber sends "ping" to the publisher it found, the publisher
# answers "pong"; both are delivered and acknowledged.
# timeout: 120
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "publish that answers every message with 'pong'"
start_bg pub dA "$WAWARE" publish _chat._tcp --answer pong --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)

step "subscribe, send 'ping', wait for the answer"
out=$(in_netns dB "$WAWARE" subscribe _chat._tcp --count 1 --send ping --messages 1 --timeout "$(scaled 30)" --json) \
    || fail "subscribe failed: $out"
echo "$out"
sub_addr=$(echo "$out" | sed -n 's/.*"address":"\([0-9a-f:]*\)".*"event":"started".*/\1/p' | head -n 1)
expect_contains "ping delivered and acknowledged" '"event":"sent"' "$(echo "$out" | grep '"status":"acknowledged"')"
message=$(echo "$out" | grep '"event":"message"')
expect_contains "answer received" '"info":"pong"' "$message"
expect_contains "answer from the publisher" "\"peer\":\"$pub_addr\"" "$message"

step "the publisher received ping and its pong was acknowledged"
wait_for_line "$(bg_log pub)" "\"event\":\"message\".*\"info\":\"ping\".*\"peer\":\"$sub_addr\"" 10
wait_for_line "$(bg_log pub)" '"event":"sent".*"status":"acknowledged"' 10
stop_bg pub
