#!/bin/bash
# How open data paths end, and that nothing stays behind: 1. B ends (Ctrl-C): A reports peer-request and
# drops B's station, B's NDI is gone; 2. B is killed (kill -9): its NDI goes with its socket, A reports
# peer-lost (keepalives unanswered) and drops B's station; 3. an idle data path (--idle-timeout) ends by itself
# on B (reason idle) and A reports peer-request; 4. A ends (Ctrl-C) while B is connected: B reports
# peer-request; 5. A is killed (kill -9) while B is connected: B reports peer-lost. After each, no station is
# left on the surviving side and no NDI on the side that ended. A subscriber (--count 1 --data-path) whose
# data path ended exits 0 by itself. The publisher's log holds the ends of several data paths: each step waits
# for one more data-path-down with its reason (a count), never for the first match. Waits are polled with
# wide, scaled limits: the kernel deletes a dead process's interfaces from a work item, late on a loaded host.
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
# Waits until namespace $1 has $2 NAN data interfaces.
wait_ndis() {
    local i n
    for i in $(seq 1 "$(scaled 20)"); do
        n=$(ndis "$1")
        [ "$n" = "$2" ] && break
        sleep 1
    done
    expect_eq "NAN data interfaces in $1" "$2" "$n"
}
# Waits until log of $1 has $3 data-path-down records with reason $2 (within $4 seconds, scaled).
wait_down() {
    local deadline n
    deadline=$(($EPOCHSECONDS + $(scaled "$4")))
    while n=$(grep -c "\"event\":\"data-path-down\".*\"reason\":\"$2\"" "$(bg_log "$1")" 2>/dev/null); [ "${n:-0}" -lt "$3" ]; do
        if [ "$EPOCHSECONDS" -ge "$deadline" ]; then
            _bg_tail "$1"
            fail "$1: fewer than $3 data-path-down records with reason $2 after $(scaled "$4")s (saw ${n:-0})"
        fi
        nap 0.5
    done
    printf 'ok: %s reported data-path-down (%s) %s time(s)\n' "$1" "$2" "$n"
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
wait_down pub peer-request 1 60
wait_stations dA "$ifA" 0
wait_ndis dB 0

step "2. kill -9 of B: its NDI goes with its socket; A reports the loss and drops the station"
subscribe sub2
up sub2
wait_stations dA "$ifA" 1
stop_bg sub2 KILL 137
wait_ndis dB 0
wait_down pub peer-lost 1 90
wait_stations dA "$ifA" 0
expect_running pub

step "3. an idle data path ends by itself: B (--idle-timeout 8) reports idle, A the peer's termination"
subscribe sub3 --idle-timeout 8
up sub3
wait_down sub3 idle 1 120
wait_down pub peer-request 2 60
wait_stations dA "$ifA" 0
wait_bg sub3 0 60
wait_ndis dB 0

step "4. A ends (Ctrl-C) while B is connected: B reports the peer's termination; nothing left on either side"
subscribe sub4
up sub4
ifB=$(event_field "$(bg_log sub4)" data-path-up interface)
stop_bg pub INT
wait_down sub4 peer-request 1 60
wait_stations dB "$ifB" 0
wait_bg sub4 0 60
wait_ndis dA 0
wait_ndis dB 0

step "5. kill -9 of A while B is connected: B reports the loss and drops the station; no NDI in dA"
publish pub5
subscribe sub5
up sub5
ifB=$(event_field "$(bg_log sub5)" data-path-up interface)
stop_bg pub5 KILL 137
wait_ndis dA 0
wait_down sub5 peer-lost 1 90
wait_stations dB "$ifB" 0
wait_bg sub5 0 60
wait_ndis dB 0
