#!/bin/bash
# wawared (docs/daemon.md) restarted under a running client: A subscribes to _s1 through the daemon and finds
# the peer; the daemon is stopped (SIGTERM) and started again; A keeps running, connects again and starts its
# subscribe again (the new daemon's status lists it), and runs on.
# timeout: 180
source "$(dirname "$0")/../guest/lib.sh"

WAWARED=$(dirname "$WAWARE")/wawared
SOCK=/tmp/wawared-restart.sock

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "the peer publishes _s1 in process; wawared on radio 0; A subscribes through it"
start_bg peer dB env WAWARE_DAEMON=off "$WAWARE" publish _s1._tcp --info peer --json
wait_for_line "$(bg_log peer)" '"event":"started"' 30
start_bg daemon dA "$WAWARED" --socket "$SOCK"
wait_for_line "$(bg_log daemon)" 'listening at' 30
start_bg A dA env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" "$WAWARE" subscribe _s1._tcp --json
wait_for_count "$(bg_log A)" '"event":"discovered"' 1 60

step "the daemon restarts under A"
stop_bg daemon TERM
start_bg daemon2 dA "$WAWARED" --socket "$SOCK"
wait_for_line "$(bg_log daemon2)" 'listening at' 30
wait_for_line "$(bg_log daemon2)" 'client 1 connected' 30
nap 3
status=$(wawared_status dA "$SOCK")
echo "$status"
expect_eq "A's subscribe started again in the new daemon" 1 "$(echo "$status" | grep -c ' session .*subscribe')"
expect_running A peer daemon2
cat "$(bg_log A)"

stop_bg A INT
stop_bg daemon2 TERM
stop_bg peer INT
