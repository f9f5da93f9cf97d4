#!/bin/bash
# Diagnostic (dpengine): where does a publisher holding one idle open NDP spend its CPU? Measures the
# publisher's CPU (utime+stime) idle without an NDP, then with one open NDP up, per thread, then a syscall
# count (strace -c) and a perf profile over the idle NDP. Also the multicast nl80211 events seen in dA.
# timeout: 900
# default: no
source "$(dirname "$0")/../guest/lib.sh"
IDLE=${IDLE_SECONDS:-30}
hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
cpu_per_minute() { awk -v a="$1" -v b="$2" -v hz="$hz" -v s="$3" 'BEGIN { printf "%.3f", (b - a) / hz * 60 / s }'; }
threads() {
    local pid=$1 t
    for t in /proc/$pid/task/*; do
        printf '%s %s\n' "$(awk '{ print $14 + $15 }' "$t/stat")" "$(cat "$t/comm")"
    done
}

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A publishes accepting open data paths"
start_bg pub dA env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
pid=${_BG_PIDS[pub]}
sleep 5
t0=$(ticks "$pid"); sleep "$IDLE"; t1=$(ticks "$pid")
echo "RESULT idle publisher without NDP: $(cpu_per_minute "$t0" "$t1" "$IDLE") s CPU per minute"

step "B subscribes with a data path"
start_bg sub dB env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 300
expect_contains "B's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
spid=${_BG_PIDS[sub]}
sleep 5
threads "$pid" >"$SCENARIO_OUT/threads0.txt"
t0=$(ticks "$pid"); s0=$(ticks "$spid"); sleep "$IDLE"; t1=$(ticks "$pid"); s1=$(ticks "$spid")
threads "$pid" >"$SCENARIO_OUT/threads1.txt"
echo "RESULT idle publisher with one NDP: $(cpu_per_minute "$t0" "$t1" "$IDLE") s CPU per minute"
echo "RESULT idle subscriber with one NDP: $(cpu_per_minute "$s0" "$s1" "$IDLE") s CPU per minute"
paste "$SCENARIO_OUT/threads0.txt" "$SCENARIO_OUT/threads1.txt" | awk '{ print "    thread", $4, $3 - $1, "ticks" }'

step "multicast nl80211 events in dA for 10 s"
in_netns dA timeout 10 "$WAWARE" events --json >"$SCENARIO_OUT/events.txt" 2>&1
echo "    $(wc -l <"$SCENARIO_OUT/events.txt") lines"
sed 's/"time":[0-9.]*,//' "$SCENARIO_OUT/events.txt" | sed 's/,"[a-zA-Z]*":"[^"]*"//g' | sort | uniq -c | sort -rn | head -n 15

if command -v strace >/dev/null; then
    step "strace -c of the publisher for 15 s"
    timeout -s INT 15 strace -c -f -p "$pid" -o "$SCENARIO_OUT/strace.txt" || true
    head -n 25 "$SCENARIO_OUT/strace.txt" | sed 's/^/    /'
fi
if command -v perf >/dev/null; then
    step "perf record of the publisher for 20 s"
    perf record -F 250 -g -p "$pid" -o /run/perf.data -- sleep 20 >/dev/null 2>&1 || echo "    perf record failed"
    perf report -i /run/perf.data --stdio --no-children --sort symbol 2>/dev/null | grep -v '^$' | head -n 120 >"$SCENARIO_OUT/perf.txt"
    perf report -i /run/perf.data --stdio --no-children --sort comm,dso -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 20 | sed 's/^/    /'
    grep -E '^ +[0-9]' "$SCENARIO_OUT/perf.txt" | head -n 40 | sed 's/^/    /'
fi
stop_bg sub INT
stop_bg pub INT
