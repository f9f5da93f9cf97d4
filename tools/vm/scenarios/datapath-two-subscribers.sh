#!/bin/bash
# Two subscribers (B, C) set up open data paths to one publisher (A) at once: A reports both, on its one NDI,
# with each peer's own address; A holds two NDI stations; a TCP exchange of 512 KiB each way runs between A
# and B and between A and C at the same time, byte-exact; when B and C stop, A drops both stations.
# Tracing is off by default (DP_TRACE=1 turns it on): on a loaded machine the trace lines, written to the 9p
# results folder, slowed the processes until their netlink sockets overran (2026-11-30). With c6b56f8 (an
# overrun no longer ends the publisher with "interface gone") both data paths stayed up at host load 17
# (2026-12-01); the TCP servers then needed more than 40 s to print 'listening': waits are wide.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
TCP="$_lib_dir/tcp-exchange.py"
stations() { in_netns "$1" iw dev "$2" station dump 2>/dev/null | grep -c '^Station' ; }

step "three radios in namespaces dA, dB, dC; regulatory domain US"
set_country US
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "A publishes accepting open data paths; B and C subscribe with --data-path --open at the same time"
start_bg pub dA env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" publish _dp._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg subB dB env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
start_bg subC dC env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" subscribe _dp._tcp --count 1 --data-path --open --json
wait_for_line "$(bg_log subB)" '"event":"data-path-(up|down)"' 300
expect_contains "B's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log subC)" '"event":"data-path-(up|down)"' 300
expect_contains "C's data path" '"data-path-up"' "$LINE"
for i in $(seq 1 "$(scaled 30)"); do
    [ "$(grep -c '"event":"data-path-up"' "$(bg_log pub)")" -ge 2 ] && break
    sleep 1
done
expect_eq "data paths A reports up" 2 "$(grep -c '"event":"data-path-up"' "$(bg_log pub)")"

ifA=$(event_field "$(bg_log pub)" data-path-up interface)
{ read -r ifB; read -r localA; read -r localB; } < <(event_field "$(bg_log subB)" data-path-up interface peerAddress localAddress)
{ read -r ifC; read -r localAofC; read -r localC; } < <(event_field "$(bg_log subC)" data-path-up interface peerAddress localAddress)
expect_eq "C sees the same address of A as B" "$localA" "$localAofC"
peersOfA=$(grep '"event":"data-path-up"' "$(bg_log pub)" | python3 -c 'import json,sys; print(" ".join(sorted(json.loads(l)["peerAddress"] for l in sys.stdin)))')
expect_eq "A's two peers are B and C" "$(printf '%s\n' "$localB" "$localC" | sort | tr '\n' ' ' | sed 's/ $//')" "$peersOfA"
expect_eq "stations on A's $ifA" 2 "$(stations dA "$ifA")"
out=$(in_netns dA "$WAWARE" data-paths --json) || fail "data-paths failed: $out"
echo "    $out"

step "the link-local addresses are usable (DAD done)"
for i in $(seq 1 50); do
    n=0
    for ns_if in "dA $ifA" "dB $ifB" "dC $ifC"; do
        set -- $ns_if
        in_netns "$1" ip -6 addr show dev "$2" scope link | grep -q tentative || n=$((n + 1))
    done
    [ "$n" = 3 ] && break
    nap 0.2
done
expect_eq "interfaces with a usable link-local address" 3 "$n"

step "TCP: 512 KiB each way between A and B and between A and C at the same time, byte-exact"
size=$((512 * 1024))
start_bg tcpAB dA python3 "$TCP" server "$ifA" 5001 "$size" 11
start_bg tcpAC dA python3 "$TCP" server "$ifA" 5002 "$size" 12
wait_for_line "$(bg_log tcpAB)" 'listening' 60
wait_for_line "$(bg_log tcpAC)" 'listening' 60
start_bg tcpB dB timeout "$(scaled 150)" python3 "$TCP" client "$ifB" "$localA" 5001 "$size" 21
start_bg tcpC dC timeout "$(scaled 150)" python3 "$TCP" client "$ifC" "$localA" 5002 "$size" 22
wait_bg tcpB 0 160
wait_bg tcpC 0 160
expect_eq "B got A's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 11)" "$(grep '^received' "$(bg_log tcpB)")"
expect_eq "C got A's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 12)" "$(grep '^received' "$(bg_log tcpC)")"
wait_for_line "$(bg_log tcpAB)" '^received' 60
expect_eq "A got B's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 21)" "$LINE"
wait_for_line "$(bg_log tcpAC)" '^received' 60
expect_eq "A got C's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 22)" "$LINE"
wait_bg tcpAB 0 30
wait_bg tcpAC 0 30

step "B and C stop: A reports both ends and keeps no station"
stop_bg subB INT
stop_bg subC INT
for i in $(seq 1 "$(scaled 30)"); do
    [ "$(grep -c '"event":"data-path-down"' "$(bg_log pub)")" -ge 2 ] && [ "$(stations dA "$ifA")" = 0 ] && break
    sleep 1
done
expect_eq "data paths A reports down" 2 "$(grep -c '"event":"data-path-down"' "$(bg_log pub)")"
expect_eq "stations on A's $ifA" 0 "$(stations dA "$ifA")"
stop_bg pub INT
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c data)"
