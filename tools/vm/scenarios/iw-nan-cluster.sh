#!/bin/bash
# Two NAN radios, each in its own network namespace, driven by iw alone: both start NAN and the
# kernel reports NL80211_CMD_NAN_CLUSTER_JOINED (159) on each. Proves the bench itself (radios,
# namespaces, NAN in the kernel) independently of waware. (iw 5.19 predates command 159 and prints
# it as "unknown event 159"; the cluster id itself is checked by the waware scenarios.)
# timeout: 90
source "$(dirname "$0")/../guest/lib.sh"

# The wdev id of the NAN interface in netns NS (NAN has no netdev, so iw addresses it by wdev).
nan_wdev() { in_netns "$1" iw dev | awk '/wdev/ { w = $2 } /type NAN/ { print w; exit }'; }

step "two NAN radios in namespaces dA and dB, an nl80211 event monitor in each"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
start_bg events-dA dA iw event -t
start_bg events-dB dB iw event -t

step "each radio supports the NAN interface type"
for i in 0 1; do
    ns=$([ $i = 0 ] && echo dA || echo dB)
    expect_contains "supported interface types of ${PHYS[$i]}" "* NAN" "$(in_netns $ns iw phy "${PHYS[$i]}" info)"
done

step "a NAN interface on each radio, NAN started"
for i in 0 1; do
    ns=$([ $i = 0 ] && echo dA || echo dB)
    in_netns $ns iw phy "${PHYS[$i]}" interface add nan$i type __nan || fail "iw could not add a NAN interface on ${PHYS[$i]}"
    wdev=$(nan_wdev $ns)
    expect_match "NAN wdev of ${PHYS[$i]} in $ns" '^0x[0-9a-f]+$' "$wdev"
    in_netns $ns iw wdev "$wdev" nan start pref 10 || fail "iw wdev $wdev nan start failed"
done

step "both radios report a joined cluster (event 159)"
wait_for_line "$(bg_log events-dA)" 'unknown event 159' 30
wait_for_line "$(bg_log events-dB)" 'unknown event 159' 30
