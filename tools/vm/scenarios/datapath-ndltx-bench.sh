#!/bin/bash
# The WAWARE_DP_NDL_TX experiment (docs/benchmarks.md), in one boot: open NDP setups alternating without and
# with the knob on the subscriber (the initiator, whose confirm it moves after the peer's schedule is in and
# onto the common committed slots' channel), NDLTX_RUNS each (default 8). Setup time as in datapath-bench:
# B's Data Path Request leaving (trace `dp tx 5`) to both sides reporting `data-path-up`. Per run it also
# reads the confirm's fate: the channel it was given and the kernel's TX status (acked) from B's trace, and
# from hwsim's monitor interface (tools/vm/guest/naf-capture.py on hwsim0) the channel it went out on, when
# (ms after B's trace line) and where in the 512-TU period by the sender's TSF (the DWs: 0-16 TU on 2437 MHz,
# 128-144 TU on 5745 MHz; the SDFs' positions, printed, show the TSF's phase). Prints p50/p95 in s and DW
# per mode; raw rows in $SCENARIO_OUT/runs.tsv, the air in air.txt. Fails if a setup fails in either mode.
# timeout: 1500
# default: no (an experiment's benchmark: run it by name)
source "$(dirname "$0")/../guest/lib.sh"
load_settings NDLTX_RUNS
RUNS=${NDLTX_RUNS:-8}
count() { grep -c "$2" "$(bg_log "$1")"; }
wait_count() {
    local deadline=$(($EPOCHSECONDS + $(scaled "$4")))
    while [ "$(count "$1" "$2")" -lt "$3" ]; do
        [ "$EPOCHSECONDS" -ge "$deadline" ] && fail "$1: fewer than $3 lines matching $2 after $(scaled "$4") s"
        nap 0.2
    done
}
json_time() { sed -n 's/.*"time":\([0-9.]*\).*/\1/p'; }
# trace_time LOG REGEX [last]: the time of the first (or last) trace line matching REGEX.
trace_time() {
    local pick='NR == 1'
    [ "${3:-}" = last ] && pick='END'
    grep -E "^trace [0-9.]+ $2" "$1" | awk "$pick"' { print $2 }'
}

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
iw reg get | sed 's/^/    reg: /' | head -n 4
air=$SCENARIO_OUT/air.txt
if ip link set hwsim0 up 2>/dev/null; then
    python3 "$(dirname "$0")/../guest/naf-capture.py" hwsim0 >"$air" 2>"$SCENARIO_OUT/air.err" &
    _BG_PIDS[capture]=$!
    echo "capturing NAN action frames on hwsim0 (pid $!)"
else
    echo "no hwsim0 monitor interface: no capture"
    : >"$air"
fi

rows=$SCENARIO_OUT/runs.tsv
printf 'mode\trun\tsetup_s\tconfirm_freq\tconfirm_acked\tair_freq\tair_ms\tair_pos_tu\n' >"$rows"
step "A publishes _dpx._tcp accepting open data paths (knob off: no frame of A's changes in an open setup)"
start_bg pub dA env WAWARE_TRACE=1 "$WAWARE" publish _dpx._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
done_runs=0
for run in $(seq 1 "$RUNS"); do
    for mode in off on; do
        knob=()
        [ "$mode" = on ] && knob=(WAWARE_DP_NDL_TX=1)
        start_bg sub dB env WAWARE_TRACE=1 "${knob[@]}" "$WAWARE" subscribe _dpx._tcp --count 1 --data-path --open --json
        wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 300 >/dev/null
        expect_contains "$mode run $run on B" '"data-path-up"' "$LINE"
        t1=$(json_time <<<"$LINE")
        done_runs=$((done_runs + 1))
        wait_count pub '"event":"data-path-up"' "$done_runs" 60
        t2=$(grep '"event":"data-path-up"' "$(bg_log pub)" | tail -n 1 | json_time)
        sub_log=$(bg_log sub)
        t0=$(trace_time "$sub_log" 'dp tx 5 ')
        [ -n "$t0" ] || fail "$mode run $run: no Data Path Request in B's trace"
        setup=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { m = b > c ? b : c; printf "%.3f", m - a }')
        # The confirm: B's first `dp tx 7` line, its TX status, and its first copy on the air after that line's
        # time less 2 s (the trace line is written once the kernel took the frame, late on a loaded guest).
        confirm=$(grep -E -m 1 '^trace [0-9.]+ dp tx 7 ' "$sub_log")
        ctx=$(awk '{ print $2 }' <<<"$confirm")
        cookie=$(sed -n 's/.* cookie \([0-9]*\) .*/\1/p' <<<"$confirm")
        freq=$(sed -n 's/.* freq \([0-9]*\).*/\1/p' <<<"$confirm")
        status=$(grep -E -m 1 "^trace [0-9.]+ dp tx status cookie $cookie " "$sub_log")
        acked=$(sed -n 's/.* acked \([a-z]*\) .*/\1/p' <<<"$status")
        nap 0.5
        onair=$(awk -v t="${ctx:-0}" '$2 == "naf" && $3 == 7 && $1 >= t - 2 { print; exit }' "$air")
        air_freq=$(awk '{ print $5 }' <<<"$onair")
        air_pos=$(awk '{ print $9 }' <<<"$onair")
        air_ms=$(awk -v a="${ctx:-0}" '{ printf "%.0f", ($1 - a) * 1000 }' <<<"$onair")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$run" "$setup" "${freq:--}" "${acked:--}" "${air_freq:--}" \
            "${air_ms:--}" "${air_pos:--}" >>"$rows"
        echo "$mode run $run: setup $setup s; confirm given ${freq:-?} MHz, acked ${acked:-?}; on the air: ${onair:-not seen}"
        awk -v t="${t0:-0}" '$1 >= t - 1 && $2 == "naf"' "$air" | sed 's/^/    air: /' | head -n 12
        grep -E '^trace [0-9.]+ dp (tx|establish|rx|NMI|NDI)' "$sub_log" | sed 's/^/    B: /' | head -n 12
        stop_bg sub INT
        wait_count pub '"event":"data-path-down"' "$done_runs" 60
    done
done
stop_bg pub INT

step "figures (DW = 512 TU = 0.524288 s)"
column -t "$rows"
echo
echo "| mode | runs | setup p50 (s) | p95 (s) | p50 (DW) | p95 (DW) | min (s) | max (s) |"
echo "|---|---|---|---|---|---|---|---|"
for mode in off on; do
    awk -F'\t' -v m="$mode" '$1 == m { print $3 }' "$rows" | sort -g >"$SCENARIO_OUT/setup-$mode.txt"
    read -r n p50 p95 min max _ < <(percentiles <"$SCENARIO_OUT/setup-$mode.txt") || continue
    printf '| %s | %d | %.3f | %.3f | %s | %s | %.3f | %.3f |\n' "$mode" "$n" "$p50" "$p95" "$(in_dw "$p50")" "$(in_dw "$p95")" "$min" "$max"
done
echo
echo "SDF positions in the period (TU, by channel; the DWs' phase in the sender's TSF):"
awk '$2 == "sdf" { printf "%s %d\n", $4, int($8 / 8) * 8 }' "$air" | sort | uniq -c | sort -k2,2 -k3,3n | sed 's/^/    /'
echo "data-path NAFs on the air (subtype, channel, position bucket of 8 TU):"
awk '$2 == "naf" { printf "naf %s %s %d\n", $3, $5, int($9 / 8) * 8 }' "$air" | sort | uniq -c | sort -k3,3n -k4,4 -k5,5n | sed 's/^/    /'
