#!/bin/bash
# Private recognition across a new random NMI. A and B pair with a PIN. B then starts NAN again in a new
# process, so with a new random NMI (the default), and publishes; C, a third radio that never paired with
# anyone, publishes the same service. A control subscribe on A with any device hears both. A subscribing
# with `--paired` recognises B by its NIRA at the new address, verifies it with the stored pairing key (no
# PIN, no bootstrapping), reports it as the paired device "B", and never reports C; A's store notes B's
# new address first, still one device. (api-paired-selection covers a hand-typed address selection with
# fixed addresses; this one the NIK, the NIRA and verification.)
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

work=$(mktemp -d)
mkdir -p "$work/A" "$work/B" "$work/C"
store_a=$work/A/devices.json
store_b=$work/B/devices.json

# first_address STORE: the first management address of the only device in STORE.
first_address() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["devices"]; print(len(d), d[0]["managementAddresses"][0])' "$1"
}

step "three radios in namespaces dA, dB, dC"
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "A and B pair with a PIN"
pair_with_pin dA "$store_a" dB "$store_b"
echo "$PAIR_OUT"
read -r count old_b < <(first_address "$store_a")
expect_eq "A's store holds one device" 1 "$count"
echo "B paired at $old_b"

step "B starts NAN again (a new process, a new random NMI) and publishes; C, never paired, publishes too"
start_bg pubB dB env WAWARE_STATE_DIR="$work/B" "$WAWARE" publish _pna._tcp --info b --json
start_bg pubC dC env WAWARE_STATE_DIR="$work/C" "$WAWARE" publish _pna._tcp --info c --json
wait_for_line "$(bg_log pubB)" '"event":"started"' 60
wait_for_line "$(bg_log pubC)" '"event":"started"' 60
new_b=$(event_field "$(bg_log pubB)" started address)
addr_c=$(event_field "$(bg_log pubC)" started address)
expect_match "B's new NMI" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$new_b"
expect_match "C's NMI" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addr_c"
[ "$new_b" != "$old_b" ] || fail "B kept its NMI $old_b across a restart; expected a new random one"
echo "ok: B's NMI changed from $old_b to $new_b"

step "control: A subscribing with any device hears both B and C"
out=$(in_netns dA env WAWARE_STATE_DIR="$work/A" timeout -k 2 "$(scaled 120)" \
    "$WAWARE" subscribe _pna._tcp --json --count 2 --timeout "$(scaled 60)" 2>&1) || fail "control subscribe failed: $out"
echo "$out"
expect_contains "B heard at its new address" "\"peer\":\"$new_b\"" "$out"
expect_contains "C heard" "\"peer\":\"$addr_c\"" "$out"

step "A subscribes to paired devices only: B recognised and verified at its new address, C never reported"
start_bg sub dA env WAWARE_STATE_DIR="$work/A" "$WAWARE" subscribe _pna._tcp --paired --json
wait_for_line "$(bg_log sub)" '"event":"verified"' 240
verified=$LINE
wait_for_line "$(bg_log sub)" '"event":"discovered"' 60
discovered=$LINE
# C was heard within a second in the control: give it three more seconds (scaled) to be wrongly reported.
sleep "$(scaled 3)"
stop_bg sub INT
out=$(cat "$(bg_log sub)")
echo "$out"
cp "$(bg_log sub)" "$SCENARIO_OUT/paired-subscribe.log"
expect_contains "B verified at its new address" "\"peer\":\"$new_b\"" "$verified"
expect_contains "verified as the paired device B" '"device":"B"' "$verified"
expect_contains "B discovered at its new address" "\"peer\":\"$new_b\"" "$discovered"
expect_contains "discovered as the paired device B" '"device":"B"' "$discovered"
expect_not_contains "C never reported" "$addr_c" "$out"
expect_not_contains "no PIN asked" "PIN" "$out"
read -r count first < <(first_address "$store_a")
expect_eq "A's store still holds one device" 1 "$count"
expect_eq "A's store notes B's new address first" "$new_b" "$first"

stop_bg pubB INT
stop_bg pubC INT
