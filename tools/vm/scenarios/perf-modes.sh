#!/bin/bash
# Benchmark: does real-time mode lower the latency against bulk? In one boot, both sides run
# 'waware perf --mode bulk' (one block of 15 committed slots) then '--mode realtime' (30 slots spread over
# the period), alternated ROUNDS times (default 2); each run makes REPORTS reports (default 3) with latency
# probes in every access category and a short capacity probe. Prints per mode and access category the
# median over all reports of p50 and p95, the schedule in use and the capacity, then per category the
# ratio real-time / bulk of those medians. A benchmark: it checks only that every run worked, never the
# figures.
# timeout: 1800
# default: no
source "$(dirname "$0")/../guest/lib.sh"

rounds=${PERF_MODES_ROUNDS:-2}
reports=${PERF_MODES_REPORTS:-3}

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

for round in $(seq 1 "$rounds"); do
    for mode in bulk realtime; do
        step "round $round: $mode"
        start_bg "srv-$mode-$round" dA "$WAWARE" perf _perf._tcp --serve --open --json --mode "$mode"
        wait_for_line "$(bg_log "srv-$mode-$round")" '"event":"started"' 60
        out=$SCENARIO_OUT/$mode-$round.json
        in_netns dB timeout -k 2 "$(scaled 300)" "$WAWARE" perf _perf._tcp --open --json --mode "$mode" \
            --count "$reports" --interval 0.5 --duration 0.5 --latency-probes 30 >"$out" 2>"$SCENARIO_OUT/$mode-$round.err"
        rc=$?
        expect_eq "$mode round $round exit status" 0 "$rc"
        stop_bg "srv-$mode-$round"
    done
done

step "figures"
python3 - "$SCENARIO_OUT" "$rounds" <<'PY'
import json, sys, statistics, glob, os
folder, rounds = sys.argv[1], int(sys.argv[2])
def reports(mode):
    out = []
    for path in sorted(glob.glob(os.path.join(folder, f"{mode}-*.json"))):
        out += [r for r in (json.loads(l) for l in open(path) if l.startswith("{")) if r.get("event") == "report"]
    return out
print(f"{'mode':9} {'reports':>7} {'slots':>5} {'common':>6}  " + "  ".join(f"{ac+' p50/p95 ms':>17}" for ac in ["BE", "BK", "VI", "VO"]) + "   tx/rx Mbit/s")
medians = {}
for mode in ["bulk", "realtime"]:
    rs = reports(mode)
    if not rs:
        print(f"{mode:9} no reports"); continue
    cells = []
    for ac in ["BE", "BK", "VI", "VO"]:
        lat = [r["transmitLatency"][ac] for r in rs if ac in (r.get("transmitLatency") or {})]
        p50 = statistics.median(l["p50Ms"] for l in lat); p95 = statistics.median(l["p95Ms"] for l in lat)
        cells.append(f"{p50:7.2f} / {p95:7.2f}")
        medians[(mode, ac)] = (p50, p95)
    chans = " ".join(f"ch{c['channel']}:{c['slots']}" for c in rs[0].get("channels", []))
    tx = statistics.median(r.get("throughputCapacity") or 0 for r in rs); rx = statistics.median(r.get("receiveCapacity") or 0 for r in rs)
    print(f"{mode:9} {len(rs):7} {rs[0].get('committedSlots'):5} {rs[0].get('commonSlots'):6}  " + "  ".join(f"{c:>17}" for c in cells) + f"   {tx:.1f}/{rx:.1f}   ({chans})")
    for r in rs:
        print(f"  {mode} report: " + " ".join(f"{ac} {r['transmitLatency'][ac]['p50Ms']:.2f}/{r['transmitLatency'][ac]['p95Ms']:.2f}" for ac in ["BE", "BK", "VI", "VO"] if ac in r.get("transmitLatency", {})))
print("ratio realtime/bulk (p50, p95): " + "  ".join(
    f"{ac} {medians[('realtime', ac)][0] / medians[('bulk', ac)][0]:.2f}, {medians[('realtime', ac)][1] / medians[('bulk', ac)][1]:.2f}"
    for ac in ["BE", "BK", "VI", "VO"] if ('realtime', ac) in medians and ('bulk', ac) in medians
    and medians[('bulk', ac)][0] > 0 and medians[('bulk', ac)][1] > 0))
PY
