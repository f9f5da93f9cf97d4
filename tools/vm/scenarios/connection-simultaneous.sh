#!/bin/bash
# Both sides connecting at once end with exactly one connection. A and B pair with a PIN, then both start
# `waware listen _sim._tcp --connect-to-found --send ...` at the same moment: each publishes, browses, verifies
# the other's pairing (PASN; both verifications start together and one exchange must go on) and connects to
# the other. Checked: each side reports exactly one `connected` line, one `in` and the other `out`, each naming
# the other's persisted peer identifier (`peer-id`); a message goes each way over it; any connection attempt not
# kept ends with one `connect-ended` line with its reason, and no side fails.
# timeout: 1500
source "$(dirname "$0")/../guest/lib.sh"

stA="$SCENARIO_OUT/a"; stB="$SCENARIO_OUT/b"
mkdir -p "$stA" "$stB"

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A and B pair with a PIN"
pair_with_pin dA "$stA/devices.json" dB "$stB/devices.json"
echo "$PAIR_OUT" | sed 's/^/    B: /'

step "both listen and connect to the one they find, started together"
start_bg lisA dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _sim._tcp --connect-to-found --send "from A" --json
start_bg lisB dB env WAWARE_STATE_DIR="$stB" "$WAWARE" listen _sim._tcp --connect-to-found --send "from B" --json
wait_for_line "$(bg_log lisA)" '"event":"connected"|^waware: ' 600
wait_for_line "$(bg_log lisB)" '"event":"connected"|^waware: ' 120
wait_for_line "$(bg_log lisA)" '"event":"message"' 120
expect_contains "A got B's message" '"text":"from B"' "$LINE"
wait_for_line "$(bg_log lisB)" '"event":"message"' 120
expect_contains "B got A's message" '"text":"from A"' "$LINE"
# Time for a second connection or a duplicate's close to show if there were one (both connections are
# settled about 10 s after the start).
sleep "$(scaled 5)"
for side in lisA lisB; do
    echo "    $side:"; sed 's/^/      | /' "$(bg_log "$side")"
done

logA=$(cat "$(bg_log lisA)"); logB=$(cat "$(bg_log lisB)")
expect_eq "A reports one connection" 1 "$(grep -c '"event":"connected"' <<<"$logA")"
expect_eq "B reports one connection" 1 "$(grep -c '"event":"connected"' <<<"$logB")"
{ read -r dirA; read -r peerIDA; } < <(event_field "$(bg_log lisA)" connected direction peerID)
{ read -r dirB; read -r peerIDB; } < <(event_field "$(bg_log lisB)" connected direction peerID)
expect_eq "one side made it, the other accepted it" "in out" "$(printf '%s\n%s\n' "$dirA" "$dirB" | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "A's connection is with B's peer identifier" "$(tr -d '\n' <"$stB/peer-id")" "$peerIDA"
expect_eq "B's connection is with A's peer identifier" "$(tr -d '\n' <"$stA/peer-id")" "$peerIDB"
expect_eq "one message reached A" 1 "$(grep -c '"event":"message"' <<<"$logA")"
expect_eq "one message reached B" 1 "$(grep -c '"event":"message"' <<<"$logB")"
expect_not_contains "A did not fail" 'waware: ' "$logA"
expect_not_contains "B did not fail" 'waware: ' "$logB"
expect_not_contains "A's connection was not closed" '"event":"closed"' "$logA"
expect_not_contains "B's connection was not closed" '"event":"closed"' "$logB"
for side in A B; do
    log=$([ $side = A ] && echo "$logA" || echo "$logB")
    ended=$(grep '"event":"connect-ended"' <<<"$log" || true)
    [ -n "$ended" ] && echo "    $side's attempt not kept: $ended"
done
stop_bg lisA INT
stop_bg lisB INT
