#!/bin/bash
# Memory of an idle publisher: one `waware publish` with one service on one radio, left alone for 10 s,
# then its resident set (VmRSS) and mapped libraries are recorded. Run it on a release build:
#   WAWARE_VM_BINARY=$PWD/.build/release/waware tools/vm/run idle-rss
# It writes results/vm/idle-rss/idle.tsv (rss_kib) and maps.txt (the shared objects the process mapped).
# default: no
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

step "one NAN radio in namespace dA"
sim_radios 1
radio_netns 0 dA

step "an idle publisher"
start_bg pub dA "$WAWARE" publish _idle._tcp --info idle --json
wait_for_line "$(bg_log pub)" '"event":"started"' 120
pid=$(pgrep -f 'publish _idle._tcp' | head -n 1)
[ -n "$pid" ] || fail "publisher process not found"
sleep 10
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
[ -n "$rss" ] || fail "no VmRSS for pid $pid"
awk '$6 ~ /\.so/ { print $6 }' "/proc/$pid/maps" | sort -u >"$SCENARIO_OUT/maps.txt"
printf 'rss_kib\t%s\n' "$rss" | tee "$SCENARIO_OUT/idle.tsv"
echo "shared objects mapped:"; cat "$SCENARIO_OUT/maps.txt"
expect_not_contains "no ICU mapped" "libicu" "$(cat "$SCENARIO_OUT/maps.txt")"
stop_bg pub
