#!/bin/bash
# `waware events` reports NAN interfaces coming and going, and the cluster joins of interfaces it does
# not own (one made with iw): the kernel sends an owned interface's NAN events only to its owner.
# The cluster id it prints must be the one in the kernel's message (recorded with WAWARE_NL_RECORD).
# (With iw 5.19's START_NAN, which sets no cluster id, Linux 7.2 reports cluster 00:00:00:00:00:00;
# `waware cluster start` gets a 50:6f:9a:01:xx:xx one, checked in cluster-join.)
# timeout: 120
source "$(dirname "$0")/../guest/lib.sh"

step "one radio in namespace dA, waware events watching it"
sim_radios 1
radio_netns 0 dA
mkdir -p "$SCENARIO_OUT/nl"
start_bg events dA env WAWARE_NL_RECORD="$SCENARIO_OUT/nl" "$WAWARE" events
# Printed once its socket has joined the event groups: nothing sent after this line is missed.
wait_for_line "$(bg_log events)" '^watching NAN events' 30

step "a NAN interface made with iw, NAN started with iw"
in_netns dA iw phy "${PHYS[0]}" interface add nan0 type __nan || fail "iw could not add a NAN interface"
wdev=$(in_netns dA iw dev | awk '/wdev/ { w = $2 } /type NAN/ { print w; exit }')
in_netns dA iw wdev "$wdev" nan start pref 10 || fail "iw wdev $wdev nan start failed"
wait_for_line "$(bg_log events)" "interface added on ${PHYS[0]}.*NAN" 20
wait_for_line "$(bg_log events)" 'cluster ([0-9a-f]{2}:){5}[0-9a-f]{2}: (created a new|joined an existing) cluster' 30
printed=$(printf '%s\n' "$LINE" | grep -Eo 'cluster ([0-9a-f]{2}:){5}[0-9a-f]{2}' | cut -d' ' -f2)

step "the printed cluster id is the kernel's (NL80211_ATTR_MAC of NL80211_CMD_NAN_CLUSTER_JOINED)"
kernel=$(python3 - "$SCENARIO_OUT/nl" <<'PY'
import os, struct, sys
folder = sys.argv[1]
found = ""
for name in sorted(os.listdir(folder)):
    data = open(os.path.join(folder, name), "rb").read()
    if len(data) < 20 or data[16] != 159:  # genlmsghdr.cmd
        continue
    i = 20
    while i + 4 <= len(data):
        length, kind = struct.unpack_from("HH", data, i)
        if length < 4:
            break
        if kind & 0x3FFF == 6 and length == 10:  # NL80211_ATTR_MAC
            found = ":".join(f"{b:02x}" for b in data[i + 4:i + 10])
        i += (length + 3) & ~3
print(found)
PY
)
ls "$SCENARIO_OUT/nl" | tail -n 5
expect_match "cluster id in the kernel's event" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$kernel"
expect_eq "cluster id waware events printed" "$kernel" "$printed"

step "the iw interface deleted"
in_netns dA iw wdev "$wdev" del || fail "iw wdev $wdev del failed"
wait_for_line "$(bg_log events)" "interface removed on ${PHYS[0]}" 20

step "waware events stops on SIGINT"
stop_bg events INT
cat "$(bg_log events)"
