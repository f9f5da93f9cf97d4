#!/bin/bash
# Connections under mutual TLS (the default), each device in its own namespace with its own state folder.
# A and B pair with a PIN. (1) A listens (data paths keyed by the pairing, TLS, echo, files into a folder);
# B connects and sends a message, which comes back: both sides report TLS 1.3 with trust "learned over
# pairing", each side's `devices.json` now holds the other's certificate fingerprint (checked against the
# identity files with python's ssl), the identity files are 0600. (2) B sends a 16 MB file and is killed
# (SIGKILL) mid-transfer: A says the transfer was cut (its `closed` line) and leaves no file under the final
# name (nothing, or only NAME.partial). (3) B's identity file is replaced: A refuses B's new certificate
# ("not the one pinned") and B says A refused its certificate (one `waware:` line, exit 20). (4) An unpaired
# device C connecting to A (open data paths) is refused on both sides ("not a paired device", exit 20).
# Time limits are wide and scaled: a paired data path takes minutes to set up in a loaded VM.
# timeout: 1500
source "$(dirname "$0")/../guest/lib.sh"

stA="$SCENARIO_OUT/a"; stB="$SCENARIO_OUT/b"; stC="$SCENARIO_OUT/c"; inbox="$SCENARIO_OUT/inbox"
mkdir -p "$stA" "$stB" "$stC" "$inbox"
fingerprint() { python3 -c 'import hashlib, ssl, sys; print(hashlib.sha256(ssl.PEM_cert_to_DER_cert(open(sys.argv[1]).read().split("-----END PRIVATE KEY-----")[-1].strip())).hexdigest())' "$1"; }
pinned() { python3 -c 'import json, sys; print(" ".join(d.get("certificateFingerprint", "-") for d in json.load(open(sys.argv[1]))["devices"]))' "$1"; }

step "three radios in namespaces dA, dB, dC; regulatory domain US"
set_country US
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "A and B pair with a PIN"
pair_with_pin dA "$stA/devices.json" dB "$stB/devices.json"
echo "$PAIR_OUT" | sed 's/^/    B: /'
expect_eq "no pin before the first TLS connection (A's store)" "-" "$(pinned "$stA/devices.json")"

step "(1) A listens (TLS by default, data paths keyed by the pairing); B connects, a message each way"
start_bg lis dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _tls._tcp --echo --receive-dir "$inbox" --json
wait_for_line "$(bg_log lis)" '"event":"listening"' 90
expect_contains "A listens with TLS" '"transport":"TLS 1.3"' "$LINE"
fpA=$(fingerprint "$stA/tls-identity.pem")
expect_contains "A's listening line shows its certificate" "\"fingerprint\":\"$fpA\"" "$LINE"
expect_eq "A's identity file is private" 600 "$(stat -c %a "$stA/tls-identity.pem")"
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 400)" "$WAWARE" connect _tls._tcp \
    --send "hello over TLS" --messages 1 --json 2>"$SCENARIO_OUT/B1.err") || fail "connect failed ($?): $out $(cat "$SCENARIO_OUT/B1.err")"
echo "$out" | sed 's/^/    B: /'
fpB=$(fingerprint "$stB/tls-identity.pem")
expect_eq "B's identity file is private" 600 "$(stat -c %a "$stB/tls-identity.pem")"
expect_contains "B's connection is TLS" '"transport":"TLS 1.3"' "$out"
expect_contains "B learned A's certificate over the pairing" '"trust":"learned over pairing"' "$out"
expect_contains "B saw A's certificate" "\"peerFingerprint\":\"$fpA\"" "$out"
expect_contains "B got its message back" '"text":"hello over TLS"' "$out"
wait_for_line "$(bg_log lis)" '"event":"connected"' 60
expect_contains "A learned B's certificate over the pairing" '"trust":"learned over pairing"' "$LINE"
expect_contains "A saw B's certificate" "\"peerFingerprint\":\"$fpB\"" "$LINE"
wait_for_line "$(bg_log lis)" '"event":"message"' 60
expect_contains "A got B's text" '"text":"hello over TLS"' "$LINE"
expect_eq "A's store pins B's certificate" "$fpB" "$(pinned "$stA/devices.json")"
expect_eq "B's store pins A's certificate" "$fpA" "$(pinned "$stB/devices.json")"
expect_eq "A's store is still private" 600 "$(stat -c %a "$stA/devices.json")"

step "(2) B sends a 16 MB file and is killed mid-transfer: A says so and keeps no file under its name"
big="$SCENARIO_OUT/big.bin"
head -c $((16 * 1024 * 1024)) /dev/urandom > "$big"
start_bg killed dB env WAWARE_STATE_DIR="$stB" "$WAWARE" connect _tls._tcp --send-file "$big" --json
wait_for_line "$(bg_log lis)" '"event":"file-started".*big.bin' 400
sleep 3
stop_bg killed KILL
wait_for_line "$(bg_log lis)" '"event":"closed".*was cut' 120
expect_contains "A names the cut file" 'the transfer of big.bin was cut after' "$LINE"
echo "    A: $LINE"
expect_eq "no big.bin under its final name" 0 "$(ls "$inbox" | grep -cx 'big.bin')"
echo "    inbox: $(ls "$inbox" | tr '\n' ' ')"

step "(3) B's identity is replaced: refused on both sides"
mv "$stB/tls-identity.pem" "$SCENARIO_OUT/b-identity-old.pem"
status=0
out=$(in_netns dB env WAWARE_STATE_DIR="$stB" timeout "$(scaled 400)" "$WAWARE" connect _tls._tcp \
    --send "with another certificate" --messages 1 2>&1) || status=$?
echo "$out" | sed 's/^/    B: /'
expect_eq "B's exit status (connectionFailed)" 20 "$status"
expect_match "B says A refused its certificate, in one line" 'waware: .*refused our certificate' "$out"
fpB2=$(fingerprint "$stB/tls-identity.pem")
wait_for_line "$(bg_log lis)" '"event":"refused"' 60
expect_contains "A refused B's new certificate" 'not the one pinned to it' "$LINE"
expect_contains "A names the refused certificate" "$fpB2" "$LINE"
expect_eq "A's pin is unchanged" "$fpB" "$(pinned "$stA/devices.json")"
expect_not_contains "A never handed out the refused connection" 'with another certificate' "$(cat "$(bg_log lis)")"
stop_bg lis INT

step "(4) an unpaired device C is refused on both sides (open data paths)"
start_bg lis2 dA env WAWARE_STATE_DIR="$stA" "$WAWARE" listen _tls._tcp --open --json
wait_for_line "$(bg_log lis2)" '"event":"listening"' 90
status=0
out=$(in_netns dC env WAWARE_STATE_DIR="$stC" timeout "$(scaled 300)" "$WAWARE" connect _tls._tcp --open \
    --send "from a stranger" --messages 1 2>&1) || status=$?
echo "$out" | sed 's/^/    C: /'
expect_eq "C's exit status (connectionFailed)" 20 "$status"
expect_match "C refuses A, which is not paired with it, in one line" 'waware: refused the peer.s certificate: .*is not a paired device' "$out"
wait_for_line "$(bg_log lis2)" '"event":"refused"' 60
expect_contains "A hears the refusal" 'refused our certificate' "$LINE"
expect_not_contains "no connection on A" '"event":"connected"' "$(cat "$(bg_log lis2)")"
stop_bg lis2 INT
