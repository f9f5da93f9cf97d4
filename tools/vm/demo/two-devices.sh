#!/bin/bash
# The demo tools/demo shows on a machine without NAN hardware: two simulated devices, each with its own
# radio in its own network namespace, start NAN with waware and end up in one cluster.
# Output is for people, not for grep: the raw logs are in results/demo/two-devices/.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

# describe LOG WHO: one sentence per interesting event of a `waware cluster start --json` log.
describe() {
    python3 - "$1" "$2" <<'PY'
import json, sys
who = sys.argv[2]
for raw in open(sys.argv[1]):
    try:
        e = json.loads(raw)
    except ValueError:
        continue
    kind = e.get("event")
    if kind == "started":
        print(f"  {who}: NAN is on (NAN address {e.get('address', '?')}, master preference {e.get('masterPreference', '?')})")
    elif kind == "clusterJoined":
        how = "created a new cluster" if e.get("newCluster") else "joined the cluster"
        after = e.get("elapsedSeconds")
        print(f"  {who}: {how} {e.get('clusterID', '?')}" + (f" after {after:.1f} s" if after is not None else ""))
    elif kind == "stopped":
        print(f"  {who}: NAN stopped, interface removed")
PY
}
last_cluster() { sed -n 's/.*"event":"clusterJoined".*"clusterID":"\([0-9a-f:]*\)".*/\1/p' "$1" | tail -n 1; }

echo "Two simulated Wi-Fi Aware (NAN) devices, A and B, each with its own radio."
echo
sim_radios 2 >/dev/null
radio_netns 0 deviceA >/dev/null
radio_netns 1 deviceB >/dev/null
echo "  device A: radio ${PHYS[0]} in its own network namespace"
echo "  device B: radio ${PHYS[1]} in its own network namespace"
echo

echo "Device A starts NAN (waware cluster start):"
start_bg A deviceA "$WAWARE" cluster start --json >/dev/null
wait_for_line "$(bg_log A)" '"event":"clusterJoined"' 30 >/dev/null
describe "$(bg_log A)" "device A"
echo
echo "Device B starts NAN and looks for a cluster to join:"
start_bg B deviceB "$WAWARE" cluster start --json >/dev/null
wait_for_line "$(bg_log B)" '"event":"clusterJoined"' 30 >/dev/null
deadline=$(($(date +%s) + 30))
while a=$(last_cluster "$(bg_log A)") b=$(last_cluster "$(bg_log B)"); [ "$a" != "$b" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.5
done
describe "$(bg_log B)" "device B"
echo
if [ "$a" = "$b" ]; then
    echo "Both devices are in NAN cluster $a: they share discovery windows and can now find each other's services."
else
    fail "the devices did not agree on a cluster: A is in ${a:-none}, B in ${b:-none} (logs in results/demo/two-devices/)"
fi
echo
stop_bg A >/dev/null
stop_bg B >/dev/null
echo "Stopping both (Ctrl-C):"
describe "$(bg_log A)" "device A" | grep stopped
describe "$(bg_log B)" "device B" | grep stopped
