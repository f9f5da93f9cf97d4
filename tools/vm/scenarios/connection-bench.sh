#!/bin/bash
# Connection benchmark (issue 10), one boot; a benchmark, not a test (default: no). A runs
# `waware listen --echo --datagrams`; B runs connection-meter (tools/connection-meter, the public API) for
# each transport in CONNECTION_BENCH_TRANSPORTS (default "plain"; "tls" runs without --plain):
# browse-to-ready, message and datagram round trips, client memory per open connection (8 connections over
# one data path); A's memory per connection is read from /proc at the same moments. While B holds the data
# path, tls-throughput-meter measures TLS 1.3 throughput over the NDP against plain TCP over the same NDP
# (CONNECTION_BENCH_MB MiB each, default 8), unpaced and then with B's NDI paced (tc tbf) to each rate in
# CONNECTION_BENCH_PACED (Mbit/s, default "25 50 100"): hwsim frames take no airtime, so unpaced both
# transports are bounded by the emulated CPU, which also does TLS's AES-GCM (its speed is a figure too).
# Figures go to figures.txt in the scenario's folder (tools/connection-bench prints them).
# Settings: CONNECTION_BENCH_TRANSPORTS, CONNECTION_BENCH_MB and CONNECTION_BENCH_PACED, from the file
# tools/connection-bench writes (load_settings): the host's environment does not reach the guest.
# default: no
# timeout: 1800
source "$(dirname "$0")/../guest/lib.sh"

CONNECTION_BENCH_TRANSPORTS=plain CONNECTION_BENCH_MB=8 CONNECTION_BENCH_PACED="25 50 100"
load_settings CONNECTION_BENCH_TRANSPORTS CONNECTION_BENCH_MB CONNECTION_BENCH_PACED
echo "settings: transports $CONNECTION_BENCH_TRANSPORTS, $CONNECTION_BENCH_MB MiB for tls-throughput-meter, paced at ${CONNECTION_BENCH_PACED:-nothing} Mbit/s"

BIN=$(dirname "$WAWARE")
for tool in connection-meter tls-throughput-meter; do
    [ -x "$BIN/$tool" ] || fail "no $tool next to waware; build it with 'swift build --product $tool'"
done
FIG="$SCENARIO_OUT/figures.txt"
: >"$FIG"
figure() { echo "    figure: $*"; echo "$*" >>"$FIG"; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
tls_done=

for transport in $CONNECTION_BENCH_TRANSPORTS; do
    flag=--tofu; [ "$transport" = plain ] && flag=--plain   # TLS between unpaired bench devices: trust on first use
    st=$(mktemp -d); hold=$(mktemp -u)
    step "[$transport] A listens (echo, datagrams)"
    start_bg "lis-$transport" dA env WAWARE_STATE_DIR="$st" "$WAWARE" listen _bench._tcp --open $flag --echo --datagrams --json
    wait_for_line "$(bg_log "lis-$transport")" '"event":"listening"' 90
    pidA=${_BG_PIDS[lis-$transport]}
    sleep 2
    idleA=$(rss "$pidA")

    step "[$transport] B: connection-meter (30 pings, 8 connections)"
    start_bg "bench-$transport" dB "$BIN/connection-meter" _bench._tcp $flag --pings 30 --connections 8 --hold-until "$hold" \
        --hold-seconds "$(scaled 400)"
    wait_for_line "$(bg_log "bench-$transport")" '^holding 1 connection|^connection-meter: ' 400
    expect_match "B holds one connection" '^holding 1' "$LINE"
    sleep 1
    oneA=$(rss "$pidA")
    wait_for_line "$(bg_log "bench-$transport")" '^holding [0-9]+ connections|^connection-meter: ' 400
    expect_match "B holds 8 connections" '^holding 8' "$LINE"
    sleep 1
    allA=$(rss "$pidA")
    grep '^figure' "$(bg_log "bench-$transport")" | sed "s/^figure /$transport /" | while read -r line; do figure "$line"; done
    figure "$transport listener-memory idle $idleA KiB, 1 connection $oneA KiB, 8 connections $allA KiB, per connection $(( (allA - oneA) / 7 )) KiB"

    if [ -z "$tls_done" ]; then
        step "TLS 1.3 and plain TCP over the same NDP (tls-throughput-meter, $CONNECTION_BENCH_MB MiB each)"
        wait_for_line "$(bg_log "lis-$transport")" '"event":"data-path-up"' 30
        { read -r ifA; read -r localA; } < <(event_field "$(bg_log "lis-$transport")" data-path-up interface localAddress)
        ifB=$(sed -n 's/^data path \([^ ]*\) .*/\1/p' "$(bg_log "bench-$transport")" | head -n 1)
        start_bg tlsA dA "$BIN/tls-throughput-meter" --serve --interface "$ifA" --port 5310
        # tls-throughput-meter's own lines are buffered when they go to a file: wait for its port instead.
        for _ in $(seq 1 "$(scaled 120)"); do
            in_netns dA ss -Hltn 'sport = :5310' | grep -q 5310 && break
            sleep 1
        done
        # What the emulated CPU encrypts per second: TLS 1.3 here negotiates AES-256-GCM (OpenSSL's first
        # suite), and on an unpaced hwsim link this, not the air, bounds TLS.
        aes=$(openssl speed -seconds 2 -bytes 16384 -evp aes-256-gcm 2>/dev/null | awk '/^AES-256-GCM/ { sub(/k$/, "", $2); printf "%.1f", $2 / 1000 }')
        figure "guest aes-256-gcm ${aes:-?} MB/s (openssl speed, 16 KiB blocks, one core)"
        # tls_run LABEL: one plain and one TLS push from B to A, as figures prefixed with LABEL.
        tls_run() {
            out=$(in_netns dB timeout "$(scaled 600)" "$BIN/tls-throughput-meter" --connect "[$localA%$ifB]:5310" --megabytes "$CONNECTION_BENCH_MB" 2>&1) \
                || fail "tls-throughput-meter ($1) failed: $out"
            echo "$out" | sed "s/^/    tls-throughput-meter $1: /"
            figure "$1 tls-throughput-meter $(echo "$out" | grep '^plain' | tr -s ' ')"
            figure "$1 tls-throughput-meter $(echo "$out" | grep '^TLS' | tr -s ' ')"
            figure "$1 $(echo "$out" | grep '^ratio')"
        }
        tls_run ndp
        # hwsim frames take no airtime: pace B's sending side (tbf on its NDI) to link rates a radio would
        # have, so the link, not the emulated CPU, bounds plain TCP, as on the air.
        for rate in $CONNECTION_BENCH_PACED; do
            in_netns dB tc qdisc replace dev "$ifB" root tbf rate "${rate}mbit" burst 64kb latency 200ms \
                || fail "cannot pace $ifB to $rate Mbit/s (tc tbf)"
            tls_run "ndp-paced-$rate"
            in_netns dB tc qdisc del dev "$ifB" root || fail "cannot remove the pacing from $ifB"
        done
        stop_bg tlsA TERM 143
        tls_done=1
    fi

    touch "$hold"
    wait_bg "bench-$transport" 0 120
    stop_bg "lis-$transport" INT
    sleep 2
done
figure "guest load $(cut -d' ' -f1-3 /proc/loadavg)"
