#!/bin/bash
# A data path keyed by an NCS-PK-PASN-256 pairing: A and B pair with a PIN and `--cipher-suite 256` (PASN
# and SAE on P-384, SHA-384), and both stores keep the suite. Then A publishes accepting data paths and B
# requests one, neither naming a suite: B verifies A with the stored key (PASN on group 20, no PIN), and the
# NDP's 4-way handshake keyed by the ND-PMK comes up as NCS-PK-PASN-256 on both sides (GCMP-256 installed,
# peer NDI stations authorized with MFP), and TCP carries 64 KiB each way byte-exact. Last, a pairing where
# only B asks for 256 fails on both sides with "cipher suite mismatch" and stores nothing.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
TCP="$_lib_dir/tcp-exchange.py"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
dir_a="$SCENARIO_OUT/a"; dir_b="$SCENARIO_OUT/b"
mkdir -p "$dir_a" "$dir_b"

step "A and B pair with a PIN on NCS-PK-PASN-256"
PAIR_ARGS=(--cipher-suite 256)
pair_with_pin dA "$dir_a/devices.json" dB "$dir_b/devices.json" 40
unset PAIR_ARGS
echo "$PAIR_OUT"
expect_contains "B stored A with a 256 key" 'paired with key (SAE) on NCS-PK-PASN-256' "$PAIR_OUT"
expect_contains "A stored B with a 256 key" 'paired with key (SAE) on NCS-PK-PASN-256' "$(cat "$(bg_log pairA)")"
expect_match "B's store keeps the suite" '"pairingCipherSuite" ?: ?"NCS-PK-PASN-256"' "$(cat "$dir_b/devices.json")"
expect_eq "B's store mode" 600 "$(stat -c %a "$dir_b/devices.json")"

step "A accepts data paths keyed by pairing; B requests one (no passphrase, no suite named)"
start_bg pub dA env WAWARE_STATE_DIR="$dir_a" "$WAWARE" publish _pdp._tcp --accept-data-paths --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_STATE_DIR="$dir_b" "$WAWARE" subscribe _pdp._tcp --count 1 --data-path --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"|^waware: ' 400
expect_contains "B verified A first" '"event":"verified"' "$(cat "$(bg_log sub)")"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
{ read -r ifA; read -r localA; read -r cipherA; } < <(event_field "$(bg_log pub)" data-path-up interface localAddress cipherSuite)
{ read -r ifB; read -r localB; read -r cipherB; read -r peerB; } \
    < <(event_field "$(bg_log sub)" data-path-up interface localAddress cipherSuite peerAddress)
expect_eq "A's cipher" NCS-PK-PASN-256 "$cipherA"
expect_eq "B's cipher" NCS-PK-PASN-256 "$cipherB"
expect_eq "B's peer address is A's own" "$localA" "$peerB"
for ns_dev in "dA $ifA" "dB $ifB"; do
    read -r ns dev <<<"$ns_dev"
    dump=$(in_netns "$ns" iw dev "$dev" station dump)
    expect_match "$ns: the peer's NDI station on $dev is authorized" 'authorized:[[:space:]]*yes' "$dump"
    expect_match "$ns: the peer's NDI station on $dev has MFP (keyed)" 'MFP:[[:space:]]*yes' "$dump"
done

step "TCP 64 KiB each way over the NCS-PK-PASN-256 data path"
for i in $(seq 1 100); do
    a=$(in_netns dA ip -6 addr show dev "$ifA" scope link | grep -v tentative | grep -c "$localA")
    b=$(in_netns dB ip -6 addr show dev "$ifB" scope link | grep -v tentative | grep -c "$localB")
    [ "$a" = 1 ] && [ "$b" = 1 ] && break
    sleep 0.2
done
size=65536
start_bg tcp dA python3 "$TCP" server "$ifA" 5108 "$size" 33
wait_for_line "$(bg_log tcp)" 'listening' 120
out=$(in_netns dB timeout "$(scaled 200)" python3 "$TCP" client "$ifB" "$localA" 5108 "$size" 44) || fail "TCP client failed: $out"
echo "    B: $out"
wait_for_line "$(bg_log tcp)" '^received' 60
expect_eq "B got A's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 33)" "$out"
expect_eq "A got B's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 44)" "$LINE"
wait_bg tcp 0 30
stop_bg sub INT
stop_bg pub INT

step "A pairs with 128, B asks for 256: both fail with a cipher suite mismatch, nothing stored"
dir_c="$SCENARIO_OUT/c"; dir_d="$SCENARIO_OUT/d"
mkdir -p "$dir_c" "$dir_d"
start_bg pairC dA "$WAWARE" pair --store "$dir_c/devices.json" --name D --timeout "$(scaled 90)"
wait_for_line "$(bg_log pairC)" '^PIN [0-9]{6}' 40
pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairC)" | head -n 1)
rc=0
out=$(in_netns dB "$WAWARE" pair --pin "$pin" --name C --store "$dir_d/devices.json" --timeout "$(scaled 90)" --cipher-suite 256 2>&1) || rc=$?
echo "    D: $out"
expect_eq "D's exit code" 1 "$rc"
expect_contains "D says why" 'cipher suite mismatch' "$out"
wait_bg pairC 1 120
expect_contains "C says why" 'cipher suite mismatch' "$(cat "$(bg_log pairC)")"
expect_not_contains "C stored nothing" 'paired with key' "$("$WAWARE" devices list --store "$dir_c/devices.json" 2>&1)"
expect_not_contains "D stored nothing" 'paired with key' "$("$WAWARE" devices list --store "$dir_d/devices.json" 2>&1)"
