#!/bin/bash
# Secure NAN data paths (NCS-SK-128, then NCS-SK-256) between two devices, each in its own network
# namespace: A publishes accepting data paths with passphrase NAN (both suites), B requests one with the same
# passphrase and the suite. Both report that cipher suite (no open warning), each side's NDI station of the
# peer is authorized with MFP (the key is in: the engine adds it with MFP, installs the TK, then authorizes),
# a TCP exchange of 1 MiB each way over the NDIs is byte-exact, on the air (hwsim0) every unicast data frame
# is protected and a ping's known payload never shows, B's stop ends A's side as the peer's request (its
# termination goes protected, NDI to NDI: an unprotected one would be ignored), and when both stop no NAN data
# interface is left. Tracing is off by default (DP_TRACE=1 turns it on): trace lines written to the 9p results folder
# slow the processes on a loaded machine. Time limits are wide (and scaled): a loaded 2-core host makes
# each setup take seconds to minutes.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
iw reg get | sed 's/^/    reg: /' | head -n 4

secure_run() {
    local bits=$1 suite="NCS-SK-$1" port=$((5100 + $1))
    step "$suite: A accepts with --passphrase NAN; B requests with --passphrase NAN --cipher-suite $bits"
    start_bg pub$bits dA env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" publish _sec._tcp --accept-data-paths --passphrase NAN --json
    wait_for_line "$(bg_log pub$bits)" '"event":"started"' 60
    start_bg sub$bits dB env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" subscribe _sec._tcp --count 1 --data-path --passphrase NAN \
        --cipher-suite "$bits" --json
    wait_for_line "$(bg_log sub$bits)" '"event":"data-path-(up|down)"' 200
    wait_for_line "$(bg_log pub$bits)" '"event":"data-path-up"' 60

    local ifA ifB localA localB cipherA cipherB peerA peerB
    { read -r ifA; read -r localA; read -r cipherA; read -r peerA; } \
        < <(event_field "$(bg_log pub$bits)" data-path-up interface localAddress cipherSuite peerAddress)
    { read -r ifB; read -r localB; read -r cipherB; read -r peerB; } \
        < <(event_field "$(bg_log sub$bits)" data-path-up interface localAddress cipherSuite peerAddress)
    expect_eq "A's cipher" "$suite" "$cipherA"
    expect_eq "B's cipher" "$suite" "$cipherB"
    expect_eq "B's peer address is A's own" "$localA" "$peerB"
    expect_eq "A's peer address is B's own" "$localB" "$peerA"
    expect_not_contains "no open warning on B" "data path is open" "$(cat "$(bg_log sub$bits)")"
    local ns dev dump ns_dev
    for ns_dev in "dA $ifA" "dB $ifB"; do
        read -r ns dev <<<"$ns_dev"
        dump=$(in_netns "$ns" iw dev "$dev" station dump)
        expect_match "$ns: the peer's NDI station on $dev is authorized" 'authorized:[[:space:]]*yes' "$dump"
        expect_match "$ns: the peer's NDI station on $dev has MFP (keyed)" 'MFP:[[:space:]]*yes' "$dump"
    done

    step "$suite: the link-local addresses are usable (DAD done)"
    wait_link_local dA "$ifA" "$localA"
    wait_link_local dB "$ifB" "$localB"

    step "$suite: TCP 1 MiB each way, byte-exact"
    local size=$((1024 * 1024))
    tcp_both_ways "tcp$bits" "$port" "$size" "$ifA" "$localA" "$ifB"
    in_netns dA iw dev "$ifA" station dump | sed 's/^/    A station: /' | head -n 12

    step "$suite: on the air every unicast data frame is protected, and the pings' payload never shows"
    air_capture_start air$bits
    air_ping dB "$ifB" "$localA"
    air_capture_stop air$bits
    expect_eq "unicast data frames seen (12 pings and answers at least)" yes "$([ "$AIR_UNICAST" -ge 12 ] && echo yes || echo "no: $AIR_UNICAST")"
    expect_eq "unicast data frames in the clear" 0 "$AIR_PLAIN_UNICAST"
    expect_eq "frames holding the pings' payload" 0 "$AIR_SEEN_PATTERN"

    step "$suite: B stops; its termination (protected, NDI to NDI) ends A's side as the peer's request"
    stop_bg sub$bits INT
    wait_for_line "$(bg_log pub$bits)" '"event":"data-path-down"' 30
    expect_match "A's data path ended by the peer" '"reason":"peer-request"' "$LINE"

    step "$suite: A stops, no NAN data interface left"
    stop_bg pub$bits INT
    sleep 1
    expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
    expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
}

secure_run 128
secure_run 256
