#!/bin/bash
# Data-path benchmark (tools/datapath-bench runs it and prints the figures), in one boot, two radios in
# namespaces dA (publisher accepting data paths) and dB (subscriber requesting one):
#  - NDP setup time over RUNS runs, open and (when this build has it) NCS-SK-128: from the subscriber's Data
#    Path Request leaving (its trace line `dp tx 5`) to both sides reporting `data-path-up`;
#  - the idle cost of the publisher holding one NDP (CPU seconds per minute, resident memory);
#  - TCP throughput (iperf3, 10 s, B to A) over the NDP, then over an open 802.11s mesh between the same two
#    radios on the NDP's 5 GHz channel, and their ratio.
# Raw samples go to $SCENARIO_OUT/samples.tsv (kind, value), and what they were measured with to
# $SCENARIO_OUT/meta.tsv (binary, sha256, build configuration, kernel, `iw reg get`, the NDP schedule's
# channels, the mesh frequency). A missing sample fails the run: nothing is ever counted as 0.
# With DATAPATH_BENCH_REFERENCE=1, the same between two wpa_supplicant 2.12 instances (the reference stack: P
# publishes and accepts every request at once in dC, Q requests in dD, with their usual schedule, 2437 MHz
# slots 1-3 and 5180 MHz slots 4-31): RUNS open and RUNS NCS-SK-128 setups (ref_open, ref_secure), from Q's
# Data Path Request handed to the kernel to both NAN-NDP-CONNECTED, from their -t logs (wpas_ndp_setup in
# tools/vm/guest/wpas.sh), and TCP throughput over the last open one (throughput_ref_ndp_mbps). A setup that
# fails is tried again and counted (ref_open_failures, ref_secure_failures; at most RUNS each).
# timeout: 1200
# default: no (a benchmark: tools/datapath-bench runs it and prints the figures)
source "$(dirname "$0")/../guest/lib.sh"
load_settings DATAPATH_BENCH_RUNS DATAPATH_BENCH_SECONDS DATAPATH_BENCH_REFERENCE
RUNS=${DATAPATH_BENCH_RUNS:-10}
REFERENCE=${DATAPATH_BENCH_REFERENCE:-0}
[ "$REFERENCE" = 1 ] && source "$(dirname "$0")/../guest/wpas.sh"
IPERF_SECONDS=${DATAPATH_BENCH_SECONDS:-10}
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || fail "DATAPATH_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 999"
[[ $IPERF_SECONDS =~ ^[1-9][0-9]{0,2}$ ]] || fail "DATAPATH_BENCH_SECONDS: '$IPERF_SECONDS' is not a number of seconds from 1 to 999"
echo "settings: $RUNS runs, iperf3 for $IPERF_SECONDS s"
release=${WAWARE_REPO:-}/.build/release/waware
if [ -z "${WAWARE_BINARY_GIVEN:-}" ] && [ -x "$release" ] && [ "$release" -nt "$WAWARE" ]; then WAWARE=$release; fi
echo "benchmarking $WAWARE"
case $WAWARE in
    */.build/release/*) configuration=release ;;
    */.build/debug/*) configuration=debug ;;
    *) configuration=unknown ;;
esac
command -v iperf3 >/dev/null || fail "iperf3 is missing (package iperf3; tools/datapath-bench installs it)"
samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
sample() {
    [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "$3: no $1 sample (got '$2')"
    printf '%s\t%s\n' "$1" "$2" >>"$samples"
}

set_country US
if [ "$REFERENCE" = 1 ]; then sim_radios 4; else sim_radios 2; fi
radio_netns 0 dA
radio_netns 1 dB
if [ "$REFERENCE" = 1 ]; then radio_netns 2 dC; radio_netns 3 dD; fi
iw reg get | tee "$SCENARIO_OUT/reg.txt" | sed 's/^/    reg: /' | head -n 6

# setup_runs KIND SECURITY...: RUNS data paths one after another to a publisher accepting with SECURITY.
setup_runs() {
    local kind=$1 run pub=pub-$1
    shift
    step "$kind: $RUNS data-path setups"
    start_bg "$pub" dA "$WAWARE" publish _dpbench._tcp --accept-data-paths "$@" --json
    wait_for_line "$(bg_log "$pub")" '"event":"started"' 60
    for run in $(seq 1 "$RUNS"); do
        ndp_setup "$pub" sub env WAWARE_TRACE=1 "$WAWARE" subscribe _dpbench._tcp --count 1 --data-path "$@" --json \
            || fail "$kind run $run: B's data path went down: $LINE"
        sample "$kind" "$NDP_SETUP" "$kind run $run"
        echo "run $run: $kind $NDP_SETUP s"
        if [ "$run" = 1 ] && [ "$kind" = open ]; then
            sed -n 's/^trace [0-9.]* dp local schedule \(.*\)/\1/p' "$(bg_log sub)" | head -n 1 >"$SCENARIO_OUT/schedule.txt"
        fi
        [ "$run" = "$RUNS" ] && [ "$kind" = open ] && break
        ndp_end "$pub" sub
    done
}

setup_runs open --open
expect_match "the NDP schedule (B's trace)" 'ch 149' "$(cat "$SCENARIO_OUT/schedule.txt")"

step "idle cost of the publisher holding one open NDP (30 s)"
pid=${_BG_PIDS[pub-open]}
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); sleep 30; t1=$(ticks)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
sample idle_cpu_seconds_per_minute "$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz * 2 }')" idle
sample idle_rss_kib "$rss" idle

# iperf KIND NS_SERVER NS_CLIENT IF_SERVER IF_CLIENT ADDRESS_OF_SERVER: one 10 s TCP run, client to server.
iperf() {
    iperf_mbps "$1" "$2" "$3" "$4" "$5" "$6" "$IPERF_SECONDS"
    sample "throughput_$1_mbps" "$IPERF_MBPS" "$1"
}

step "TCP throughput over the NDP (B to A, ${IPERF_SECONDS} s)"
ifA=$(event_field "$(bg_log pub-open)" data-path-up interface)
ifB=$(event_field "$(bg_log sub)" data-path-up interface)
addrA=$(event_field "$(bg_log sub)" data-path-up peerAddress)
for i in $(seq 1 50); do
    in_netns dA ip -6 addr show dev "$ifA" scope link | grep -q tentative || in_netns dB ip -6 addr show dev "$ifB" scope link | grep -q tentative || break
    nap 0.2
done
iperf ndp dA dB "$ifA" "$ifB" "$addrA"
stop_bg sub INT
stop_bg pub-open INT

# Secure data paths: measured when this build has them. A build without them refuses the passphrase: the
# subscriber says so on a `waware:` line and exits, and the figures say that secure was not measured. The
# passphrase comes from a file: given on the command line, it makes waware print a `waware: warning:` line,
# which the probe below would take for a refusal (since that warning came on 2026-12-03, 9a08e69).
passphrase=$SCENARIO_OUT/passphrase.txt
echo waware-bench >"$passphrase"
step "secure (NCS-SK-128, passphrase): does this build set one up?"
start_bg probe-pub dA "$WAWARE" publish _dpprobe._tcp --accept-data-paths --passphrase-file "$passphrase" --json
wait_for_line "$(bg_log probe-pub)" '"event":"started"' 60
start_bg probe-sub dB "$WAWARE" subscribe _dpprobe._tcp --count 1 --data-path --passphrase-file "$passphrase" --json
wait_for_line "$(bg_log probe-sub)" '"event":"data-path-(up|down)"|waware: ' 300
if grep -q '"event":"data-path-up"' <<<"$LINE"; then
    stop_bg probe-sub INT
    stop_bg probe-pub INT
    # setup_runs stopped every secure subscriber itself (it keeps only the last open one running).
    setup_runs secure --passphrase-file "$passphrase"
    stop_bg pub-secure INT
else
    reason=$(tr '\t' ' ' <<<"$LINE")
    echo "secure: not measured: $reason"
    printf 'secure_skipped\t%s\n' "$reason" >>"$SCENARIO_OUT/meta.tsv"
    # The subscriber ends by itself after its `waware:` line (its exit status is not the point here).
    probe=${_BG_PIDS[probe-sub]}
    for i in $(seq 1 "$(scaled 30)"); do kill -0 "$probe" 2>/dev/null || break; sleep 1; done
    if kill -0 "$probe" 2>/dev/null; then stop_bg probe-sub INT; else wait "$probe" 2>/dev/null; unset "_BG_PIDS[probe-sub]"; fi
    stop_bg probe-pub INT
fi

if [ "$REFERENCE" = 1 ]; then
    step "reference: wpa_supplicant P publishes and accepts in dC, Q requests in dD"
    wpas_start P dC 2
    wpas_start Q dD 3
    for kind in open secure; do
        security=
        [ "$kind" = secure ] && security="csid=1 password=$(cat "$passphrase")"
        step "reference $kind: $RUNS data-path setups"
        # shellcheck disable=SC2046
        pid=$(wpas P NAN_PUBLISH service_name=_dpref$kind._tcp sync=1 data_path=1 $([ "$kind" = secure ] && echo cipher_suites=1) ttl=1800)
        wpas_auto_accept P "ndi=ndiP handle=$pid $security"
        wpas_mark Q
        sid=$(wpas Q NAN_SUBSCRIBE service_name=_dpref$kind._tcp sync=1)
        wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=${WPAS_NMI[P]}" 60
        pubid=$(wpas_field "$LINE" publish_id)
        failures=0
        for run in $(seq 1 "$RUNS"); do
            # A failed setup is counted (ref_KIND_failures) and tried again, up to RUNS failures in all.
            until wpas_ndp_setup Q P "handle=$sid ndi=ndiQ peer_nmi=${WPAS_NMI[P]} peer_id=$pubid $security"; do
                failures=$((failures + 1))
                echo "reference $kind run $run: the setup failed ($failures so far)"
                [ "$failures" -lt "$RUNS" ] || fail "reference $kind: $failures setups failed"
            done
            sample "ref_$kind" "$NDP_SETUP" "reference $kind run $run"
            echo "run $run: reference $kind $NDP_SETUP s"
            if [ "$run" = "$RUNS" ] && [ "$kind" = open ]; then
                wpas_keep_busy Q "$NDP_PEER_NDI"
                iperf ref_ndp dC dD ndiP ndiQ "$(wpas_link_local P)"
                wpas_keep_busy_stop Q
            fi
            wpas_ndp_end Q P
        done
        sample "ref_${kind}_failures" "$failures" "reference $kind"
        wpas_auto_accept_stop P
        wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
        wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
    done
fi

step "TCP throughput over an open 802.11s mesh between the same radios on 5745 MHz (the NDP's 5 GHz channel)"
mesh_freq=5745
mesh_join $mesh_freq wawarebench
iperf mesh dA dB mesh0 mesh1 "$MESH_ADDR_A"

{
    printf 'binary\t%s\n' "$WAWARE"
    printf 'binary_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'configuration\t%s\n' "$configuration"
    printf 'kernel\t%s\n' "$(uname -r)"
    printf 'regulatory_domain\t%s\n' "$(grep -m 1 '^country' "$SCENARIO_OUT/reg.txt" | cut -d: -f1 | cut -d' ' -f2)"
    printf 'ndp_schedule\t%s\n' "$(cat "$SCENARIO_OUT/schedule.txt")"
    printf 'mesh_frequency_mhz\t%s\n' "$mesh_freq"
    printf 'runs\t%s\n' "$RUNS"
    printf 'iperf_seconds\t%s\n' "$IPERF_SECONDS"
    printf 'guest_cpus\t%s\n' "$(nproc)"
    [ "$REFERENCE" = 1 ] && printf 'reference\t%s (schedule 2437:0e000000 5180:f0ffffff)\n' "$WPAS_BIN"
} | tee -a "$SCENARIO_OUT/meta.tsv"
cat "$samples"
