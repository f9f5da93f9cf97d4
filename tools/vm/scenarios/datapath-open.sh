#!/bin/bash
# An open NAN data path between two devices, each in its own network namespace: A publishes accepting data
# paths, B subscribes and requests one to what it found. Both report the interface, the link-local
# addresses (each side's peer address is the other's own) and cipher "open"; a TCP exchange of 2 MiB each
# way over the NDIs is byte-exact; on the air (hwsim0) a ping's known payload shows in the clear; when both
# stop, no NAN data interface is left.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
iw reg get | sed 's/^/    reg: /' | head -n 4

step "A publishes _dp._tcp accepting open data paths; B subscribes with --data-path --open"
start_bg pub dA env WAWARE_TRACE=${DP_TRACE:-1} "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_TRACE=${DP_TRACE:-1} "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 150
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 30
wait_for_line "$(bg_log pub)" '"event":"data-path-requested"' 5

ifA=$(event_field "$(bg_log pub)" data-path-up interface)
ifB=$(event_field "$(bg_log sub)" data-path-up interface)
localA=$(event_field "$(bg_log pub)" data-path-up localAddress)
localB=$(event_field "$(bg_log sub)" data-path-up localAddress)
peerA=$(event_field "$(bg_log pub)" data-path-up peerAddress)
peerB=$(event_field "$(bg_log sub)" data-path-up peerAddress)
expect_eq "A's cipher" open "$(event_field "$(bg_log pub)" data-path-up cipherSuite)"
expect_eq "B's cipher" open "$(event_field "$(bg_log sub)" data-path-up cipherSuite)"
expect_eq "B's peer address is A's own" "$localA" "$peerB"
expect_eq "A's peer address is B's own" "$localB" "$peerA"
expect_contains "the open warning on B" "data path is open" "$(cat "$(bg_log sub)")"
in_netns dA ip -6 addr show dev "$ifA" | sed 's/^/    A: /'
in_netns dB ip -6 addr show dev "$ifB" | sed 's/^/    B: /'

step "waware data-paths lists A's interface with B's NDI"
out=$(in_netns dA "$WAWARE" data-paths --json) || fail "data-paths failed: $out"
echo "    $out"
expect_contains "A's NDI listed" "\"interface\":\"$ifA\"" "$out"
expect_contains "B's NDI is its peer" "$(event_field "$(bg_log pub)" data-path-up peerInterfaceAddress)" "$out"

step "the link-local addresses are on the interfaces and usable (DAD done)"
wait_link_local dA "$ifA" "$localA"
wait_link_local dB "$ifB" "$localB"

step "TCP: 2 MiB each way, byte-exact"
size=$((2 * 1024 * 1024))
tcp_both_ways tcpA 5001 "$size" "$ifA" "$localA" "$ifB"
in_netns dA iw dev "$ifA" station dump | sed 's/^/    A station: /' | head -n 12

step "on the air the open data path carries the pings' payload in the clear (the control for datapath-secure)"
air_capture_start air
air_ping dB "$ifB" "$localA"
air_capture_stop air
expect_eq "frames holding the pings' payload (12 pings and answers at least)" yes "$([ "$AIR_SEEN_PATTERN" -ge 12 ] && echo yes || echo "no: $AIR_SEEN_PATTERN")"
expect_eq "protected data frames" 0 "$AIR_PROTECTED"

step "both stop: no NAN data interface left"
stop_bg sub INT
stop_bg pub INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
