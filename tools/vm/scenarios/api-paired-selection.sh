#!/bin/bash
# The example program (Examples/aware-example, public WiFiAware API only) publishes _chat._tcp on radios A
# and B; C subscribes with a paired-device selection holding only A's NAN address: C finds A (named as
# paired) and never reports B. A control subscribe on C with any device sees both, so B was on the air.
# Needs `swift build --product aware-example` (it is looked for next to the waware binary).
# timeout: 180
source "$(dirname "$0")/../guest/lib.sh"

EXAMPLE=${WAWARE_EXAMPLE:-$(dirname "$WAWARE")/aware-example}
[ -x "$EXAMPLE" ] || fail "no aware-example at $EXAMPLE; build it with 'swift build --product aware-example'"

step "a services file and a device store per device, in temporary folders"
work=$(mktemp -d)
cat >"$work/services.json" <<'JSON'
{ "WiFiAwareServices": { "_chat._tcp": { "Publishable": { "serviceInfo": "v=1" }, "Subscribable": {} } } }
JSON
cp "$work/services.json" "$SCENARIO_OUT/services.json"
export WAWARE_SERVICES=$work/services.json
mkdir -p "$work/A" "$work/B" "$work/C"

step "three radios in namespaces dA, dB, dC"
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "A and B publish _chat._tcp with the example"
start_bg pubA dA env WAWARE_STATE_DIR="$work/A" "$EXAMPLE" publish _chat._tcp
start_bg pubB dB env WAWARE_STATE_DIR="$work/B" "$EXAMPLE" publish _chat._tcp
wait_for_line "$(bg_log pubA)" '^started _chat._tcp' 40
wait_for_line "$(bg_log pubB)" '^started _chat._tcp' 40
addrA=$(sed -n 's/^system .* nmi \([0-9a-f:]*\)$/\1/p' "$(bg_log pubA)" | head -n 1)
addrB=$(sed -n 's/^system .* nmi \([0-9a-f:]*\)$/\1/p' "$(bg_log pubB)" | head -n 1)
expect_match "A's NAN address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addrA"
expect_match "B's NAN address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addrB"

step "control: C subscribing with any device hears both publishers"
out=$(in_netns dC env WAWARE_STATE_DIR="$work/C" timeout -k 2 "$(scaled 60)" "$EXAMPLE" subscribe _chat._tcp --timeout "$(scaled 5)" 2>&1) \
    || fail "control subscribe failed: $out"
echo "$out"
expect_contains "A heard" "discovered peer $addrA" "$out"
expect_contains "B heard" "discovered peer $addrB" "$out"
expect_contains "unpaired peers are marked so" "device (unpaired)" "$out"

step "C pairs A only (waware devices add), then subscribes with --paired"
in_netns dC env WAWARE_STATE_DIR="$work/C" "$WAWARE" devices add "$addrA" deviceA || fail "devices add failed"
in_netns dC env WAWARE_STATE_DIR="$work/C" "$WAWARE" devices list
out=$(in_netns dC env WAWARE_STATE_DIR="$work/C" timeout -k 2 "$(scaled 60)" "$EXAMPLE" subscribe _chat._tcp --paired --timeout "$(scaled 5)" 2>&1) \
    || fail "paired subscribe failed: $out"
echo "$out"
echo "$out" >"$SCENARIO_OUT/paired-subscribe.log"
expect_contains "A found and named as paired" "discovered peer $addrA instance" "$out"
expect_contains "A's device name" "device deviceA" "$out"
expect_contains "A's service info" 'info "v=1"' "$out"
expect_not_contains "B never reported" "$addrB" "$out"
expect_contains "the timeout ended the session" "timeout after $(scaled 5).0 s" "$out"

# The example program installs no SIGTERM handler: the default action ends it, exit 128+15. (Both
# must still be running here: a publisher that died earlier fails this.)
stop_bg pubA TERM 143
stop_bg pubB TERM 143
