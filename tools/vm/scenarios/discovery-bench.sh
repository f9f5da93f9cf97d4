#!/bin/bash
# Discovery latency benchmark (tools/discovery-bench runs it and prints the figures): over RUNS runs,
# time from subscribe start (cluster joined) to the discovery result, passive and active, and follow-up
# delivery time (send on the subscriber to receipt on the publisher); then the idle cost of
# `waware publish` with one service (CPU time per minute, resident memory).
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, seconds), idle figures to $SCENARIO_OUT/idle.tsv, and
# what the figures were measured with to $SCENARIO_OUT/meta.tsv (binary, its sha256 and build
# configuration, kernel, regulatory domain as `iw reg get` shows it, the DW frequencies in effect).
# A run whose sample is missing fails: nothing is ever counted as 0.
# timeout: 600
# default: no (a benchmark: tools/discovery-bench runs it and prints the figures)
source "$(dirname "$0")/../guest/lib.sh"
RUNS=${DISCOVERY_BENCH_RUNS:-20}
# Latency is what users get from an optimised build: use the release binary when tools/discovery-bench
# built one that is newer than the debug one.
release=${WAWARE_REPO:-}/.build/release/waware
if [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
echo "benchmarking $WAWARE"
case $WAWARE in
    */.build/release/*) configuration=release ;;
    */.build/debug/*) configuration=debug ;;
    *) configuration=unknown ;;
esac

# A regulatory domain that allows NAN on 5 GHz: the engine then uses both bands' DWs (the world domain
# forbids initiating on 5 GHz, and the engine falls back to 2.4 GHz alone).
set_country US
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "bands in effect: the DW frequencies the engine is told of (3 s of 'waware peers', traced)"
in_netns dB env WAWARE_TRACE=1 timeout "$(scaled 30)" "$WAWARE" peers --duration 3 >/dev/null 2>"$SCENARIO_OUT/bands.trace" \
    || fail "waware peers for the band check failed: $(tail -n 3 "$SCENARIO_OUT/bands.trace")"
bands=$(sed -n 's/^trace .* dw [0-9]* \([0-9]*\) MHz.*/\1/p' "$SCENARIO_OUT/bands.trace" | sort -un | tr '\n' ',' | sed 's/,$//')
expect_match "DW frequencies in effect" '^[0-9]+' "$bands"
{
    printf 'binary\t%s\n' "$WAWARE"
    printf 'binary_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'configuration\t%s\n' "$configuration"
    printf 'kernel\t%s\n' "$(uname -r)"
    printf 'regulatory_domain\t%s\n' "$(iw reg get | grep -m 1 '^country' | cut -d: -f1 | cut -d' ' -f2)"
    printf 'dw_frequencies_mhz\t%s\n' "$bands"
    printf 'runs\t%s\n' "$RUNS"
    printf 'guest_cpus\t%s\n' "$(nproc)"
} | tee "$SCENARIO_OUT/meta.tsv"

step "publishers: unsolicited _benchp._tcp on radio 0, solicited-only _bencha._tcp on radio 2"
start_bg pubp dA "$WAWARE" publish _benchp._tcp --unsolicited --json
wait_for_line "$(bg_log pubp)" '"event":"started"' 30
start_bg puba dC "$WAWARE" publish _bencha._tcp --solicited --json
wait_for_line "$(bg_log puba)" '"event":"started"' 30

samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1; }
# sample KIND VALUE RUN: appends one sample; a missing or non-numeric value fails the run.
sample() {
    [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "run $3: no $1 sample (got '$2')"
    printf '%s\t%s\n' "$1" "$2" >>"$samples"
}
# Each subscribe starts at a random point of the DW period, as an application's would (the engine is
# ready just after a DW, which would otherwise always measure the worst phase).
phase() { awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.3f", rand() * 0.524 }'; }
for run in $(seq 1 "$RUNS"); do
    out=$(in_netns dB "$WAWARE" subscribe _benchp._tcp --delay "$(phase)" --count 1 --send "ping$run" --timeout "$(scaled 20)" --json) \
        || fail "passive run $run failed: $out"
    sample passive "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" "$run"
    sent_at=$(echo "$out" | grep '"event":"sending"' | field time)
    acked_in=$(echo "$out" | grep '"event":"sent"' | grep -c '"status":"acknowledged"')
    [ "$acked_in" = 1 ] || fail "run $run: ping not acknowledged: $out"
    wait_for_line "$(bg_log pubp)" "\"event\":\"message\".*\"info\":\"ping$run\"" 10 >/dev/null
    got_at=$(echo "$LINE" | field time)
    [ -n "$sent_at" ] && [ -n "$got_at" ] || fail "run $run: no follow-up times (sent '$sent_at', received '$got_at')"
    sample followup "$(awk -v a="$sent_at" -v b="$got_at" 'BEGIN { printf "%.3f", b - a }')" "$run"

    out=$(in_netns dB "$WAWARE" subscribe _bencha._tcp --active --delay "$(phase)" --count 1 --timeout "$(scaled 20)" --json) \
        || fail "active run $run failed: $out"
    sample active "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" "$run"
    echo "run $run: $(tail -n 3 "$samples" | tr '\n\t' ' :')"
done
stop_bg puba

step "idle cost of 'waware publish' with one service (30 s)"
expect_running pubp
pid=${_BG_PIDS[pubp]}
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks)
sleep 30
t1=$(ticks)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
[[ $t0 =~ ^[0-9]+$ && $t1 =~ ^[0-9]+$ && $rss =~ ^[0-9]+$ ]] || fail "no idle sample (ticks '$t0' '$t1', rss '$rss')"
cpu_per_minute=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz * 2 }')
printf 'cpu_seconds_per_minute\t%s\nrss_kib\t%s\n' "$cpu_per_minute" "$rss" | tee "$SCENARIO_OUT/idle.tsv"
stop_bg pubp
