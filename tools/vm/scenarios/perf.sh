#!/bin/bash
# waware perf between two devices, each in its own network namespace: A serves _perf._tcp (publishes,
# accepts open data paths, answers the probes); B measures over a data path to it. Two JSON reports: every
# field of Apple's report is there, the capacity is positive and not above the ceiling, the latency of
# every access category is positive, the statistics come from the data path (statisticsSource) and the
# mode is the default one; before them, 'waware peers' reports A from its discovery frames
# (statisticsSource discoveryFrames); --svg writes a document python3's XML parser reads as SVG. A text
# report reads as one. B with a channel-6-only schedule (WAWARE_DP_SCHEDULE=channel6) against A's channel 6 +
# 149 still sets the data path up and gets a passive report of the one slot they share (the kernel refused
# the whole peer schedule for its 149 slots before, so the data path failed). Then B
# reports in a loop and A is killed: B ends with one 'waware: ...' line and exit status 17 (peerLost).
# Last, the baseline in the same boot: an open 802.11s mesh (HT20, as the NDP's stations) between the same
# two radios on the NDP's busiest channel (IBSS does not form on hwsim), iperf3 4 s B to A after 1 s left
# out; the NDP's capacity (the median of the JSON reports) must be positive and at most MESH_MARGIN (3)
# times the mesh's throughput. On hwsim frames take no airtime: both are bounded by the emulated CPU, which
# swings several-fold with the host's load between measurements seconds apart (docs/performance.md), hence
# the margin; it still catches a capacity probe that miscounts by an order of magnitude. Both are printed.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A serves _perf._tcp: publishes, accepts open data paths, answers probes"
start_bg srv dA env WAWARE_TRACE=${PERF_TRACE:-0} "$WAWARE" perf _perf._tcp --serve --open --json
wait_for_line "$(bg_log srv)" '"event":"started"' 60

step "B: waware peers hears A from its discovery frames only (statisticsSource discoveryFrames)"
peers=$SCENARIO_OUT/peers-b.json
in_netns dB timeout -k 2 "$(scaled 60)" "$WAWARE" peers --duration 6 --json >"$peers" 2>"$SCENARIO_OUT/peers-b.err"
expect_eq "peers exit status" 0 "$?"
sed 's/^/    B peers: /' "$peers"
python3 - "$peers" <<'PY' || fail "waware peers did not report A from discovery frames (see above)"
import json, sys
records = [r for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")) if r.get("event") == "peer"]
good = bool(records) and all(r.get("statisticsSource") == "discoveryFrames" for r in records)
print(("ok: " if good else "FAIL: ") + f"{len(records)} peer(s), sources {[r.get('statisticsSource') for r in records]}")
sys.exit(0 if good else 1)
PY

step "B: two reports as JSON lines, plotted to an SVG"
json=$SCENARIO_OUT/perf-b.json
svg=$SCENARIO_OUT/perf.svg
in_netns dB timeout -k 2 "$(scaled 240)" "$WAWARE" perf _perf._tcp --open --json --count 2 --interval 1 --duration 1 \
    --latency-probes 10 --svg "$svg" >"$json" 2>"$SCENARIO_OUT/perf-b.err"
rc=$?
sed 's/^/    B: /' "$json" | cut -c1-400
sed 's/^/    B stderr: /' "$SCENARIO_OUT/perf-b.err"
expect_eq "perf exit status" 0 "$rc"
wait_for_line "$(bg_log srv)" '"event":"perf-serving"' 30
python3 - "$json" <<'PY' || fail "the JSON reports are not plausible (see above)"
import json, sys
reports = [r for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")) if r.get("event") == "report"]
ok = True
def check(what, good, seen):
    global ok
    print(("ok: " if good else "FAIL: ") + what + ": " + str(seen))
    ok = ok and good
check("two reports", len(reports) == 2, len(reports))
for r in reports:
    n = r.get("report")
    for key in ["throughputCeiling", "throughputCapacity", "throughputCapacityRatio", "receiveCapacity", "signalQuality",
                "transmitLatency", "committedSlots", "commonSlots", "airtimeShare", "txRate", "signal", "txBytes", "mode"]:
        check(f"report {n} has {key}", key in r, r.get(key))
    check(f"report {n} statistics from the data path", r.get("statisticsSource") == "dataPath", r.get("statisticsSource"))
    check(f"report {n} mode default (none asked)", r.get("mode") == "default", r.get("mode"))
    capacity, ceiling = r.get("throughputCapacity") or 0, r.get("throughputCeiling") or 0
    check(f"report {n} capacity positive", capacity > 0, capacity)
    check(f"report {n} receive capacity positive", (r.get("receiveCapacity") or 0) > 0, r.get("receiveCapacity"))
    legacy = all((r.get(k) or {}).get("modulation", "legacy") == "legacy" for k in ("txRate", "rxRate"))
    if capacity > ceiling > 0 and legacy:
        # hwsim's NAN stations report a 6 Mbit/s legacy rate while its frames take no airtime: the emulated CPU,
        # not the rate, bounds the capacity (docs/performance.md). Only then may capacity pass the ceiling.
        print(f"note: report {n} capacity {capacity} above the legacy-rate ceiling {ceiling} (hwsim frames take no airtime)")
        check(f"report {n} ratio is capacity / ceiling", abs((r.get("throughputCapacityRatio") or 0) - capacity / ceiling) < 1e-6, r.get("throughputCapacityRatio"))
    else:
        check(f"report {n} capacity not above the ceiling", 0 < capacity <= ceiling, f"{capacity} <= {ceiling}")
    check(f"report {n} airtime share in (0, 1]", 0 < (r.get("airtimeShare") or 0) <= 1, r.get("airtimeShare"))
    for ac in ["BE", "BK", "VI", "VO"]:
        lat = (r.get("transmitLatency") or {}).get(ac) or {}
        check(f"report {n} {ac} latency positive", (lat.get("averageMs") or 0) > 0 and (lat.get("p95Ms") or 0) >= (lat.get("p50Ms") or 0) > 0, lat)
sys.exit(0 if ok else 1)
PY
python3 - "$svg" <<'PY' || fail "the SVG does not parse"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
print(f"ok: {sys.argv[1].split('/')[-1]} parses: root {root.tag}, {len(circles)} points")
sys.exit(0 if root.tag == "{http://www.w3.org/2000/svg}svg" and circles else 1)
PY

step "B: one text report, from the publisher named by its address (--peer)"
addressA=$(event_field "$(bg_log srv)" started address)
expect_match "A's NAN address from its started event" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addressA"
out=$(in_netns dB timeout -k 2 "$(scaled 240)" "$WAWARE" perf _perf._tcp --open --peer "$addressA" --duration 1 --latency-probes 5 --access-category be,vo 2>&1)
rc=$?
echo "$out" | sed 's/^/    B: /'
expect_eq "text perf exit status" 0 "$rc"
expect_match "the report heading" "^report 1 _perf._tcp peer $addressA " "$(echo "$out" | grep '^report')"
expect_contains "the ceiling line" "ceiling" "$out"
expect_contains "the capacity line" "Mbit/s to the peer" "$out"
expect_contains "the VO latency line" "latency VO" "$out"

# Passive: on hwsim nothing crosses such a link (0 packets sent on either NDI station after 40 s, the IPv6
# neighbour solicitations stuck in the multicast queue; results of a debug boot, docs/data-path.md), so the
# probes cannot run; this step checks that the kernel takes both schedules and the data path comes up.
step "B with a channel-6-only schedule against A's channel 6 + 149: the data path and a passive report"
ch6=$SCENARIO_OUT/perf-ch6.json
in_netns dB env WAWARE_DP_SCHEDULE=channel6 timeout -k 2 "$(scaled 300)" "$WAWARE" perf _perf._tcp --open --json \
    --passive >"$ch6" 2>"$SCENARIO_OUT/perf-ch6.err"
rc=$?
sed 's/^/    B: /' "$ch6" | cut -c1-400
sed 's/^/    B stderr: /' "$SCENARIO_OUT/perf-ch6.err"
expect_eq "channel-6-only perf exit status" 0 "$rc"
python3 - "$ch6" <<'PY' || fail "the channel-6-only report is not plausible (see above)"
import json, sys
reports = [r for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")) if r.get("event") == "report"]
r = reports[-1] if reports else {}
channels = [c.get("frequency") for c in r.get("channels", [])]
checks = [("one report", len(reports) == 1, len(reports)),
          ("our schedule is channel 6 only", channels == [2437], channels),
          ("slots in common with the peer", (r.get("commonSlots") or 0) > 0, r.get("commonSlots"))]
for what, good, seen in checks:
    print(("ok: " if good else "FAIL: ") + what + ": " + str(seen))
sys.exit(0 if all(good for _, good, _ in checks) else 1)
PY

step "B reports in a loop; A is killed: B ends with one clear line and status 17"
start_bg loop dB "$WAWARE" perf _perf._tcp --open --json --count 1000 --interval 0.5 --duration 0.5 --latency-probes 5
wait_for_line "$(bg_log loop)" '"event":"report"' 240
stop_bg srv KILL
wait_bg loop 17 120
last=$(tail -n 1 "$(bg_log loop)")
expect_match "B's last line" '^waware: .*' "$last"
expect_eq "B printed one waware: line besides the open-data-path warning" 1 "$(grep '^waware: ' "$(bg_log loop)" | grep -vc '^waware: warning:')"

step "baseline: an open 802.11s mesh (HT20) between the same radios on the NDP's channel, iperf3 B to A"
read -r mesh_freq capacity < <(python3 - "$json" <<'PY'
import json, statistics, sys
reports = [r for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")) if r.get("event") == "report"]
# The channel the link has the most slots in common on (the 5 GHz channel with 5 GHz allowed).
channels = [c for r in reports for c in r.get("channels", [])]
best = max(channels, key=lambda c: c.get("commonSlots") or 0) if channels else {"frequency": 2437}
print(best["frequency"], statistics.median((r.get("throughputCapacity") or 0) for r in reports) if reports else 0)
PY
)
echo "the NDP's capacity (median of the JSON reports): $capacity Mbit/s; its busiest channel: $mesh_freq MHz"
mesh_join "$mesh_freq" wawareperf HT20
iperf_mbps mesh dA dB mesh0 mesh1 "$MESH_ADDR_A" 4 1
margin=${MESH_MARGIN:-3}
echo "capacity over the NDP: $capacity Mbit/s; TCP over the mesh on $mesh_freq MHz: $IPERF_MBPS Mbit/s;" \
    "ratio $(awk -v c="$capacity" -v m="$IPERF_MBPS" 'BEGIN { printf "%.2f", (m > 0 ? c / m : 0) }') (at most $margin)"
awk -v c="$capacity" -v m="$IPERF_MBPS" -v k="$margin" 'BEGIN { exit !(c > 0 && m > 0 && c <= m * k) }' \
    || fail "the NDP's capacity $capacity Mbit/s is not within (0, $margin x the mesh's $IPERF_MBPS Mbit/s]"
echo "ok: the NDP's capacity $capacity Mbit/s is within (0, $margin x the mesh's $IPERF_MBPS Mbit/s]"
