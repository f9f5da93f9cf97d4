#!/bin/bash
# Experiment (docs/design/outside-dw.md): do a pairing's frames leave outside the DWs when both sides hold a
# local schedule and the peer's schedule on its NMI station? PIN pairings between A and B, alternating the
# knob off and on (WAWARE_EXPERIMENT_FAW=1 on both sides: channel 6 in every slot outside the DWs, locally and
# on the peer's station), fresh stores each time. hwsim's monitor (naf-capture.py --pairing) records every
# SDF, NAF and Authentication frame with the sender's TSF position in the 512-TU period: 0-16 TU is the
# 2.4 GHz DW. Per run: the pairing's duration (B's bootstrapping line to B's "paired"), in runs.tsv; the air
# in air.txt; the traces in the pair logs.
# default: no
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
load_settings FAW_RUNS
RUNS=${FAW_RUNS:-2}

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
air=$SCENARIO_OUT/air.txt
if ip link set hwsim0 up 2>/dev/null; then
    python3 "$(dirname "$0")/../guest/naf-capture.py" --pairing hwsim0 >"$air" 2>"$SCENARIO_OUT/air.err" &
    _BG_PIDS[capture]=$!
else
    echo "no hwsim0 monitor interface: no capture"
    : >"$air"
fi
stamp() {
    local line
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done
}
rows=$SCENARIO_OUT/runs.tsv
printf 'mode\trun\tstart\tend\tseconds\n' >"$rows"
for run in $(seq 1 "$RUNS"); do
    for mode in off on; do
        knob=WAWARE_EXPERIMENT_FAW=0
        [ "$mode" = on ] && knob=WAWARE_EXPERIMENT_FAW=1
        rm -f "$SCENARIO_OUT/a.json" "$SCENARIO_OUT/b.json"
        step "run $run, knob $mode: A shows a PIN"
        start_bg "pairA-$mode$run" dA env WAWARE_TRACE=1 "$knob" "$WAWARE" pair --store "$SCENARIO_OUT/a.json" \
            --name B --timeout "$(scaled 60)"
        wait_for_line "$(bg_log "pairA-$mode$run")" '^PIN [0-9]{6}' 40
        pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log "pairA-$mode$run")" | head -n 1)
        echo "air mark: run $run $mode start $EPOCHREALTIME" >>"$air"
        in_netns dB env WAWARE_TRACE=1 "$knob" "$WAWARE" pair --pin "$pin" --name A --store "$SCENARIO_OUT/b.json" \
            --timeout "$(scaled 60)" 2>&1 | stamp >"$SCENARIO_OUT/pairB-$mode$run.log"
        echo "air mark: run $run $mode end $EPOCHREALTIME" >>"$air"
        wait_bg "pairA-$mode$run" 0 60 || true
        log=$SCENARIO_OUT/pairB-$mode$run.log
        t0=$(grep -m1 'bootstrapping with' "$log" | cut -d' ' -f1)
        t1=$(grep -m1 'paired with key' "$log" | cut -d' ' -f1)
        expect_contains "run $run $mode: B paired" 'paired with key' "$(cat "$log")"
        printf '%s\t%s\t%s\t%s\t%s\n' "$mode" "$run" "$t0" "$t1" \
            "$(awk -v a="$t0" -v b="$t1" 'BEGIN { if (a && b) printf "%.3f", b - a }')" >>"$rows"
    done
done
cat "$rows"
grep -c 'faw ' "$SCENARIO_OUT"/pairB-on*.log "$SCENARIO_OUT"/pairA-on*.log 2>/dev/null || true
grep -h 'faw ' "$SCENARIO_OUT"/pairB-on1.log "$SCENARIO_OUT"/pairA-on1.log 2>/dev/null | head -n 6
echo "hwsim tx warnings in dmesg: $(dmesg | grep -c 'mac80211_hwsim_tx' || true)"
# Unicast follow-ups (bootstrapping, NIKs): ms from the trace line of the send to its TX status, per run.
for log in "$SCENARIO_OUT"/pair[AB]-*.log; do
    printf '%s: follow-up tx->status ms:' "$(basename "$log" .log)"
    sed -E 's/^[0-9.]+ (trace )/\1/' "$log" | awk '
        $1 == "trace" && $3 == "tx" && $4 == "to" && $5 !~ /^ff:/ && $6 ~ /followUp/ { sent[$8] = $2 }
        $1 == "trace" && $3 == "tx" && $4 == "status" && ($6 in sent) {
            printf " %d(%s)", ($2 - sent[$6]) * 1000, $7 == "acked" ? "acked" : "no"; delete sent[$6] }'
    echo
done
