#!/bin/bash
# Channel evacuation and the Schedule Update Notification: A and B bring up an open data path with the
# preferred schedules (channel 6 in slot 1, channel 149 elsewhere). Then A evacuates channel 6
# (WAWARE_DP_EVACUATE=2437:2, as if the kernel had sent NAN_CHANNEL_EVAC): A installs its schedule again on
# channel 149 only and tells B in a Schedule Update Notification; B installs A's new schedule for A's NMI
# station (NAN_SET_PEER_SCHED again). The data path stays up on both sides, 256 KiB of TCP each way over
# it is byte-exact (28 slots on channel 149 in common), and when B stops A reports it down and no NAN
# data interface is left.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US (channel 149 allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A publishes _dpsu._tcp accepting open data paths, evacuating channel 6 2 s after the first is up"
start_bg pub dA env WAWARE_TRACE=1 WAWARE_DP_EVACUATE=2437:2 "$WAWARE" publish _dpsu._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_TRACE=1 "$WAWARE" subscribe _dpsu._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 150
expect_contains "B's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 30

step "A evacuates channel 6: its schedule moves to channel 149"
wait_for_line "$(bg_log pub)" 'waware: evacuated 2437 MHz .*now on 5745 MHz' 60
echo "    A: $LINE"
wait_for_line "$(bg_log pub)" 'dp local schedule \[ch 149 \(5745 MHz\)\] committed 30 slots \(evacuated 2437 MHz\)' 5

step "B hears A's Schedule Update Notification and installs A's new schedule"
wait_for_line "$(bg_log sub)" 'dp schedule update from .*: sequence 1 -> 2' 60
echo "    B: $LINE"
wait_for_line "$(bg_log sub)" 'dp peer schedule of .* installed again \(sequence 2\)' 10
sleep 3
expect_eq "data paths down at A" 0 "$(grep -c '"event":"data-path-down"' "$(bg_log pub)")"
expect_eq "data paths down at B" 0 "$(grep -c '"event":"data-path-down"' "$(bg_log sub)")"

ifA=$(event_field "$(bg_log pub)" data-path-up interface)
ifB=$(event_field "$(bg_log sub)" data-path-up interface)
localA=$(event_field "$(bg_log pub)" data-path-up localAddress)
localB=$(event_field "$(bg_log sub)" data-path-up localAddress)
wait_link_local dA "$ifA" "$localA"
wait_link_local dB "$ifB" "$localB"

step "TCP over the new schedule: 256 KiB each way, byte-exact"
size=$((256 * 1024))
tcp_both_ways tcpA 5001 "$size" "$ifA" "$localA" "$ifB"

step "B stops: A reports the data path down; no NAN data interface left"
stop_bg sub INT
wait_for_line "$(bg_log pub)" '"event":"data-path-down"' 30
stop_bg pub INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
