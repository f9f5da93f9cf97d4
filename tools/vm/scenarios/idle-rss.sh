#!/bin/bash
# Memory of an idle publisher: one `waware publish` with one service accepting data paths, left alone for
# 10 s, then the same publisher holding one open NDP (a subscriber on a second radio), again after 10 s. Run it
# on the build whose memory matters, the static release one:
#   tools/build-static && WAWARE_VM_BINARY=$PWD/.build/static/waware tools/vm/run idle-rss
# For each state (idle, ndp) it writes results/vm/idle-rss/STATE.tsv: rss_kib and its split (anonymous memory:
# heap and thread stacks; file pages: the binary's and libraries' code and data touched), threads; and
# STATE-smaps.txt, the mappings with the most resident memory from /proc/PID/smaps, which say where it goes
# (STATE-smaps-full.txt: all of smaps; STATE-threads.txt: the threads' ids, names and
# /proc/TID/syscall, whose next-to-last field is the stack pointer, which says whose stack a mapping is).
# maps.txt lists the shared objects the process mapped.
# default: no
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

# memory STATE PID: records PID's resident memory as STATE.
memory() {
    local state=$1 pid=$2
    {
        awk '/^VmRSS:/ { print "rss_kib\t" $2 }
             /^(RssAnon|RssFile|RssShmem):/ { sub(":", "", $1); printf "%s_kib\t%s\n", tolower($1), $2 }
             /^Threads:/ { print "threads\t" $2 }' "/proc/$pid/status"
    } | tee "$SCENARIO_OUT/$state.tsv"
    grep -q '^rss_kib' "$SCENARIO_OUT/$state.tsv" || fail "no VmRSS for pid $pid ($state)"
    # Resident kB per mapping (anonymous ones by their address range), largest first.
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon " $1 "]" : $6) } /^Rss:/ { rss[name] += $2 }
         END { for (n in rss) if (rss[n] > 0) printf "%8d kB  %s\n", rss[n], n }' "/proc/$pid/smaps" \
        | sort -rn | head -n 25 >"$SCENARIO_OUT/$state-smaps.txt"
    # All of smaps (Private_Dirty against Shared_Clean per mapping) and the threads' names.
    cp "/proc/$pid/smaps" "$SCENARIO_OUT/$state-smaps-full.txt"
    for task in /proc/$pid/task/*; do printf '%s\t%s\t%s\n' "${task##*/}" "$(cat "$task/comm")" "$(cat "$task/syscall")"; done \
        >"$SCENARIO_OUT/$state-threads.txt"
    sed "s/^/    $state: /" "$SCENARIO_OUT/$state-smaps.txt" | head -n 12
}

step "an idle publisher"
start_bg pub dA "$WAWARE" publish _idle._tcp --info idle --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 120
pid=${_BG_PIDS[pub]}
nap 10
memory idle "$pid"
awk '$6 ~ /\.so/ { print $6 }' "/proc/$pid/maps" | sort -u >"$SCENARIO_OUT/maps.txt"
echo "shared objects mapped:"; cat "$SCENARIO_OUT/maps.txt"
expect_not_contains "no ICU mapped" "libicu" "$(cat "$SCENARIO_OUT/maps.txt")"

step "the same publisher holding one open NDP"
start_bg sub dB "$WAWARE" subscribe _idle._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 300 >/dev/null
[[ $LINE == *'"event":"data-path-up"'* ]] || fail "no data path: $LINE"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60 >/dev/null
nap 10
memory ndp "$pid"
stop_bg sub INT
stop_bg pub
