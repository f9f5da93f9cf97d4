#!/bin/bash
# A data path keyed by an NCS-PK-PASN-256 pairing: A and B pair with a PIN and `--cipher-suite 256` (PASN
# and SAE on P-384, SHA-384), and both stores keep the suite. Then A publishes accepting data paths and B
# requests one, neither naming a suite: B verifies A with the stored key (PASN on group 20, no PIN), and the
# NDP's 4-way handshake keyed by the ND-PMK comes up as NCS-PK-PASN-256 on both sides (GCMP-256 installed,
# peer NDI stations authorized with MFP), and TCP carries 64 KiB each way byte-exact. Last, a pairing where
# only B asks for 256 fails B with "cipher suite mismatch"; A says the same and keeps waiting; nothing is stored.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

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

paired_data_path_with_tcp "$dir_a" "$dir_b" NCS-PK-PASN-256 5108

step "A pairs with 128, B asks for 256: B fails, both say cipher suite mismatch, nothing stored"
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
# C, the accepting side, prints the failure and keeps waiting for a device until stopped.
wait_for_line "$(bg_log pairC)" 'cipher suite mismatch.*still waiting' 60
expect_running pairC
stop_bg pairC INT 1
expect_not_contains "C stored nothing" 'paired with key' "$("$WAWARE" devices list --store "$dir_c/devices.json" 2>&1)"
expect_not_contains "D stored nothing" 'paired with key' "$("$WAWARE" devices list --store "$dir_d/devices.json" 2>&1)"
