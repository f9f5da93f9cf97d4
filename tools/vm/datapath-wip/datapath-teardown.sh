#!/bin/bash
# Data-path teardown: B's data path to A ends when B stops (A reports peer-request); a second one ends when A
# stops accepting... by A ending (B reports peer-request); a third ends by `kill -9` of B: A's station goes and
# no NAN data interface is left in either namespace.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

ndis() { in_netns "$1" ip -o link show | grep -c 'data' ; }
stations() { in_netns "$1" iw dev "$2" station dump 2>/dev/null | grep -c '^Station'; }

step "two radios in namespaces dA, dB; regulatory domain US"
iw reg set US || fail "iw reg set US failed"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "1. B ends its data path (Ctrl-C): A reports the peer's termination, B's NDI is gone"
start_bg pub dA "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub1 dB "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub1)" '"event":"data-path-up"' 300
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 30
ifA=$(event_field "$(bg_log pub)" data-path-up interface)
expect_eq "A has B's NDI station" 1 "$(stations dA "$ifA")"
stop_bg sub1 INT
wait_for_line "$(bg_log pub)" '"event":"data-path-down".*"reason":"peer-request"' 30
expect_eq "A has no station left" 0 "$(stations dA "$ifA")"
expect_eq "no NDI in dB" 0 "$(ndis dB)"

step "2. kill -9 of B: its NDI goes with its socket; A's publisher keeps running"
start_bg sub2 dB "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub2)" '"event":"data-path-up"' 300
stop_bg sub2 KILL
sleep 2
expect_eq "no NDI in dB after kill -9" 0 "$(ndis dB)"

step "3. A ends (Ctrl-C) while B is connected: B reports the peer's termination; nothing left on either side"
start_bg sub3 dB "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub3)" '"event":"data-path-up"' 300
stop_bg pub INT
wait_for_line "$(bg_log sub3)" '"event":"data-path-down".*"reason":"peer-request"' 30
stop_bg sub3 INT
sleep 1
expect_eq "no NDI in dA" 0 "$(ndis dA)"
expect_eq "no NDI in dB" 0 "$(ndis dB)"
