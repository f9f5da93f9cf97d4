#!/bin/bash
# Pairing the way a pairing sheet does it (the WAPairing roles acceptShowingPIN / initiateAskingPIN, through
# `waware pair --pin-on-request` and `waware pair --ask-pin --peer`): A publishes and shows no PIN until a
# device asks; B picks A by its NAN address, bootstraps, and only then asks for the PIN on standard input.
# A prints a fresh PIN naming B's request, the script types it into B, and both store the other with a key.
# Then a PIN typed wrong at the prompt fails B in one line; A prints the failure and keeps waiting for a device
# (a forged frame must not end it) until stopped; nothing more is stored.
# timeout: 300
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
store_a="$SCENARIO_OUT/a-devices.json"
store_b="$SCENARIO_OUT/b-devices.json"
# The FIFO lives in the guest's own /tmp: on the shared results folder a read saw end of input at once.
pins=$(mktemp -d)/pins
mkfifo "$pins"

# run_round NAME TYPE: A accepts with --pin-on-request; B asks for the PIN; TYPE "right" types A's PIN, "wrong"
# types another one. Leaves the logs in pairA-NAME and pairB-NAME.
run_round() {
    local name=$1 type=$2 address pin typed
    start_bg "pairA-$name" dA "$WAWARE" pair --pin-on-request --store "$store_a" --name B --timeout "$(scaled 120)"
    wait_for_line "$(bg_log "pairA-$name")" 'waiting for a device to pair' 40
    grep -qE '^PIN [0-9]' "$(bg_log "pairA-$name")" && fail "A showed a PIN before anyone asked"
    # The NAN address is random per start: read it off the NAN interface A's pair made.
    address=$(in_netns dA iw dev | awk '$1 == "addr" { addr = $2 } $1 == "type" && $2 == "NAN" { print addr; exit }')
    expect_match "A's NAN address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$address"
    step "B pairs with A ($address), asking for the PIN"
    start_bg "pairB-$name" dB sh -c "exec \"$WAWARE\" pair --ask-pin --peer $address --store \"$store_b\" --name A --timeout $(scaled 120) <>\"$pins\""
    wait_for_line "$(bg_log "pairA-$name")" '^PIN [0-9]{6} for ' 90
    pin=$(sed -n 's/^PIN \([0-9]\{6\}\) for .*/\1/p' "$(bg_log "pairA-$name")" | head -n 1)
    wait_for_line "$(bg_log "pairB-$name")" 'type the PIN' 60
    typed=$pin
    [ "$type" = right ] || typed=$(printf '%06d' $(( (10#$pin + 1) % 1000000 )))
    echo "A shows $pin; typing $typed into B"
    echo "$typed" >"$pins"
}

step "A waits without a PIN; B asks for one once bootstrapped"
run_round one right
wait_bg pairB-one 0 90
wait_bg pairA-one 0 60
expect_match "B stored A with a key" 'paired A  .*paired with key \(SAE\)' "$(cat "$(bg_log pairB-one)")"
expect_match "A stored B with a key" 'paired B  .*paired with key \(SAE\)' "$(cat "$(bg_log pairA-one)")"
expect_contains "B bootstrapped before it asked" 'bootstrapping with' "$(cat "$(bg_log pairB-one)")"
expect_eq "A's store has one device" 1 "$("$WAWARE" devices list --store "$store_a" | grep -c 'paired with key')"
expect_eq "B's store has one device" 1 "$("$WAWARE" devices list --store "$store_b" | grep -c 'paired with key')"

step "a PIN typed wrong fails B; A says so and keeps waiting"
rm -f "$store_a" "$store_b"
run_round two wrong
wait_bg pairB-two 1 90
expect_contains "B says the PIN is wrong" 'wrong PIN' "$(cat "$(bg_log pairB-two)")"
wait_for_line "$(bg_log pairA-two)" 'wrong PIN.*still waiting' 60
expect_running pairA-two
stop_bg pairA-two INT 1
for side in a b; do
    count=0
    file="$SCENARIO_OUT/$side-devices.json"
    # The store may exist (it keeps our own identity key) but must hold no device.
    [ -f "$file" ] && count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("devices", [])))' "$file")
    expect_eq "$side stored no device" 0 "$count"
done
