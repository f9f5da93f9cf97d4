#!/bin/bash
# The counter-proposal path of NDL schedule negotiation: A publishes accepting open data paths with its
# schedule laid out the other way round (WAWARE_DP_SCHEDULE=swapped: 5 GHz in slot 1, channel 6 elsewhere),
# so B's request shares no slot with it. A answers with its own schedule (NDL status continued), B takes it
# (installs the agreed schedule) and confirms; both report the data path up, and 256 KiB of TCP each way
# over it is byte-exact; when both stop, no NAN data interface is left.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed, needed by the swapped layout)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A publishes _dpc._tcp with the swapped schedule; B subscribes with --data-path --open"
start_bg pub dA env WAWARE_TRACE=1 WAWARE_DP_SCHEDULE=swapped "$WAWARE" publish _dpc._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_TRACE=1 "$WAWARE" subscribe _dpc._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 150
expect_contains "B's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 30

step "the schedules: A's own, and B's after it took A's counter-proposal"
wait_for_line "$(bg_log pub)" 'dp local schedule \[ch 6 \(2437 MHz\), ch 149 \(5745 MHz\)\] committed 30 slots' 5
wait_for_line "$(bg_log sub)" "dp rx data path response status 0 from" 5
wait_for_line "$(bg_log sub)" "dp local schedule .* committed 30 slots \(to meet the peer's schedule" 5
echo "    B: $LINE"

ifA=$(event_field "$(bg_log pub)" data-path-up interface)
ifB=$(event_field "$(bg_log sub)" data-path-up interface)
localA=$(event_field "$(bg_log pub)" data-path-up localAddress)
localB=$(event_field "$(bg_log sub)" data-path-up localAddress)
expect_eq "B's peer address is A's own" "$localA" "$(event_field "$(bg_log sub)" data-path-up peerAddress)"
expect_eq "A's peer address is B's own" "$localB" "$(event_field "$(bg_log pub)" data-path-up peerAddress)"
wait_link_local dA "$ifA" "$localA"
wait_link_local dB "$ifB" "$localB"

step "TCP over the agreed schedule: 256 KiB each way, byte-exact"
size=$((256 * 1024))
tcp_both_ways tcpA 5001 "$size" "$ifA" "$localA" "$ifB"

step "both stop: no NAN data interface left"
stop_bg sub INT
stop_bg pub INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
