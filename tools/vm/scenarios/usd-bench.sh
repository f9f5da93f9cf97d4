#!/bin/bash
# USD latency benchmark (tools/usd-bench runs it and prints the figures): over RUNS runs on plain radios without
# NAN, all on 2437 MHz, the time from a subscribe's start to its discovery result, passive (toward an unsolicited
# publish) and active (toward a solicited-only publish), the follow-up delivery (send on the subscriber to
# receipt on the publisher) and the follow-up round trip (the subscriber's send to the receipt of the
# publisher's answer).
# waware: A publishes _usdbp._tcp unsolicited answering "pong" (radio 0, dA), C publishes _usdba._tcp solicited
# only (radio 2, dC), B subscribes (radio 1, dB); instants are the `time` fields of waware's --json lines (one
# guest clock), discovery is the `elapsed` of the discovered line (seconds since the session started).
# With USD_BENCH_REFERENCE=1 the same measurements follow between two wpa_supplicant 2.12 instances with USD on
# their station interfaces (the reference: P publishes both services in dD, Q subscribes in dE), after waware's
# publishers ended: ref_passive / ref_active (Q's NAN_SUBSCRIBE to its NAN-DISCOVERY-RESULT), ref_followup (Q's
# NAN_TRANSMIT to P's NAN-RECEIVE) and ref_roundtrip (that, plus P's NAN_TRANSMIT of "pong" to Q's NAN-RECEIVE:
# the time the script takes to answer is left out, as waware's publisher answers in the engine), each instant the
# -t time stamp of the line in wpa_supplicant's own -dd log.
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, seconds), what they were measured with to meta.tsv.
# A run whose sample is missing fails: nothing is ever counted as 0.
# timeout: 900
# default: no (a benchmark: tools/usd-bench runs it and prints the figures)
source "$(dirname "$0")/../guest/lib.sh"
load_settings USD_BENCH_RUNS USD_BENCH_REFERENCE
RUNS=${USD_BENCH_RUNS:-15}
REFERENCE=${USD_BENCH_REFERENCE:-0}
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || fail "USD_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 999"
[ "$REFERENCE" = 1 ] && source "$(dirname "$0")/../guest/wpas.sh"
# Latency is what users get from an optimised build: use the release binary when tools/usd-bench built one that
# is newer than the debug one.
release=${WAWARE_REPO:-}/.build/release/waware
if [ -z "${WAWARE_BINARY_GIVEN:-}" ] && [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
echo "benchmarking $WAWARE"
case $WAWARE in
    */.build/release/*) configuration=release ;;
    */.build/debug/*) configuration=debug ;;
    *) configuration=unknown ;;
esac

if [ "$REFERENCE" = 1 ]; then sim_radios 5 --no-nan; else sim_radios 3 --no-nan; fi
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC
if [ "$REFERENCE" = 1 ]; then radio_netns 3 dD; radio_netns 4 dE; fi
{
    printf 'binary\t%s\n' "$WAWARE"
    printf 'binary_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'configuration\t%s\n' "$configuration"
    printf 'kernel\t%s\n' "$(uname -r)"
    printf 'regulatory_domain\t%s\n' "$(iw reg get | grep -m 1 '^country' | cut -d: -f1 | cut -d' ' -f2)"
    printf 'usd_frequency_mhz\t2437\n'
    printf 'runs\t%s\n' "$RUNS"
    printf 'guest_cpus\t%s\n' "$(nproc)"
    [ "$REFERENCE" = 1 ] && printf 'reference\t%s (USD on its station interface)\n' "$WPAS_BIN"
} | tee "$SCENARIO_OUT/meta.tsv"

step "waware publishers: unsolicited _usdbp._tcp (answers pong) on radio 0, solicited-only _usdba._tcp on radio 2"
start_bg pubp dA "$WAWARE" publish _usdbp._tcp --usd --unsolicited --answer pong --json
wait_for_line "$(bg_log pubp)" '"event":"started"' 30
start_bg puba dC "$WAWARE" publish _usdba._tcp --usd --solicited --json
wait_for_line "$(bg_log puba)" '"event":"started"' 30

samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1; }
# sample KIND VALUE RUN: appends one sample; a missing or non-numeric value fails the run.
sample() {
    [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "run $3: no $1 sample (got '$2')"
    printf '%s\t%s\n' "$1" "$2" >>"$samples"
}
diff_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# A random wait before each subscribe: the publisher's 100 ms announcements and the listen periods meet it at
# any phase, as an application's would.
phase() { awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.3f", rand() * 0.3 }'; }
for run in $(seq 1 "$RUNS"); do
    nap "$(phase)"
    out=$(in_netns dB "$WAWARE" subscribe _usdbp._tcp --usd --count 1 --send "ping$run" --messages 1 \
        --timeout "$(scaled 20)" --json) || fail "passive run $run failed: $out"
    sample passive "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" "$run"
    sent_at=$(echo "$out" | grep '"event":"sending"' | field time)
    answer_at=$(echo "$out" | grep '"event":"message"' | field time)
    [ "$(echo "$out" | grep '"event":"sent"' | grep -c '"status":"acknowledged"')" = 1 ] \
        || fail "run $run: ping not acknowledged: $out"
    wait_for_line "$(bg_log pubp)" "\"event\":\"message\".*\"info\":\"ping$run\"" 10 >/dev/null
    got_at=$(echo "$LINE" | field time)
    [ -n "$sent_at" ] && [ -n "$got_at" ] && [ -n "$answer_at" ] \
        || fail "run $run: no follow-up times (sent '$sent_at', received '$got_at', answer '$answer_at')"
    sample followup "$(diff_s "$sent_at" "$got_at")" "$run"
    sample roundtrip "$(diff_s "$sent_at" "$answer_at")" "$run"

    nap "$(phase)"
    out=$(in_netns dB "$WAWARE" subscribe _usdba._tcp --usd --active --count 1 --timeout "$(scaled 20)" --json) \
        || fail "active run $run failed: $out"
    sample active "$(echo "$out" | grep '"event":"discovered"' | field elapsed)" "$run"
    echo "run $run: $(tail -n 4 "$samples" | tr '\n\t' ' :')"
done
stop_bg puba
stop_bg pubp
[ "$REFERENCE" = 1 ] || exit 0

step "reference: wpa_supplicant P publishes _usdbp._tcp (unsolicited) and _usdba._tcp (solicited only) in dD; Q subscribes in dE"
wpas_start_usd P dD 3
wpas_start_usd Q dE 4
addrP=${WPAS_ADDR[P]}
addrQ=${WPAS_ADDR[Q]}
# A wpa_supplicant publisher that receives a follow-up pauses that publish for a while (about 55 s here: the
# first run of 2026-12-06 found every publish of P silent for 44-48 s after a run's follow-ups): each run
# publishes anew, as waware's fresh subscriber processes meet publishers that never paused.
ppid=
apid=
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# ref_between FROM_NAME FROM_TEXT TO_NAME TO_TEXT: seconds from the first line with FROM_TEXT in FROM_NAME's log
# since $SENT to the first with TO_TEXT in TO_NAME's log after it (TO_TEXT: the whole event line as the monitor
# wrote it, without its time stamp, so that no earlier or other event of the same kind can stand for it).
ref_between() {
    local from to
    from=$(wpas_log_after "$1" "$SENT" "$2")
    to=$(wpas_log_after "$3" "$from" "$4")
    diff_s "$from" "$to"
}
for run in $(seq 1 "$RUNS"); do
    [ -n "$ppid" ] && wpas P NAN_CANCEL_PUBLISH publish_id="$ppid" >/dev/null
    [ -n "$apid" ] && wpas P NAN_CANCEL_PUBLISH publish_id="$apid" >/dev/null
    ppid=$(wpas P NAN_PUBLISH service_name=_usdbp._tcp ttl=3600)
    apid=$(wpas P NAN_PUBLISH service_name=_usdba._tcp unsolicited=0 ttl=3600)
    wpas_mark Q
    nap "$(phase)"
    SENT=$(date +%s.%N)
    sid=$(wpas Q NAN_SUBSCRIBE service_name=_usdbp._tcp ttl=3600)
    wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$addrP" 20
    pubinst=$(wpas_field "$LINE" publish_id)
    sample ref_passive "$(ref_between Q "Control interface command 'NAN_SUBSCRIBE service_name=_usdbp" Q "${LINE#* }")" "$run"

    wpas_mark P
    SENT=$(date +%s.%N)
    wpas_transmit Q handle="$sid" req_instance_id="$pubinst" address="$addrP" ssi="$(hex "ping$run")"
    wpas_wait P "NAN-RECEIVE id=$ppid .*ssi=$(hex "ping$run")" 20
    peer_inst=$(wpas_field "$LINE" peer_instance_id)
    there=$(ref_between Q "Control interface command 'NAN_TRANSMIT handle=$sid " P "${LINE#* }")
    sample ref_followup "$there" "$run"
    wpas_mark Q
    SENT=$(date +%s.%N)
    wpas_transmit P handle="$ppid" req_instance_id="$peer_inst" address="$addrQ" ssi="$(hex pong)"
    wpas_wait Q "NAN-RECEIVE id=$sid .*ssi=$(hex pong)" 20
    back=$(ref_between P "Control interface command 'NAN_TRANSMIT handle=$ppid " Q "${LINE#* }")
    sample ref_roundtrip "$(awk -v a="$there" -v b="$back" 'BEGIN { printf "%.3f", a + b }')" "$run"
    wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null

    wpas_mark Q
    nap "$(phase)"
    SENT=$(date +%s.%N)
    sid=$(wpas Q NAN_SUBSCRIBE service_name=_usdba._tcp active=1 ttl=3600)
    wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$addrP" 20
    sample ref_active "$(ref_between Q "Control interface command 'NAN_SUBSCRIBE service_name=_usdba" Q "${LINE#* }")" "$run"
    wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    echo "reference run $run: $(tail -n 4 "$samples" | tr '\n\t' ' :')"
done
wpas P NAN_CANCEL_PUBLISH publish_id="$apid" >/dev/null
wpas P NAN_CANCEL_PUBLISH publish_id="$ppid" >/dev/null
nap 1
