#!/bin/bash
# Issue 27's first seed as written (Examples/network-seed, on the Network-framework-shaped layer
# WiFiAwareNetwork): A and B pair with a PIN and name each other "My Device ..." (the seed's predicate), A's
# NetworkListener publishes `_example-service._tcp` to the matching paired devices over TLS, B's
# NetworkBrowser finds A, B's NetworkConnection (TLS, data path keyed by the pairing) sends a message and gets
# the answer, and B reads `currentPath?.wifiAware?.performance`. A's listener exits after that connection.
# Needs `swift build --product network-seed` (looked for next to the waware binary).
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

EXAMPLE=${WAWARE_NETWORK_SEED:-$(dirname "$WAWARE")/network-seed}
[ -x "$EXAMPLE" ] || fail "no network-seed at $EXAMPLE; build it with 'swift build --product network-seed'"

work=$(mktemp -d)
cat >"$work/services.json" <<'JSON'
{ "WiFiAwareServices": { "_example-service._tcp": { "Publishable": {}, "Subscribable": {} } } }
JSON
export WAWARE_SERVICES=$work/services.json
dir_a="$SCENARIO_OUT/a"; dir_b="$SCENARIO_OUT/b"
mkdir -p "$dir_a" "$dir_b"

step "two radios in namespaces dA, dB"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A and B pair with a PIN, and name each other as the seed's predicate wants"
pair_with_pin dA "$dir_a/devices.json" dB "$dir_b/devices.json" 40
echo "$PAIR_OUT"
in_netns dA "$WAWARE" devices rename --store "$dir_a/devices.json" B "My Device B" || fail "rename on A"
in_netns dB "$WAWARE" devices rename --store "$dir_b/devices.json" A "My Device A" || fail "rename on B"

step "A: NetworkListener(for: .wifiAware(.connecting(to: .exampleService, from: .matching(devices))), using: { TLS() })"
start_bg lis dA env WAWARE_STATE_DIR="$dir_a" "$EXAMPLE" listen
wait_for_line "$(bg_log lis)" '^listener ready$' 90

step "B: NetworkBrowser, NetworkConnection { TLS() }, a message each way, currentPath?.wifiAware?.performance"
out=$(in_netns dB env WAWARE_STATE_DIR="$dir_b" timeout "$(scaled 300)" "$EXAMPLE" browse 2>&1) \
    || fail "the browser failed ($?): $out"
echo "$out" | sed 's/^/    B: /'
expect_line "the browser was ready" '^browser ready$' "$out"
expect_line "B found A among its matching paired devices" '^browser found .* device My Device A$' "$out"
expect_line "the connection was preparing, then ready" '^connection preparing$' "$out"
expect_line "the connection became ready" '^connection ready$' "$out"
expect_contains "B got A's answer" 'browser received "hello from the listener"' "$out"
expect_line "B read the performance report" '^performance signal .* sent [0-9]+ bytes received [0-9]+ bytes' "$out"

step "A got B's message and ended after the connection"
wait_for_line "$(bg_log lis)" 'listener received "hello from the browser"' 60
wait_bg lis 0 60
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
