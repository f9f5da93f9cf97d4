#!/bin/bash
# Secure NAN data paths (NCS-SK-128, then NCS-SK-256) between two devices, each in its own network
# namespace: A publishes accepting data paths with passphrase NAN (both suites), B requests one with the same
# passphrase and the suite. Both report that cipher suite, the TK went in before the NDI station was
# authorized (trace), a TCP exchange of 1 MiB each way over the NDIs is byte-exact, and when both stop no
# NAN data interface is left.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
TCP="$_lib_dir/tcp-exchange.py"

# event_field, tried again: reading a log that is being written through 9p can fail (ENODATA) under load.
field() {
    local value i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        value=$(event_field "$@" 2>/dev/null) && [ -n "$value" ] && { printf '%s\n' "$value"; return 0; }
        sleep 0.5
    done
    return 0
}

step "two radios in namespaces dA, dB; regulatory domain US (5 GHz allowed)"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
iw reg get | sed 's/^/    reg: /' | head -n 4

secure_run() {
    local bits=$1 suite="NCS-SK-$1" port=$((5100 + $1))
    step "$suite: A accepts with --passphrase NAN; B requests with --passphrase NAN --cipher-suite $bits"
    start_bg pub$bits dA env WAWARE_TRACE=1 "$WAWARE" publish _sec._tcp --accept-data-paths --passphrase NAN --json
    wait_for_line "$(bg_log pub$bits)" '"event":"started"' 60
    start_bg sub$bits dB env WAWARE_TRACE=1 "$WAWARE" subscribe _sec._tcp --count 1 --data-path --passphrase NAN \
        --cipher-suite "$bits" --json
    wait_for_line "$(bg_log sub$bits)" '"event":"data-path-(up|down)"' 200
    wait_for_line "$(bg_log pub$bits)" '"event":"data-path-up"' 60

    local ifA ifB localA localB
    ifA=$(field "$(bg_log pub$bits)" data-path-up interface)
    ifB=$(field "$(bg_log sub$bits)" data-path-up interface)
    localA=$(field "$(bg_log pub$bits)" data-path-up localAddress)
    localB=$(field "$(bg_log sub$bits)" data-path-up localAddress)
    expect_eq "A's cipher" "$suite" "$(field "$(bg_log pub$bits)" data-path-up cipherSuite)"
    expect_eq "B's cipher" "$suite" "$(field "$(bg_log sub$bits)" data-path-up cipherSuite)"
    expect_eq "B's peer address is A's own" "$localA" "$(field "$(bg_log sub$bits)" data-path-up peerAddress)"
    expect_not_contains "no open warning on B" "data path is open" "$(cat "$(bg_log sub$bits)")"
    grep -hE "key (installed|for the peer)|NCS-SK" "$(bg_log pub$bits)" "$(bg_log sub$bits)" | grep -v '"event"' | sed 's/^/    trace: /' | head -n 8

    step "$suite: the link-local addresses are usable (DAD done)"
    local a b i
    for i in $(seq 1 100); do
        a=$(in_netns dA ip -6 addr show dev "$ifA" scope link | grep -v tentative | grep -c "$localA")
        b=$(in_netns dB ip -6 addr show dev "$ifB" scope link | grep -v tentative | grep -c "$localB")
        [ "$a" = 1 ] && [ "$b" = 1 ] && break
        sleep 0.2
    done
    expect_eq "A has $localA" 1 "$a"
    expect_eq "B has $localB" 1 "$b"

    step "$suite: TCP 1 MiB each way, byte-exact"
    local size=$((1024 * 1024)) out
    start_bg tcp$bits dA python3 "$TCP" server "$ifA" "$port" "$size" 11
    wait_for_line "$(bg_log tcp$bits)" 'listening' 10
    out=$(in_netns dB timeout 200 python3 "$TCP" client "$ifB" "$localA" "$port" "$size" 22) || fail "TCP client failed: $out"
    echo "    B: $out"
    wait_for_line "$(bg_log tcp$bits)" '^received' 60
    expect_eq "B got A's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 11)" "$out"
    expect_eq "A got B's bytes" "received $size sha256 $(python3 "$TCP" digest "$size" 22)" "$LINE"
    wait_bg tcp$bits 0 30
    in_netns dA iw dev "$ifA" station dump | sed 's/^/    A station: /' | head -n 12

    step "$suite: both stop, no NAN data interface left"
    stop_bg sub$bits INT
    stop_bg pub$bits INT
    sleep 1
    expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
    expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
}

secure_run 128
secure_run 256
