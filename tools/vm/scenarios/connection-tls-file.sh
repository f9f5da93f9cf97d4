#!/bin/bash
# A 50 MB file over a TLS connection between paired devices (each in its own namespace and state folder):
# A and B pair with a PIN, A listens (the data path keyed by the pairing, mutual TLS, files into a folder),
# B sends the file with `waware connect --send-file`; A saves it with the same SHA-256 (checked by
# sha256sum on both files, and acknowledged to B), no partial file is left, and the time it took is printed.
# CONN_TLS_FILE_MB changes the size. Time limits are very wide (and scaled): the emulated radio moves some
# tens of kB/s on a loaded host.
# timeout: 3000
source "$(dirname "$0")/../guest/lib.sh"

mb=${CONN_TLS_FILE_MB:-50}
stA="$SCENARIO_OUT/a"; stB="$SCENARIO_OUT/b"; inbox="$SCENARIO_OUT/inbox"
mkdir -p "$stA" "$stB" "$inbox"

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A and B pair with a PIN"
pair_with_pin dA "$stA/devices.json" dB "$stB/devices.json"

step "A listens (TLS, data paths keyed by the pairing); B sends a $mb MB file"
start_bg lis dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _tlsf._tcp --receive-dir "$inbox" --json
wait_for_line "$(bg_log lis)" '"event":"listening"' 90
file="$SCENARIO_OUT/payload.bin"
head -c $((mb * 1024 * 1024)) /dev/urandom > "$file"
sum=$(sha256sum "$file" | cut -d' ' -f1)
t0=$(date +%s.%N)
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 2400)" "$WAWARE" connect _tlsf._tcp \
    --send-file "$file" 2>"$SCENARIO_OUT/B.err") || fail "send-file failed ($?): $out $(tail -c 600 "$SCENARIO_OUT/B.err")"
t1=$(date +%s.%N)
echo "    B: $out"
tr '\r' '\n' < "$SCENARIO_OUT/B.err" | grep -a -E 'connected|file-sent' | sed 's/^/    B: /'
expect_contains "B's connection is TLS" '(TLS 1.3)' "$(cat "$SCENARIO_OUT/B.err")"
expect_contains "A acknowledged the file with its checksum" "received payload.bin $((mb * 1024 * 1024)) sha256 $sum" "$out"
wait_for_line "$(bg_log lis)" '"event":"file-received"' 120
expect_contains "A's checksum" "\"sha256\":\"$sum\"" "$LINE"
expect_eq "the saved file" "$sum" "$(sha256sum "$inbox/payload.bin" | cut -d' ' -f1)"
expect_eq "no partial file left" 0 "$(ls "$inbox" | grep -c partial)"
expect_contains "A's connection was TLS" '"transport":"TLS 1.3"' "$(grep '"event":"connected"' "$(bg_log lis)")"
echo "    figure: $mb MB over TLS: connect+send-file took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s (pairing verification and data path setup included)"
stop_bg lis INT
