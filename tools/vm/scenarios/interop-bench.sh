#!/bin/bash
# Data paths across stacks, measured side by side in one boot (tools/interop-bench runs it and prints the
# figures): waware to waware, wpa_supplicant 2.12 to wpa_supplicant, waware requesting from wpa_supplicant and
# wpa_supplicant requesting from waware, one pairing at a time, on four simulated radios of the same kind:
# waware A (publisher) in dA and B (subscriber) in dB, wpa_supplicant P (publisher) in dC and Q (subscriber)
# in dD; open data paths, wpa_supplicant with its usual schedule (2437 MHz slots 1-3, 5180 MHz slots 4-31):
#  - setup time over RUNS runs: from the initiator's first Data Path Request on the air (hwsim's monitor,
#    tools/vm/guest/naf-capture.py) to both sides reporting the data path up (waware's `data-path-up` line,
#    wpa_supplicant's NAN-NDP-CONNECTED event, both stamped on the guest's clock). wpa_supplicant's side
#    accepts every request at once (wpas_auto_accept), as an application that takes them all would;
#  - TCP throughput (iperf3, SECONDS s, initiator to responder) over the last data path of each pairing.
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, value) and the channels and build to meta.tsv. A
# missing sample fails the run: nothing is counted as 0.
# timeout: 1800
# default: no (a benchmark: tools/interop-bench runs it and prints the figures)
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"
load_settings INTEROP_BENCH_RUNS INTEROP_BENCH_SECONDS
RUNS=${INTEROP_BENCH_RUNS:-5}
SECONDS_IPERF=${INTEROP_BENCH_SECONDS:-8}
[[ $RUNS =~ ^[1-9][0-9]?$ ]] || fail "INTEROP_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 99"
[[ $SECONDS_IPERF =~ ^[1-9][0-9]?$ ]] || fail "INTEROP_BENCH_SECONDS: '$SECONDS_IPERF' is not 1 to 99"
release=${WAWARE_REPO:-}/.build/release/waware
if [ -z "${WAWARE_BINARY_GIVEN:-}" ] && [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
case $WAWARE in
    */.build/release/*) configuration=release ;;
    */.build/debug/*) configuration=debug ;;
    *) configuration=unknown ;;
esac
echo "settings: $RUNS setups per pairing, iperf3 for $SECONDS_IPERF s; waware $WAWARE ($configuration)"
samples=$SCENARIO_OUT/samples.tsv
meta=$SCENARIO_OUT/meta.tsv
: >"$samples"
{
    printf 'waware\t%s\n' "$WAWARE"
    printf 'waware_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'configuration\t%s\n' "$configuration"
    printf 'peer\t%s\n' "$WPAS_BIN"
    printf 'kernel\t%s\n' "$(uname -r)"
} >"$meta"
sample() {
    [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "$3: no $1 sample (got '$2')"
    printf '%s\t%s\n' "$1" "$2" >>"$samples"
}

set_country US
iw reg get | head -n 3 | sed 's/^/    reg: /'
printf 'regulatory\t%s\n' "$(iw reg get | sed -n 's/^country \([A-Z0-9]*\):.*/\1/p' | head -n 1)" >>"$meta"
sim_radios 4
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC
radio_netns 3 dD
ip link set hwsim0 up || fail "no hwsim0 monitor interface: the setup time cannot be measured"
air=$SCENARIO_OUT/air.txt
python3 "$_lib_dir/naf-capture.py" hwsim0 >"$air" 2>"$SCENARIO_OUT/air.err" &
_BG_PIDS[air-capture]=$!

# first_request_after T0 SOURCE: the time of the first Data Path Request (NAF subtype 5) SOURCE sent after T0.
first_request_after() {
    awk -v t0="$1" -v src="$2" '$2 == "naf" && $3 == 5 && $1 >= t0 && $11 == src { print $1; exit }' "$air"
}
# json_time LINE: the "time" field of a waware --json line.
json_time() { sed -n 's/.*"time":\([0-9.]*\).*/\1/p' <<<"$1" | head -n 1; }
# event_time LINE: the time stamp wpas-ctl.py put in front of an event line.
event_time() { cut -d' ' -f1 <<<"$1"; }
# setup KIND T0 SOURCE END: a setup sample from the request on the air to END (the later side's report).
setup() {
    local request
    for _ in $(seq 1 20); do
        request=$(first_request_after "$2" "$3")
        [ -n "$request" ] && break
        nap 0.2
    done
    [ -n "$request" ] || fail "$1: no Data Path Request from $3 on the air after $2"
    sample "setup_$1" "$(awk -v a="$request" -v b="$4" 'BEGIN { printf "%.3f", b - a }')" "$1"
    echo "    $1: request on the air at $request, both up at $4"
}
later() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }
# iperf_over KIND NS_SERVER NS_CLIENT IF_SERVER IF_CLIENT ADDRESS
iperf_over() {
    iperf_mbps "$1" "$2" "$3" "$4" "$5" "$6" "$SECONDS_IPERF" 1
    sample "tput_$1" "$IPERF_MBPS" "$1"
}

wpas_start P dC 2
wpas_start Q dD 3

# waware_requests KIND SERVICE NS_PUB_WAIT...: RUNS setups by `waware subscribe --data-path` in dB toward SERVICE;
# the responder's "up" is read by $RESPONDER_UP (a function given the subscriber's NMI; it sets UP_AT).
waware_requests() {
    local kind=$1 service=$2 run t0 b_up nmiB ifB addrB
    for run in $(seq 1 "$RUNS"); do
        [ "$kind" = wp ] && wpas_mark P
        t0=$(date +%s.%N)
        start_bg "$kind-sub$run" dB env WAWARE_TRACE=1 "$WAWARE" subscribe "$service" --count 1 --data-path --open --json
        wait_for_line "$(bg_log "$kind-sub$run")" '"event":"data-path-(up|down)"' 150
        expect_contains "$kind run $run" data-path-up "$LINE"
        b_up=$(json_time "$LINE")
        nmiB=$(event_field "$(bg_log "$kind-sub$run")" started address)
        "$RESPONDER_UP" "$nmiB"
        setup "$kind" "$t0" "$nmiB" "$(later "$b_up" "$UP_AT")"
        if [ "$run" = "$RUNS" ]; then
            # wpa_supplicant ends a data path idle for 25 s; the bench can take longer to start iperf.
            [ "$kind" = wp ] && wpas_keep_busy P "$PEER_NDI"
            { read -r ifB; read -r addrB; } < <(event_field "$(bg_log "$kind-sub$run")" data-path-up interface localAddress)
            wait_link_local dB "$ifB" "$addrB"
            "$RESPONDER_IPERF" "$ifB" "$addrB"
            [ "$kind" = wp ] && wpas_keep_busy_stop P
        fi
        [ "$kind" = wp ] && wpas_mark P
        stop_bg "$kind-sub$run" INT
        "$RESPONDER_DOWN" "$nmiB"
    done
}

# peer_requests KIND RESPONDER_NMI SERVICE: RUNS setups by wpa_supplicant Q's NAN_NDP_REQUEST toward SERVICE.
peer_requests() {
    local kind=$1 nmi=$2 service=$3 run sid pubid t0 q_up ndp q_ndi
    wpas_mark Q
    sid=$(wpas Q NAN_SUBSCRIBE service_name="$service" sync=1)
    wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmi" 60
    pubid=$(wpas_field "$LINE" publish_id)
    for run in $(seq 1 "$RUNS"); do
        wpas_mark Q
        t0=$(date +%s.%N)
        wpas Q NAN_NDP_REQUEST handle="$sid" ndi=ndiQ peer_nmi="$nmi" peer_id="$pubid" >/dev/null
        wpas_wait Q "NAN-NDP-CONNECTED .*peer=$nmi|NAN-NDP-DISCONNECTED" 120
        expect_contains "$kind run $run" NAN-NDP-CONNECTED "$LINE"
        q_up=$(event_time "$LINE")
        ndp=$(wpas_field "$LINE" ndp_id)
        q_ndi=$(wpas_field "$LINE" peer_ndi)
        "$RESPONDER_UP" "${WPAS_NMI[Q]}"
        setup "$kind" "$t0" "${WPAS_NMI[Q]}" "$(later "$q_up" "$UP_AT")"
        if [ "$run" = "$RUNS" ]; then
            wpas_keep_busy Q "$q_ndi"
            "$RESPONDER_IPERF" ndiQ "$(wpas_link_local Q)"
            wpas_keep_busy_stop Q
        fi
        wpas_mark Q
        wpas Q NAN_NDP_TERMINATE peer_nmi="$nmi" init_ndi="${WPAS_NDI[Q]}" ndp_id="$ndp" >/dev/null
        wpas_wait Q "NAN-NDP-DISCONNECTED .*peer=$nmi" 60
        "$RESPONDER_DOWN" "${WPAS_NMI[Q]}"
    done
    wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
}

# wait_nth FILE REGEX N SECONDS: waits for the Nth line matching REGEX in FILE (A's publish log holds every
# run's records: the same peer's first line would answer every later run); the line is left in $LINE.
wait_nth() {
    local file=$1 regex=$2 n=$3 deadline
    deadline=$(($EPOCHSECONDS + $(scaled "$4")))
    while [ "$(grep -c -E -- "$regex" "$file" 2>/dev/null)" -lt "$n" ]; do
        [ "$EPOCHSECONDS" -ge "$deadline" ] && fail "no line $n matching /$regex/ in ${file##*/} after $(scaled "$4")s"
        nap 0.2
    done
    LINE=$(grep -E -- "$regex" "$file" | sed -n "${n}p")
    echo "ok: ${file##*/} line $n /$regex/: $LINE"
}

# Responders: waware A (publish log $A_LOG) and wpa_supplicant P. Each sets UP_AT and PEER_NDI (the
# initiator's NDI, for the pings before iperf).
declare -A A_UPS=() A_DOWNS=()
waware_up() {
    A_UPS[$1]=$((${A_UPS[$1]:-0} + 1))
    wait_nth "$A_LOG" "\"event\":\"data-path-up\".*\"peer\":\"$1\"" "${A_UPS[$1]}" 60
    UP_AT=$(json_time "$LINE")
}
waware_down() {
    A_DOWNS[$1]=$((${A_DOWNS[$1]:-0} + 1))
    wait_nth "$A_LOG" "\"event\":\"data-path-down\".*\"peer\":\"$1\"" "${A_DOWNS[$1]}" 60
}
peer_up() { wpas_wait P "NAN-NDP-CONNECTED .*peer=$1" 60; UP_AT=$(event_time "$LINE"); PEER_NDI=$(wpas_field "$LINE" peer_ndi); }
peer_down() { wpas_wait P "NAN-NDP-DISCONNECTED .*peer=$1" 60; }
# iperf from the initiator (dB: waware B; dD: wpa_supplicant Q) to the responder (A in dA; P in dC).
waware_iperf() {
    local ifA addrA client_ns=dB
    [ "$1" = ndiQ ] && client_ns=dD
    { read -r ifA; read -r addrA; } < <(event_field "$A_LOG" data-path-up interface localAddress)
    wait_link_local dA "$ifA" "$addrA"
    iperf_over "$KIND" dA "$client_ns" "$ifA" "$1" "$addrA"
}
peer_iperf() {
    local client_ns=dB
    [ "$1" = ndiQ ] && client_ns=dD
    iperf_over "$KIND" dC "$client_ns" ndiP "$1" "$(wpas_link_local P)"
}

step "waware to waware: B requests from A's publish, $RUNS times"
start_bg pub dA "$WAWARE" publish _ibw._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
A_LOG=$(bg_log pub)
KIND=ww RESPONDER_UP=waware_up RESPONDER_DOWN=waware_down RESPONDER_IPERF=waware_iperf
waware_requests ww _ibw._tcp

step "wpa_supplicant to waware: Q requests from A's publish, $RUNS times"
KIND=pw
peer_requests pw "$(event_field "$A_LOG" started address)" _ibw._tcp
stop_bg pub INT

step "waware to wpa_supplicant: B requests from P's publish, $RUNS times"
pid=$(wpas P NAN_PUBLISH service_name=_ibp._tcp sync=1 data_path=1 ttl=1800)
wpas_auto_accept P "ndi=ndiP handle=$pid"
KIND=wp RESPONDER_UP=peer_up RESPONDER_DOWN=peer_down RESPONDER_IPERF=peer_iperf
waware_requests wp _ibp._tcp

step "wpa_supplicant to wpa_supplicant: Q requests from P's publish, $RUNS times"
KIND=pp
peer_requests pp "${WPAS_NMI[P]}" _ibp._tcp
wpas_auto_accept_stop P

step "samples"
sed 's/^/    /' "$samples"
for kind in ww pw wp pp; do
    expect_eq "setup samples $kind" "$RUNS" "$(grep -c "^setup_$kind" "$samples")"
    expect_eq "throughput sample $kind" 1 "$(grep -c "^tput_$kind" "$samples")"
done
