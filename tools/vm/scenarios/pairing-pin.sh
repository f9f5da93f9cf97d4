#!/bin/bash
# NAN pairing over the air between two waware devices: A shows a PIN, B bootstraps (PIN keypad against A's
# PIN display, in follow-ups: A answers "come back" until its PIN is confirmed) and pairs with it (PASN with
# SAE over the PIN, then the NIKs in follow-ups). Both stores end with one paired-device entry for the
# other, holding its NIK and the NPK (method SAE), file mode 0600, and both NPKs are equal. Met again, B
# verifies A with the cached NPK (no PIN, no bootstrapping) and both say "verified". Then a wrong PIN fails
# B in one line; A prints the failure and keeps waiting for a device until stopped; nothing more is stored.
# timeout: 300
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
store_a="$SCENARIO_OUT/a-devices.json"
store_b="$SCENARIO_OUT/b-devices.json"

# key FIELD of the only device in store FILE (python3: the store is JSON).
device_field() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["devices"]; print(len(d), d[0].get(sys.argv[2]) or "")' "$1" "$2"
}

step "A shows a PIN and waits"
start_bg pairA dA "$WAWARE" pair --store "$store_a" --name B --timeout "$(scaled 90)"
wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' 40
pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA)" | head -n 1)

step "B pairs with PIN $pin"
out=$(in_netns dB "$WAWARE" pair --pin "$pin" --name A --store "$store_b" --timeout "$(scaled 90)" 2>&1) \
    || fail "B could not pair: $out"
echo "$out"
expect_contains "B stored A with a key" 'paired with key (SAE)' "$out"
wait_bg pairA 0 60
expect_contains "A stored B with a key" 'paired with key (SAE)' "$(cat "$(bg_log pairA)")"
expect_contains "A's store lists B as paired" 'paired with key' "$("$WAWARE" devices list --store "$store_a")"
expect_contains "A was asked to bootstrap" 'asks to pair' "$(cat "$(bg_log pairA)")"
expect_contains "B bootstrapped first" 'bootstrapping with' "$out"

step "both stores: one entry each, NIK and NPK held, mode 0600, the same NPK"
for side in a b; do
    file="$SCENARIO_OUT/$side-devices.json"
    expect_eq "$side's store mode" 600 "$(stat -c %a "$file")"
    expect_match "$side's entry has the peer's NIK" '^1 [0-9a-fA-F]{32}$' "$(device_field "$file" identityKey)"
    expect_match "$side's entry has the NPK" '^1 [0-9a-fA-F]{64}$' "$(device_field "$file" pairingKey)"
    expect_eq "$side's pairing method" "1 SAE" "$(device_field "$file" pairingMethod)"
done
same=no
[ "$(device_field "$store_a" pairingKey)" = "$(device_field "$store_b" pairingKey)" ] && same=yes
expect_eq "A and B hold the same NPK (not printed)" yes "$same"

step "met again, B verifies A with the stored key, without a PIN"
npk_a=$(device_field "$store_a" pairingKey)
start_bg verifyA dA "$WAWARE" pair --store "$store_a" --timeout "$(scaled 90)"
wait_for_line "$(bg_log verifyA)" '^PIN [0-9]{6}' 40
out=$(in_netns dB "$WAWARE" pair --find --store "$store_b" --timeout "$(scaled 90)" 2>&1) || fail "B could not verify A: $out"
echo "$out"
expect_contains "B verified A" 'verified A' "$out"
expect_contains "B used the stored key" 'verifying it with the stored key' "$out"
expect_not_contains "B did not bootstrap" 'bootstrapping with' "$out"
wait_bg verifyA 0 60
expect_contains "A verified B" 'verified B' "$(cat "$(bg_log verifyA)")"
same=no
[ "$npk_a" = "$(device_field "$store_a" pairingKey)" ] && same=yes
expect_eq "A's store keeps its one entry and the same NPK (not printed)" yes "$same"
expect_eq "B's store still has one entry" 1 "$("$WAWARE" devices list --store "$store_b" | wc -l)"

step "a wrong PIN fails B; A says so and keeps waiting (a forged frame must not end it)"
start_bg pairA2 dA "$WAWARE" pair --store "$store_a" --name B2 --timeout "$(scaled 90)"
wait_for_line "$(bg_log pairA2)" '^PIN [0-9]{6}' 40
pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA2)" | head -n 1)
wrong=$(printf '%06d' $(( (10#$pin + 1) % 1000000 )))
if out=$(in_netns dB "$WAWARE" pair --pin "$wrong" --store "$store_b" --timeout "$(scaled 90)" 2>&1); then
    fail "B paired with a wrong PIN: $out"
fi
echo "$out"
expect_contains "B says the PIN is wrong" 'wrong PIN' "$out"
wait_for_line "$(bg_log pairA2)" "wrong PIN.*still waiting" 60
expect_running pairA2
# Ctrl-C ends the wait: "interrupted", exit 1.
stop_bg pairA2 INT 1
expect_eq "B still has one paired device" 1 "$("$WAWARE" devices list --store "$store_b" | wc -l)"
expect_eq "A still has one paired device" 1 "$("$WAWARE" devices list --store "$store_a" | wc -l)"
