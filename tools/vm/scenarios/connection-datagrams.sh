#!/bin/bash
# Best-effort datagrams beside a connection over a NAN data path (TN3213: bootstrapped over the reliable
# connection). A runs `waware listen --datagrams --echo`, B `waware connect --datagram ping --datagram-count
# 10 --wait-datagrams 1 --send hello --messages 1`: the two agree UDP ports and keys in the connection
# preface, B's datagrams reach A (A prints them, B -> A) and A's echoes reach B (A -> B), both over the NAN
# data interfaces' link-local addresses; none is rejected; the message still goes each way; both print
# their datagram counts. Then a listener without --datagrams: B asking for datagrams fails in one
# `waware:` line (exit 20). Datagrams are best effort: the checks ask for at least one each way.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

TRANSPORT=${CONN_TRANSPORT:---plain}
stA=$(mktemp -d); stB=$(mktemp -d)

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A listens on _dgram._udp with datagrams, echoing ($TRANSPORT, open data paths)"
start_bg lis dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _dgram._udp --open $TRANSPORT --datagrams --echo --json
wait_for_line "$(bg_log lis)" '"event":"listening"' 90

step "B connects with datagrams: 10 pings, waits for an echo, then a message each way"
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 240)" "$WAWARE" connect _dgram._udp --open $TRANSPORT \
    --datagram ping --datagram-count 10 --wait-datagrams 1 --send "hello from B" --messages 1 --json \
    2>"$SCENARIO_OUT/conn-B.err") || fail "connect failed ($?): $out $(tail -c 600 "$SCENARIO_OUT/conn-B.err")"
echo "$out" | sed 's/^/    B: /'
idA=$(cat "$stA/peer-id")
expect_contains "B connected to A" "\"peerID\":\"$idA\"" "$out"
expect_match "an echoed datagram reached B (A -> B)" '"event":"datagram".*"text":"ping [0-9]+"' "$out"
expect_contains "the message still went each way" '"text":"hello from B"' "$out"
stats=$(echo "$out" | grep '"event":"datagram-stats"')
expect_contains "B sent 10 datagrams" '"sent":10' "$stats"
expect_contains "B rejected none" '"rejected":0' "$stats"
expect_match "B received at least one" '"received":[1-9]' "$stats"
echo "    B's protection: $(echo "$stats" | sed -n 's/.*"transport":"\([^"]*\)".*/\1/p')"

step "A printed B's datagrams (B -> A) and its counts"
wait_for_line "$(bg_log lis)" '"event":"datagram-stats"' 60
expect_match "A's counts: received some" '"received":[1-9]' "$LINE"
expect_contains "A's counts: rejected none" '"rejected":0' "$LINE"
got=$(grep -c '"event":"datagram".*"text":"ping [0-9]*"' "$(bg_log lis)")
echo "    figure: A received $got of 10 datagrams; B: $(echo "$stats" | sed -n 's/.*"datagrams":{\([^}]*\)}.*/\1/p')"
expect_match "A printed at least one ping" '^[1-9]' "$got"
stop_bg lis INT

step "a listener without --datagrams: B asking for them fails in one line, exit 20"
start_bg lis2 dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _dgram._udp --open $TRANSPORT --echo --json
wait_for_line "$(bg_log lis2)" '"event":"listening"' 90
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 240)" "$WAWARE" connect _dgram._udp --open $TRANSPORT \
    --datagram ping --send x --messages 1 2>&1)
status=$?
expect_eq "exit status" 20 "$status"
expect_contains "one clear line" "waware: the listener did not agree datagrams" "$out"
stop_bg lis2 INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
