#!/bin/bash
# A wrong passphrase is refused on both sides: A accepts data paths with passphrase NAN, B requests one with
# another passphrase. A reports the request refused (data-path-down, reason security-failure, NAN reason 8)
# and keeps publishing; B fails in one line naming the reason, with the exit code of connectionFailed (1).
# Neither side ever reports the data path up and no station is left on any netdev of either side (the NDIs;
# the NMI is a wdev without a netdev, which `iw dev X station dump` cannot ask), so no traffic can pass;
# nothing is left when A stops. Tracing is off by default (DP_TRACE=1 turns it on).
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "A accepts with --passphrase NAN; B requests with --passphrase not-NAN"
start_bg pub dA env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" publish _sec._tcp --accept-data-paths --passphrase NAN --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_TRACE=${DP_TRACE:-0} "$WAWARE" subscribe _sec._tcp --count 1 --data-path --passphrase not-NAN --json
wait_for_line "$(bg_log pub)" '"event":"data-path-down"' 200
expect_contains "A says why" '"reason":"security-failure"' "$LINE"
expect_contains "A gives the NAN reason" '"reasonCode":8' "$LINE"
wait_bg sub 1 120
wait_for_line "$(bg_log sub)" '^waware: .*data path.*failed' 30
expect_contains "B names the reason" "reason 8" "$LINE"
expect_not_contains "B never came up" '"event":"data-path-up"' "$(cat "$(bg_log sub)")"
expect_not_contains "A never came up" '"event":"data-path-up"' "$(cat "$(bg_log pub)")"
expect_running pub

step "no station on any netdev (NDI) of either side, no NDI left in dB"
for ns in dA dB; do
    for dev in $(in_netns $ns iw dev | awk '$1 == "Interface" { print $2 }'); do
        expect_eq "no station on $ns $dev" "" "$(in_netns $ns iw dev "$dev" station dump)"
    done
done
expect_eq "no NDI in dB (B has ended)" 0 "$(in_netns dB ip -o link show | grep -c 'data')"

step "A stops: no NAN data interface left"
stop_bg pub INT
sleep 1
expect_eq "no NDI in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
expect_eq "no NDI in dB" 0 "$(in_netns dB ip -o link show | grep -c 'data')"
