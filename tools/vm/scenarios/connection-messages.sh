#!/bin/bash
# Connections over a NAN data path between two devices, each in its own namespace with its own state
# folder (so its own peer identifier): A runs `waware listen --echo --receive-dir`, B `waware connect`.
# B sends a message and gets it back (a message each way); both print the other's peer identifier; then
# B sends a file of a few MB with a progress bar, A saves it with the same SHA-256 and acknowledges it;
# the time the file took is printed. Each `connect` requests a data path and ends it when its
# connection ends. Time limits are wide (and scaled): data-path setup takes seconds to minutes under load.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

TRANSPORT=${CONN_TRANSPORT:---plain}
stA=$(mktemp -d); stB=$(mktemp -d); inbox=$(mktemp -d)

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A listens on _conn._tcp (open data paths, $TRANSPORT, echo, files into $inbox)"
start_bg lis dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _conn._tcp --open $TRANSPORT --echo --receive-dir "$inbox" --json
wait_for_line "$(bg_log lis)" '"event":"listening"' 90
idA=$(cat "$stA/peer-id")
echo "    A's peer identifier: $idA"

step "B connects, sends 'hello from B', gets it back"
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 240)" "$WAWARE" connect _conn._tcp --open $TRANSPORT \
    --send "hello from B" --messages 1 --json 2>"$SCENARIO_OUT/conn-B1.err") || fail "connect failed ($?): $out $(cat "$SCENARIO_OUT/conn-B1.err")"
echo "$out" | sed 's/^/    B: /'
idB=$(cat "$stB/peer-id")
expect_contains "B connected to A's peer identifier" "\"peerID\":\"$idA\"" "$out"
expect_contains "B got its message back" '"event":"message"' "$out"
expect_contains "the echo is B's text" '"text":"hello from B"' "$out"
wait_for_line "$(bg_log lis)" '"event":"message"' 60
expect_contains "A saw B's peer identifier" "\"peerID\":\"$idB\"" "$LINE"
expect_contains "A got B's text" '"text":"hello from B"' "$LINE"
expect_eq "peer-id is private" 600 "$(stat -c %a "$stB/peer-id")"

step "B sends a file of ${CONN_FILE_MB:-4} MB; A saves it with the same SHA-256"
file="$(mktemp -d)/payload.bin"
head -c "$(( ${CONN_FILE_MB:-4} * 1024 * 1024 ))" /dev/urandom > "$file"
sum=$(sha256sum "$file" | cut -d' ' -f1)
t0=$(date +%s.%N)
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 400)" "$WAWARE" connect _conn._tcp --open $TRANSPORT \
    --send-file "$file" 2>"$SCENARIO_OUT/conn-B2.err") || fail "send-file failed ($?): $out $(tail -c 600 "$SCENARIO_OUT/conn-B2.err")"
t1=$(date +%s.%N)
echo "    B: $out"
tail -c 300 "$SCENARIO_OUT/conn-B2.err" | tr '\r' '\n' | tail -n 3 | sed 's/^/    B stderr: /'
expect_contains "A acknowledged the file with its checksum" "received payload.bin $(stat -c %s "$file") sha256 $sum" "$out"
wait_for_line "$(bg_log lis)" '"event":"file-received"' 60
expect_contains "A's checksum" "\"sha256\":\"$sum\"" "$LINE"
expect_eq "the saved file" "$sum" "$(sha256sum "$inbox/payload.bin" | cut -d' ' -f1)"
expect_eq "no partial file left" 0 "$(ls "$inbox" | grep -c partial)"
echo "    figure: ${CONN_FILE_MB:-4} MB connect+send-file took $(awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.1f\", b - a }") s (data path setup included)"
tr '\r' '\n' < "$SCENARIO_OUT/conn-B2.err" | grep -a 'file-sent' | sed 's/^/    B: /'

step "A stops cleanly; no NAN data interface left"
stop_bg lis INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
