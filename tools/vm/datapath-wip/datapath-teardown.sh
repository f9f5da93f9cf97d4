#!/bin/bash
# How open data paths end, and that nothing stays behind: 1. B ends (Ctrl-C): A reports peer-request and
# drops B's station, B's NDI is gone; 2. B is killed (kill -9): its NDI goes with its socket, A reports
# peer-lost (keepalives unanswered) and drops B's station; 3. an idle data path (--idle-timeout) ends by itself
# on B (reason idle) and A reports peer-request; 4. A ends (Ctrl-C) while B is connected: B reports
# peer-request; 5. A is killed (kill -9) while B is connected: B reports peer-lost. After each, no station is
# left on the surviving side and no NDI on the side that ended. A subscriber (--count 1 --data-path) whose
# data path ended exits 0 by itself.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

ndis() { in_netns "$1" ip -o link show | grep -c 'data' ; }
stations() { in_netns "$1" iw dev "$2" station dump 2>/dev/null | grep -c '^Station' ; }
# Waits until namespace $1's interface $2 has $3 stations (the kernel call follows the event by a moment).
wait_stations() {
    local i n
    for i in $(seq 1 "$(scaled 20)"); do
        n=$(stations "$1" "$2")
        [ "$n" = "$3" ] && break
        sleep 1
    done
    expect_eq "stations on $1's $2" "$3" "$n"
}
subscribe() { start_bg "$1" dB "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json "${@:2}"; }
publish() { start_bg "$1" dA "$WAWARE" publish _dp._tcp --accept-data-paths --open --json; wait_for_line "$(bg_log "$1")" '"event":"started"' 60; }
up() { wait_for_line "$(bg_log "$1")" '"event":"data-path-up"' 300; }

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "1. B ends its data path (Ctrl-C): A reports the peer's termination, B's NDI is gone"
publish pub
subscribe sub1
up sub1
up pub
ifA=$(event_field "$(bg_log pub)" data-path-up interface)
wait_stations dA "$ifA" 1
stop_bg sub1 INT
wait_for_line "$(bg_log pub)" '"event":"data-path-down".*"reason":"peer-request"' 60
wait_stations dA "$ifA" 0
expect_eq "no NDI in dB" 0 "$(ndis dB)"

step "2. kill -9 of B: its NDI goes with its socket; A reports the loss and drops the station"
subscribe sub2
up sub2
wait_stations dA "$ifA" 1
stop_bg sub2 KILL 137
sleep 2
expect_eq "no NDI in dB after kill -9" 0 "$(ndis dB)"
wait_for_line "$(bg_log pub)" '"event":"data-path-down".*"reason":"peer-lost"' 90
wait_stations dA "$ifA" 0
expect_running pub

step "3. an idle data path ends by itself: B (--idle-timeout 8) reports idle, A the peer's termination"
subscribe sub3 --idle-timeout 8
up sub3
wait_for_line "$(bg_log sub3)" '"event":"data-path-down".*"reason":"idle"' 120
wait_for_line "$(bg_log pub)" '"event":"data-path-down".*"reason":"peer-request"' 60
wait_stations dA "$ifA" 0
wait_bg sub3 0 60
expect_eq "no NDI in dB" 0 "$(ndis dB)"

step "4. A ends (Ctrl-C) while B is connected: B reports the peer's termination; nothing left on either side"
subscribe sub4
up sub4
ifB=$(event_field "$(bg_log sub4)" data-path-up interface)
stop_bg pub INT
wait_for_line "$(bg_log sub4)" '"event":"data-path-down".*"reason":"peer-request"' 60
wait_stations dB "$ifB" 0
wait_bg sub4 0 60
sleep 1
expect_eq "no NDI in dA" 0 "$(ndis dA)"
expect_eq "no NDI in dB" 0 "$(ndis dB)"

step "5. kill -9 of A while B is connected: B reports the loss and drops the station; no NDI in dA"
publish pub5
subscribe sub5
up sub5
ifB=$(event_field "$(bg_log sub5)" data-path-up interface)
stop_bg pub5 KILL 137
sleep 2
expect_eq "no NDI in dA after kill -9" 0 "$(ndis dA)"
wait_for_line "$(bg_log sub5)" '"event":"data-path-down".*"reason":"peer-lost"' 90
wait_stations dB "$ifB" 0
wait_bg sub5 0 60
expect_eq "no NDI in dB" 0 "$(ndis dB)"
