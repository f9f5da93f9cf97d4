#!/bin/bash
# Two simulated devices, each with its own radio in its own network namespace, run
# `waware cluster start`: both must report joining one and the same NAN cluster.
# timeout: 120
source "$(dirname "$0")/../guest/lib.sh"

# The cluster id of the last clusterJoined event in a `waware cluster start --json` log.
last_cluster() { event_field "$1" clusterJoined clusterID; }

step "two radios, devices A and B in namespaces dA and dB"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "NAN up on both devices"
start_bg devA dA "$WAWARE" cluster start --json
wait_for_line "$(bg_log devA)" '"event":"clusterJoined"' 30
start_bg devB dB "$WAWARE" cluster start --json
wait_for_line "$(bg_log devB)" '"event":"clusterJoined"' 30

step "both in one cluster"
# B may first create a cluster of its own and then merge into A's (or A into B's): wait for agreement.
deadline=$(($EPOCHSECONDS + 30))
while a=$(last_cluster "$(bg_log devA)") b=$(last_cluster "$(bg_log devB)"); [ "$a" != "$b" ]; do
    [ "$EPOCHSECONDS" -ge "$deadline" ] && break
    nap 0.5
done
expect_match "device A's cluster id" '^50:6f:9a:01:[0-9a-f]{2}:[0-9a-f]{2}$' "$a"
expect_eq "device B's cluster id (device A is in $a)" "$a" "$b"

step "both stop cleanly on SIGTERM"
stop_bg devA
stop_bg devB
wait_for_line "$(bg_log devA)" '"event":"stopped"' 5
wait_for_line "$(bg_log devB)" '"event":"stopped"' 5
