#!/bin/bash
# Diagnostic (dpengine): the CPU of an idle publisher with and without --accept-data-paths (no NDP), the
# netlink messages it receives while idle (WAWARE_NL_RECORD on /run), a syscall count and a perf profile
# (perf.data kept for `perf report` on the host, where the binary is the same).
# timeout: 600
# default: no
source "$(dirname "$0")/../guest/lib.sh"
IDLE=${IDLE_SECONDS:-20}
hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
cpu_per_minute() { awk -v a="$1" -v b="$2" -v hz="$hz" -v s="$3" 'BEGIN { printf "%.3f", (b - a) / hz * 60 / s }'; }

set_country US
sim_radios 1
radio_netns 0 dA

step "control: idle publisher without --accept-data-paths"
start_bg plain dA "$WAWARE" publish _dp._tcp --json
wait_for_line "$(bg_log plain)" '"event":"started"' 60
pid=${_BG_PIDS[plain]}
sleep 5
t0=$(ticks "$pid"); sleep "$IDLE"; t1=$(ticks "$pid")
echo "RESULT idle publisher without accept: $(cpu_per_minute "$t0" "$t1" "$IDLE") s CPU per minute"
stop_bg plain INT

step "idle publisher with --accept-data-paths --open (no data path), recording netlink on /run"
rec=$(mktemp -d -p /run)
start_bg pub dA env WAWARE_NL_RECORD="$rec" "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
pid=${_BG_PIDS[pub]}
sleep 5
n0=$(ls "$rec" | wc -l); ls "$rec" | sort >/run/before.txt
t0=$(ticks "$pid"); sleep "$IDLE"; t1=$(ticks "$pid")
n1=$(ls "$rec" | wc -l); ls "$rec" | sort >/run/after.txt
echo "RESULT idle publisher with accept (recording): $(cpu_per_minute "$t0" "$t1" "$IDLE") s CPU per minute"
echo "RESULT netlink messages received in ${IDLE} s: $((n1 - n0))"
comm -13 /run/before.txt /run/after.txt | sed 's/^[0-9]*-//; s/\.nlmsg$//' | sort | uniq -c | sort -rn | head -n 20 | sed 's/^/    /'
stop_bg pub INT

step "the same without recording: CPU, strace, perf"
start_bg pub2 dA "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub2)" '"event":"started"' 60
pid=${_BG_PIDS[pub2]}
sleep 5
t0=$(ticks "$pid"); sleep "$IDLE"; t1=$(ticks "$pid")
echo "RESULT idle publisher with accept: $(cpu_per_minute "$t0" "$t1" "$IDLE") s CPU per minute"
for t in /proc/$pid/task/*; do echo "    thread $(cat "$t/comm") $(awk '{ print $14 + $15 }' "$t/stat") ticks"; done
if command -v strace >/dev/null; then
    timeout -s INT 10 strace -c -f -p "$pid" -o /run/strace.txt >/dev/null 2>&1
    head -n 20 /run/strace.txt | sed 's/^/    /'
fi
if command -v perf >/dev/null; then
    perf record -F 200 -g -p "$pid" -o /run/perf.data -- sleep 15 >/dev/null 2>&1 || echo "    perf record failed"
    cp /run/perf.data "$SCENARIO_OUT/perf.data" && echo "    perf.data kept ($(stat -c %s /run/perf.data) bytes)"
fi
stop_bg pub2 INT
