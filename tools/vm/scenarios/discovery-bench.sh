#!/bin/bash
# Discovery latency benchmark (tools/discovery-bench runs it and prints the figures): over RUNS runs,
# time from subscribe start (cluster joined) to the discovery result, passive and active, and follow-up
# delivery time (send on the subscriber to receipt on the publisher); then the idle cost of
# `waware publish` with one service (CPU time per minute, resident memory).
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, seconds), idle figures to $SCENARIO_OUT/idle.tsv, and
# what the figures were measured with to $SCENARIO_OUT/meta.tsv (binary, its sha256 and build
# configuration, kernel, regulatory domain as `iw reg get` shows it, the DW frequencies in effect).
# A run whose sample is missing fails: nothing is ever counted as 0.
# With DISCOVERY_BENCH_REFERENCE=1 the same three measurements follow between two wpa_supplicant 2.12
# instances (the reference stack: P publishes in dD, Q subscribes in dE), with the same random DW phase before
# each subscribe, as ref_passive (Q's NAN_SUBSCRIBE to its NAN-DISCOVERY-RESULT), ref_active (the same, active,
# toward P's solicited-only publish) and ref_followup (Q's NAN_TRANSMIT to P's NAN-RECEIVE): each instant is the
# -t time stamp of the line in wpa_supplicant's own -dd log ("Control interface command '...'" when the stack
# got the command, the event's line when it reported it), as waware's are the time stamps of its own --json
# lines; then the idle cost of P publishing one service. DISCOVERY_BENCH_DOMAIN: US (default: DWs on 2.4 and
# 5 GHz) or world (2.4 GHz DWs only; wpa_supplicant then runs with dual_band 0).
# timeout: 600
# default: no (a benchmark: tools/discovery-bench runs it and prints the figures)
source "$(dirname "$0")/../guest/lib.sh"
load_settings DISCOVERY_BENCH_RUNS DISCOVERY_BENCH_DOMAIN DISCOVERY_BENCH_REFERENCE
RUNS=${DISCOVERY_BENCH_RUNS:-20}
DOMAIN=${DISCOVERY_BENCH_DOMAIN:-US}
REFERENCE=${DISCOVERY_BENCH_REFERENCE:-0}
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || fail "DISCOVERY_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 999"
case $DOMAIN in
    US) country=US ;;
    world) country=00 ;;
    *) fail "DISCOVERY_BENCH_DOMAIN: '$DOMAIN' is neither US nor world" ;;
esac
[ "$REFERENCE" = 1 ] && source "$(dirname "$0")/../guest/wpas.sh"
# Latency is what users get from an optimised build: use the release binary when tools/discovery-bench
# built one that is newer than the debug one.
release=${WAWARE_REPO:-}/.build/release/waware
if [ -z "${WAWARE_BINARY_GIVEN:-}" ] && [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
echo "benchmarking $WAWARE"
case $WAWARE in
    */.build/release/*) configuration=release ;;
    */.build/debug/*) configuration=debug ;;
    *) configuration=unknown ;;
esac

# US allows NAN on 5 GHz: the engine then uses both bands' DWs; the world domain forbids initiating on 5 GHz,
# and the engine falls back to 2.4 GHz alone.
set_country "$country"
if [ "$REFERENCE" = 1 ]; then sim_radios 5; else sim_radios 3; fi
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC
if [ "$REFERENCE" = 1 ]; then radio_netns 3 dD; radio_netns 4 dE; fi

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
    [ "$REFERENCE" = 1 ] && printf 'reference\t%s (dual_band %s)\n' "$WPAS_BIN" "$([ "$DOMAIN" = US ] && echo 1 || echo 0)"
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

# idle_cost PID PREFIX: PID's CPU time over 30 s (seconds per minute) and its resident memory, to idle.tsv.
idle_cost() {
    local pid=$1 t0 t1 rss hz
    ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
    hz=$(getconf CLK_TCK)
    t0=$(ticks)
    sleep 30
    t1=$(ticks)
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
    [[ $t0 =~ ^[0-9]+$ && $t1 =~ ^[0-9]+$ && $rss =~ ^[0-9]+$ ]] || fail "no idle sample (ticks '$t0' '$t1', rss '$rss')"
    printf '%scpu_seconds_per_minute\t%s\n%srss_kib\t%s\n' "$2" "$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz * 2 }')" \
        "$2" "$rss" | tee -a "$SCENARIO_OUT/idle.tsv"
}

step "idle cost of 'waware publish' with one service (30 s)"
expect_running pubp
: >"$SCENARIO_OUT/idle.tsv"
idle_cost "${_BG_PIDS[pubp]}" ""
stop_bg pubp
[ "$REFERENCE" = 1 ] || exit 0

step "reference: wpa_supplicant P publishes _benchp._tcp (unsolicited) and _bencha._tcp (solicited only) in dD; Q subscribes in dE"
if [ "$DOMAIN" = US ]; then schedule="2437:0e000000 5180:f0ffffff"; else schedule="2437:0e000000"; fi
WPAS_DUAL_BAND=$([ "$DOMAIN" = US ] && echo 1 || echo 0)
wpas_start P dD 3 "$schedule"
wpas_start Q dE 4 "$schedule"
nmiP=${WPAS_NMI[P]}
ppid=$(wpas P NAN_PUBLISH service_name=_benchp._tcp sync=1 ttl=3600)
apid=$(wpas P NAN_PUBLISH service_name=_bencha._tcp sync=1 unsolicited=0 ttl=3600)
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# ref_sample KIND FROM_NAME FROM_TEXT TO_NAME TO_TEXT RUN: seconds from the first line with FROM_TEXT in FROM_NAME's
# log since the command was sent to the first with TO_TEXT in TO_NAME's log after it.
ref_sample() {
    local from to
    from=$(wpas_log_after "$2" "$SENT" "$3")
    to=$(wpas_log_after "$4" "$from" "$5")
    sample "$1" "$(awk -v a="$from" -v b="$to" 'BEGIN { printf "%.3f", b - a }')" "$6"
}
for run in $(seq 1 "$RUNS"); do
    wpas_mark Q
    nap "$(phase)"
    SENT=$(date +%s.%N)
    sid=$(wpas Q NAN_SUBSCRIBE service_name=_benchp._tcp sync=1)
    wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiP" 20
    pubinst=$(wpas_field "$LINE" publish_id)
    ref_sample ref_passive Q "Control interface command 'NAN_SUBSCRIBE service_name=_benchp" Q "NAN-DISCOVERY-RESULT subscribe_id=$sid " "$run"

    wpas_mark P
    SENT=$(date +%s.%N)
    wpas Q NAN_TRANSMIT handle="$sid" req_instance_id="$pubinst" address="$nmiP" ssi="$(hex "ping$run")" >/dev/null
    wpas_wait P "NAN-RECEIVE id=$ppid .*ssi=$(hex "ping$run")" 20
    ref_sample ref_followup Q "Control interface command 'NAN_TRANSMIT handle=$sid " P "NAN-RECEIVE id=$ppid " "$run"
    wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null

    wpas_mark Q
    nap "$(phase)"
    SENT=$(date +%s.%N)
    sid=$(wpas Q NAN_SUBSCRIBE service_name=_bencha._tcp sync=1 active=1)
    wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiP" 20
    ref_sample ref_active Q "Control interface command 'NAN_SUBSCRIBE service_name=_bencha" Q "NAN-DISCOVERY-RESULT subscribe_id=$sid " "$run"
    wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    echo "reference run $run: $(tail -n 3 "$samples" | tr '\n\t' ' :')"
done

step "idle cost of the reference publisher P with one service (30 s)"
wpas P NAN_CANCEL_PUBLISH publish_id="$apid" >/dev/null
idle_cost "${_BG_PIDS[P-wpas-main]}" ref_
