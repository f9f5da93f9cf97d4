#!/bin/bash
# TN3213's samples end to end (Examples/network-tn3213, on the Network-framework-shaped layer): A and B pair
# with a PIN; then, once per message protocol, A's NetworkListener publishes `_example-service._tcp` to its
# paired devices and B's NetworkBrowser finds it and connects with `withNetworkConnection` (TLS, the data path
# keyed by the pairing): a TLV with a type each way; a Codable GameMessage each way with the JSON, property
# list and compact binary coders; datagrams (`UDP()`); and QUIC (`QUIC(alpn: ["MyALPN"])`, the same pinned
# identities): a message each way on a stream B opens, a datagram each way (RFC 9221), a performance report. B supplies its own peer identifier (TN3213's
# persisted one) and A's listener sees it. Needs `swift build --product network-tn3213` (looked for next to
# the waware binary).
# timeout: 1200
source "$(dirname "$0")/../guest/lib.sh"

EXAMPLE=${WAWARE_NETWORK_TN3213:-$(dirname "$WAWARE")/network-tn3213}
[ -x "$EXAMPLE" ] || fail "no network-tn3213 at $EXAMPLE; build it with 'swift build --product network-tn3213'"

work=$(mktemp -d)
cat >"$work/services.json" <<'JSON'
{ "WiFiAwareServices": { "_example-service._tcp": { "Publishable": {}, "Subscribable": {} } } }
JSON
export WAWARE_SERVICES=$work/services.json
dir_a="$SCENARIO_OUT/a"; dir_b="$SCENARIO_OUT/b"
mkdir -p "$dir_a" "$dir_b"
peer_id=5e1ec7ed-0000-4000-8000-000000003213

step "two radios in namespaces dA, dB"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A and B pair with a PIN"
pair_with_pin dA "$dir_a/devices.json" dB "$dir_b/devices.json" 40
echo "$PAIR_OUT"

# exchange STACK REGEX_B REGEX_A: A listens with STACK, B connects with it; B's output must have a line
# matching REGEX_B and A's log one matching REGEX_A.
exchange() {
    local stack=$1 want_b=$2 want_a=$3 out
    step "$stack: A's NetworkListener, B's withNetworkConnection, one message each way"
    start_bg "lis-$stack" dA env WAWARE_STATE_DIR="$dir_a" "$EXAMPLE" listen "$stack"
    wait_for_line "$(bg_log "lis-$stack")" '^listener ready$' 90
    out=$(in_netns dB env WAWARE_STATE_DIR="$dir_b" timeout "$(scaled 300)" "$EXAMPLE" connect "$stack" \
        --peer-id "$peer_id" 2>&1) || fail "B's $stack connection failed ($?): $out"
    echo "$out" | sed 's/^/    B: /'
    LAST_B=$out
    expect_line "B found A, its paired device" '^browser found A$' "$out"
    expect_line "B got A's answer over $stack" "$want_b" "$out"
    wait_for_line "$(bg_log "lis-$stack")" "$want_a" 60
    sed 's/^/    A: /' "$(bg_log "lis-$stack")"
    if [ "$stack" = udp ] || [ "$stack" = quic ]; then
        # A answers datagrams until the connection ends; B's side ended it.
        wait_for_line "$(bg_log "lis-$stack")" '^listener done$' 60
    fi
    wait_bg "lis-$stack" 0 60
}

exchange tlv '^received TLV type selectedCharacter "knight"$' '^listener received TLV type move "e2-e4"$'
expect_line "A's listener saw the peer identifier B supplied" "^listener peer $peer_id\$" \
    "$(cat "$(bg_log lis-tlv)")"
exchange json '^received dragon move 4$' '^listener received json knight move 3$'
exchange plist '^received dragon move 4$' '^listener received plist knight move 3$'
exchange binary '^received dragon move 4$' '^listener received binary knight move 3$'
exchange udp '^received datagram "pong ping [0-9]+"$' '^listener received datagram "ping [0-9]+"$'
exchange quic '^received on QUIC stream [0-9]+ "pong over QUIC"$' '^listener received on QUIC stream [0-9]+ "ping over QUIC"$'
expect_line "B agreed the ALPN" '^ALPN MyALPN$' "$LAST_B"
expect_line "B got A's QUIC datagram" '^received QUIC datagram "pong ping [0-9]+"$' "$LAST_B"
expect_line "B read the QUIC path's performance report" '^performance signal ' "$LAST_B"
quic_a=$(cat "$(bg_log lis-quic)")
expect_line "A agreed the ALPN" '^listener ALPN MyALPN$' "$quic_a"
expect_line "A got B's QUIC datagram" '^listener received QUIC datagram "ping [0-9]+"$' "$quic_a"

step "no data interface left behind"
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
