#!/bin/bash
# Unsynchronized service discovery (USD) between two plain station radios without NAN: B subscribes, A
# publishes, B discovers A on channel 6, sends "ping" as a follow-up; A receives it and answers "pong".
# No NAN cluster is involved: the radios cannot make one.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2 --no-nan
radio_netns 0 dA
radio_netns 1 dB

step "the radios have no NAN but can do USD"
info=$(in_netns dA "$WAWARE" info)
echo "$info"
expect_contains "no NAN" "no" "$(echo "$info" | grep -E '^ +NAN: +no')"
expect_contains "USD" "yes" "$(echo "$info" | grep -E '^ +USD: ')"

step "A publishes (automatic transport: USD, since the radio lacks NAN), answering every message"
start_bg pub dA "$WAWARE" publish _chat._tcp --info hello --answer pong --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
expect_contains "publisher says USD" '"transport":"usd"' "$(grep '"event":"started"' "$(bg_log pub)")"
pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)

step "B subscribes with --usd, finds A, sends 'ping' and waits for the answer"
out=$(in_netns dB "$WAWARE" subscribe _chat._tcp --usd --count 1 --send ping --messages 1 \
    --timeout "$(scaled 30)" --json) || fail "subscribe failed: $out"
echo "$out"
expect_contains "subscriber says USD" '"transport":"usd"' "$(echo "$out" | grep '"event":"started"')"
found=$(echo "$out" | grep '"event":"discovered"')
expect_contains "A discovered" "\"peer\":\"$pub_addr\"" "$found"
expect_contains "with its service info" '"info":"hello"' "$found"
expect_contains "on channel 6" '"frequency":2437' "$found"
expect_contains "ping delivered and acknowledged" '"event":"sent"' "$(echo "$out" | grep '"status":"acknowledged"')"
expect_contains "answer received" '"info":"pong"' "$(echo "$out" | grep '"event":"message"')"
sub_addr=$(echo "$out" | sed -n 's/.*"address":"\([0-9a-f:]*\)".*"event":"started".*/\1/p' | head -n 1)

step "A received ping from B"
wait_for_line "$(bg_log pub)" "\"event\":\"message\".*\"info\":\"ping\"" 10
expect_contains "from B" "$sub_addr" "$(grep '"event":"message"' "$(bg_log pub)")"
stop_bg pub
