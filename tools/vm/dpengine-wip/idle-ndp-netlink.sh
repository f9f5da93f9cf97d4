#!/bin/bash
# Diagnostic (dpengine): netlink messages and utime/stime of a publisher and a subscriber holding one idle
# open NDP, both recording with WAWARE_NL_RECORD on /run.
# timeout: 600
# default: no
source "$(dirname "$0")/../guest/lib.sh"
IDLE=${IDLE_SECONDS:-20}
hz=$(getconf CLK_TCK)
times() { awk '{ print $14, $15 }' "/proc/$1/stat"; }
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
recA=$(mktemp -d -p /run); recB=$(mktemp -d -p /run)
start_bg pub dA env WAWARE_NL_RECORD="$recA" "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
pid=${_BG_PIDS[pub]}
sleep 3
read -r u0 s0 < <(times "$pid"); ls "$recA" | sort >/run/a0; sleep "$IDLE"; read -r u1 s1 < <(times "$pid"); ls "$recA" | sort >/run/a1
echo "RESULT publisher, accepting, no NDP: utime $(( (u1 - u0) * 60 / IDLE / hz )) s/min stime $(( (s1 - s0) * 60 / IDLE / hz )) s/min, $(comm -13 /run/a0 /run/a1 | wc -l) messages"
comm -13 /run/a0 /run/a1 | sed 's/^[0-9]*-//; s/\.nlmsg$//' | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/    /'
start_bg sub dB env WAWARE_NL_RECORD="$recB" "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 300
expect_contains "B's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
spid=${_BG_PIDS[sub]}
sleep 3
read -r u0 s0 < <(times "$pid"); read -r v0 t0 < <(times "$spid"); ls "$recA" | sort >/run/a0; ls "$recB" | sort >/run/b0
sleep "$IDLE"
read -r u1 s1 < <(times "$pid"); read -r v1 t1 < <(times "$spid"); ls "$recA" | sort >/run/a1; ls "$recB" | sort >/run/b1
echo "RESULT publisher with NDP: utime $(( (u1 - u0) * 60 / IDLE / hz )) s/min stime $(( (s1 - s0) * 60 / IDLE / hz )) s/min, $(comm -13 /run/a0 /run/a1 | wc -l) messages"
comm -13 /run/a0 /run/a1 | sed 's/^[0-9]*-//; s/\.nlmsg$//' | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/    /'
echo "RESULT subscriber with NDP: utime $(( (v1 - v0) * 60 / IDLE / hz )) s/min stime $(( (t1 - t0) * 60 / IDLE / hz )) s/min, $(comm -13 /run/b0 /run/b1 | wc -l) messages"
comm -13 /run/b0 /run/b1 | sed 's/^[0-9]*-//; s/\.nlmsg$//' | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/    /'
grep -c . /proc/interrupts >/dev/null
stop_bg sub INT
stop_bg pub INT
