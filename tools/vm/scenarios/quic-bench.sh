#!/bin/bash
# QUIC against TLS 1.3 over TCP over the same NAN data path, one boot (issue 27); a benchmark, not a test
# (default: no). A runs `quic-meter serve` (one listener taking QUIC and TLS over TCP on its port); B runs
# `quic-meter measure`, which holds one TLS connection (so every measurement uses one data path) and then,
# QUIC_BENCH_ROUNDS times, TLS then QUIC: connection setup (call to ready), QUIC_BENCH_PINGS message round
# trips of 64 bytes, and a second connection's throughput (QUIC_BENCH_MB MiB). Raw samples go to
# samples.txt and the figures (QUIC as a ratio of TLS) to figures.txt in the scenario's folder
# (tools/quic-bench prints them). Settings reach the guest through the file tools/quic-bench writes.
# default: no
# timeout: 1800
source "$(dirname "$0")/../guest/lib.sh"

QUIC_BENCH_ROUNDS=5 QUIC_BENCH_PINGS=20 QUIC_BENCH_MB=4
load_settings QUIC_BENCH_ROUNDS QUIC_BENCH_PINGS QUIC_BENCH_MB
echo "settings: $QUIC_BENCH_ROUNDS rounds, $QUIC_BENCH_PINGS pings, $QUIC_BENCH_MB MiB"

METER=$(dirname "$WAWARE")/quic-meter
[ -x "$METER" ] || fail "no quic-meter next to waware; build it with 'swift build --product quic-meter'"

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A: quic-meter serve (QUIC and TLS over TCP on one port)"
st=$(mktemp -d)
start_bg serve dA env WAWARE_STATE_DIR="$st" "$METER" serve _quicbench._tcp
wait_for_line "$(bg_log serve)" '^listening on port' 90

step "B: quic-meter measure"
stb=$(mktemp -d)
out=$(in_netns dB env WAWARE_STATE_DIR="$stb" timeout "$(scaled 1500)" "$METER" measure _quicbench._tcp \
    --rounds "$QUIC_BENCH_ROUNDS" --pings "$QUIC_BENCH_PINGS" --megabytes "$QUIC_BENCH_MB" 2>&1) \
    || { echo "$out" | tail -20; sed 's/^/    A: /' "$(bg_log serve)" | tail -20; fail "quic-meter measure failed"; }
echo "$out" | grep -v '^sample .* rtt ' | sed 's/^/    B: /'
echo "$out" | grep '^sample ' >"$SCENARIO_OUT/samples.txt"
echo "$out" | grep '^figure ' | sed 's/^figure //' >"$SCENARIO_OUT/figures.txt"
expect_line "B measured both transports" '^figure throughput-median tls [0-9.]+ Mbit/s quic [0-9.]+ Mbit/s' "$out"
expect_line "QUIC connections were QUIC" '^sample quic setup .*QUIC \(ALPN waware-bench\)' "$out"
if grep -q '^refused' "$(bg_log serve)"; then
    grep '^refused' "$(bg_log serve)" | sed 's/^/    A: /'
fi
stop_bg serve KILL
