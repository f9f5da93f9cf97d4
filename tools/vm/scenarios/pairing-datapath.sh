#!/bin/bash
# A data path keyed by NAN pairing (NCS-PK-PASN-128), the default between paired devices: A and B pair with
# a PIN (as pairing-pin does), then A publishes accepting data paths and B requests one, neither with a
# passphrase. B verifies A with the stored pairing key first (PASN, no PIN), both derive the same ND-PMK,
# and the NDP's 4-way handshake keyed by it brings the data path up: both report cipher NCS-PK-PASN-128,
# each side's peer NDI station is authorized with MFP, and TCP carries 64 KiB each way byte-exact. Then B's
# pairing key is changed in its store: B fails verification in one `waware:` line (exit 1), A reports the
# refusal (data-path-down, security-failure, pairing verification failed), and no data path comes up.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
dir_a="$SCENARIO_OUT/a"; dir_b="$SCENARIO_OUT/b"
mkdir -p "$dir_a" "$dir_b"

step "A and B pair with a PIN"
pair_with_pin dA "$dir_a/devices.json" dB "$dir_b/devices.json" 40
echo "$PAIR_OUT"
expect_contains "B stored A with a key" 'paired with key (SAE)' "$PAIR_OUT"

paired_data_path_with_tcp "$dir_a" "$dir_b" NCS-PK-PASN-128 5107

step "B's pairing key no longer matches A's: refused on both sides"
python3 - "$dir_b/devices.json" <<'PY'
import json, sys
path = sys.argv[1]
store = json.load(open(path))
device = store["devices"][0]
key = device["pairingKey"]
device["pairingKey"] = ("0" if key[0] != "0" else "1") + key[1:]
with open(path, "w") as f:
    json.dump(store, f)
PY
expect_eq "B's store mode" 600 "$(stat -c %a "$dir_b/devices.json")"
start_bg pub2 dA env WAWARE_STATE_DIR="$dir_a" "$WAWARE" publish _pdp._tcp --accept-data-paths --json
wait_for_line "$(bg_log pub2)" '"event":"started"' 60
start_bg sub2 dB env WAWARE_STATE_DIR="$dir_b" "$WAWARE" subscribe _pdp._tcp --count 1 --data-path --json
wait_for_line "$(bg_log sub2)" 'waware: .*verification' 300
wait_bg sub2 1 60
expect_contains "B says verification failed" 'failed pairing verification' "$(cat "$(bg_log sub2)")"
wait_for_line "$(bg_log pub2)" '"event":"data-path-down"' 120
expect_contains "A refused B" 'pairing verification failed' "$LINE"
expect_contains "A's reason" '"reason":"security-failure"' "$LINE"
expect_not_contains "no data path on A" 'data-path-up' "$(cat "$(bg_log pub2)")"
expect_not_contains "no data path on B" 'data-path-up' "$(cat "$(bg_log sub2)")"
stop_bg pub2 INT
