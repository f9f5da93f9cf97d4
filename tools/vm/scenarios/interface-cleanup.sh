#!/bin/bash
# The NAN interface belongs to the waware process that created it: killed with SIGKILL (no chance to
# clean up), the kernel must delete it. Checked with iw and with `waware list --json`.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

# NAN interfaces in namespace dA, as iw sees them and as waware sees them.
iw_nan_interfaces() { in_netns dA iw dev | grep -c 'type NAN'; }
waware_nan_interfaces() {
    in_netns dA timeout "$(scaled 30)" "$WAWARE" list --json | python3 -c '
import json, sys
print(sum(1 for a in json.load(sys.stdin)["adapters"] for i in a["interfaces"] if i["type"] == "NAN"))'
}

step "one radio in namespace dA, NAN up"
sim_radios 1
radio_netns 0 dA
start_bg devA dA "$WAWARE" cluster start --json
wait_for_line "$(bg_log devA)" '"event":"clusterJoined"' 30
expect_eq "NAN interfaces while waware runs (iw dev)" 1 "$(iw_nan_interfaces)"
expect_eq "NAN interfaces while waware runs (waware list --json)" 1 "$(waware_nan_interfaces)"

step "SIGKILL the owner"
stop_bg devA KILL
deadline=$(($EPOCHSECONDS + 10))
while [ "$(iw_nan_interfaces)" != 0 ] && [ "$EPOCHSECONDS" -lt "$deadline" ]; do nap 0.2; done
in_netns dA iw dev
expect_eq "NAN interfaces after the owner died (iw dev)" 0 "$(iw_nan_interfaces)"
expect_eq "NAN interfaces after the owner died (waware list --json)" 0 "$(waware_nan_interfaces)"
