#!/bin/bash
# Records real nl80211 messages from the 7.2 kernel for the unit tests' byte fixtures: waware writes
# every netlink message it receives into WAWARE_NL_RECORD. The files stay in the results folder
# (results/vm/nl-fixtures/list, .../cluster); copy the ones a test needs into Tests/NANSystemTests/Fixtures.
# timeout: 90
source "$(dirname "$0")/../guest/lib.sh"

# Checks that every file in DIR is one or more whole netlink messages (nlmsg_len adds up to the size).
check_messages() {
    python3 - "$1" <<'PY'
import os, struct, sys
folder = sys.argv[1]
names = sorted(n for n in os.listdir(folder) if n.endswith(".nlmsg"))
bad = []
for name in names:
    data = open(os.path.join(folder, name), "rb").read()
    i = 0
    while i + 16 <= len(data):
        length = struct.unpack_from("I", data, i)[0]
        if length < 16:
            break
        i += (length + 3) & ~3
    if i < len(data) or not data:
        bad.append(name)
print(len(names), len(bad), " ".join(bad))
PY
}

step "one radio in namespace dA"
sim_radios 1
radio_netns 0 dA

step "record: waware list (wiphy and interface dumps)"
mkdir -p "$SCENARIO_OUT/list"
in_netns dA env WAWARE_NL_RECORD="$SCENARIO_OUT/list" "$WAWARE" list || fail "waware list exited $?"
read -r count broken names <<<"$(check_messages "$SCENARIO_OUT/list")"
ls "$SCENARIO_OUT/list" | head -n 20
expect_match "messages recorded by waware list" '^[1-9][0-9]*$' "$count"
expect_eq "recorded files that are not whole netlink messages" 0 "$broken"

step "record: waware cluster start (NAN start, cluster joined event)"
mkdir -p "$SCENARIO_OUT/cluster"
start_bg devA dA env WAWARE_NL_RECORD="$SCENARIO_OUT/cluster" "$WAWARE" cluster start --json
wait_for_line "$(bg_log devA)" '"event":"clusterJoined"' 30
stop_bg devA
read -r count broken names <<<"$(check_messages "$SCENARIO_OUT/cluster")"
ls "$SCENARIO_OUT/cluster" | head -n 40
expect_match "messages recorded by waware cluster start" '^[1-9][0-9]*$' "$count"
expect_match "recorded cluster-joined event (nl80211 command 159)" '(cmd159|CLUSTER_JOINED)' "$(ls "$SCENARIO_OUT/cluster")"
expect_eq "recorded files that are not whole netlink messages" 0 "$broken"
