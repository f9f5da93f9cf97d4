#!/bin/bash
# Discovery latency benchmark (tools/discovery-bench runs it and prints the figures): over RUNS runs,
# time from subscribe start (cluster joined) to the discovery result, passive and active, and follow-up
# delivery time (send on the subscriber to receipt on the publisher); then the idle cost of
# `waware publish` with one service (CPU time per minute, resident memory).
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, seconds), idle figures to $SCENARIO_OUT/idle.tsv.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"
RUNS=${DISCOVERY_BENCH_RUNS:-20}
# Latency is what users get from an optimised build: use the release binary when tools/discovery-bench
# built one that is newer than the debug one.
release=${WAWARE_REPO:-}/.build/release/waware
if [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
echo "benchmarking $WAWARE"

# A regulatory domain that allows NAN on 5 GHz: the engine then uses both bands' DWs (the world domain
# forbids initiating on 5 GHz, and the engine falls back to 2.4 GHz alone).
iw reg set US || fail "iw reg set US failed"
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "publishers: unsolicited _benchp._tcp on radio 0, solicited-only _bencha._tcp on radio 2"
start_bg pubp dA "$WAWARE" publish _benchp._tcp --unsolicited --json
wait_for_line "$(bg_log pubp)" '"event":"started"' 30
start_bg puba dC "$WAWARE" publish _bencha._tcp --solicited --json
wait_for_line "$(bg_log puba)" '"event":"started"' 30

samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1; }
# Each subscribe starts at a random point of the DW period, as an application's would (the engine is
# ready just after a DW, which would otherwise always measure the worst phase).
phase() { awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.3f", rand() * 0.524 }'; }
for run in $(seq 1 "$RUNS"); do
    out=$(in_netns dB "$WAWARE" subscribe _benchp._tcp --delay "$(phase)" --count 1 --send "ping$run" --timeout 20 --json) \
        || fail "passive run $run failed: $out"
    printf 'passive\t%s\n' "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" >>"$samples"
    sent_at=$(echo "$out" | grep '"event":"sending"' | field time)
    acked_in=$(echo "$out" | grep '"event":"sent"' | grep -c '"status":"acknowledged"')
    [ "$acked_in" = 1 ] || fail "run $run: ping not acknowledged: $out"
    wait_for_line "$(bg_log pubp)" "\"event\":\"message\".*\"info\":\"ping$run\"" 10 >/dev/null
    got_at=$(echo "$LINE" | field time)
    printf 'followup\t%s\n' "$(awk -v a="$sent_at" -v b="$got_at" 'BEGIN { printf "%.3f", b - a }')" >>"$samples"

    out=$(in_netns dB "$WAWARE" subscribe _bencha._tcp --active --delay "$(phase)" --count 1 --timeout 20 --json) \
        || fail "active run $run failed: $out"
    printf 'active\t%s\n' "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" >>"$samples"
    echo "run $run: $(tail -n 3 "$samples" | tr '\n\t' ' :')"
done
stop_bg puba

step "idle cost of 'waware publish' with one service (30 s)"
pid=$(pgrep -f 'publish _benchp._tcp' | head -n 1)
[ -n "$pid" ] || fail "publisher process not found"
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks)
sleep 30
t1=$(ticks)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
cpu_per_minute=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz * 2 }')
printf 'cpu_seconds_per_minute\t%s\nrss_kib\t%s\n' "$cpu_per_minute" "$rss" | tee "$SCENARIO_OUT/idle.tsv"
stop_bg pubp
