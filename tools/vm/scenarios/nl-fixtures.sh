#!/bin/bash
# Records real nl80211 messages from the 7.2 kernel for the unit tests' byte fixtures: waware writes
# every netlink message it receives into WAWARE_NL_RECORD. The files stay in the results folder
# (results/vm/nl-fixtures/list.tar, .../cluster.tar: recorded on a guest tmpfs, not on the 9p results
# folder, then kept as one tar each); copy the ones a test needs into Tests/NANSystemTests/Fixtures.
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

# Checks that every file in DIR is one or more whole netlink messages: each header's nlmsg_len is at
# least a header and fits in what is left of the file, and the messages (each padded to 4 bytes, the
# last one possibly unpadded) add up to the file's size exactly. Prints "COUNT BAD NAMES...".
check_messages() {
    python3 - "$1" <<'PY'
import os, struct, sys
folder = sys.argv[1]
names = sorted(n for n in os.listdir(folder) if n.endswith(".nlmsg"))
bad = []
for name in names:
    data = open(os.path.join(folder, name), "rb").read()
    i, whole = 0, bool(data)
    while i < len(data):
        if len(data) - i < 16:
            whole = False
            break
        length = struct.unpack_from("I", data, i)[0]
        if length < 16 or length > len(data) - i:
            whole = False
            break
        i += min((length + 3) & ~3, len(data) - i)
    if not whole:
        bad.append(name)
print(len(names), len(bad), " ".join(bad))
PY
}

step "the checker itself flags a truncated, a padded-out and an empty recording"
selftest=$(mktemp -d)
# A 20-byte message (nlmsg_len 20) cut to 18 bytes, one with 8 stray bytes after it, an empty file.
printf '\x14\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02' >"$selftest/a-truncated.nlmsg"
printf '\x14\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\xff\xff\xff\xff\xff\xff\xff\xff' >"$selftest/b-trailing.nlmsg"
: >"$selftest/c-empty.nlmsg"
printf '\x14\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04' >"$selftest/d-whole.nlmsg"
read -r count broken names <<<"$(check_messages "$selftest")"
expect_eq "files the checker flags" "a-truncated.nlmsg b-trailing.nlmsg c-empty.nlmsg" "$names"
rm -rf "$selftest"

step "one radio in namespace dA"
sim_radios 1
radio_netns 0 dA
rec=$(mktemp -d -p /run waware-nl.XXXXXX) || fail "no temporary folder under /run"

step "record: waware list (wiphy and interface dumps)"
mkdir -p "$rec/list"
in_netns dA env WAWARE_NL_RECORD="$rec/list" "$WAWARE" list || fail "waware list exited $?"
tar -C "$rec" -cf "$SCENARIO_OUT/list.tar" list || fail "could not keep the recording"
read -r count broken names <<<"$(check_messages "$rec/list")"
ls "$rec/list" | head -n 20
expect_match "messages recorded by waware list" '^[1-9][0-9]*$' "$count"
expect_eq "recorded files that are not whole netlink messages" 0 "$broken"

step "record: waware cluster start (NAN start, cluster joined event)"
mkdir -p "$rec/cluster"
start_bg devA dA env WAWARE_NL_RECORD="$rec/cluster" "$WAWARE" cluster start --json
wait_for_line "$(bg_log devA)" '"event":"clusterJoined"' 60
stop_bg devA
tar -C "$rec" -cf "$SCENARIO_OUT/cluster.tar" cluster || fail "could not keep the recording"
read -r count broken names <<<"$(check_messages "$rec/cluster")"
ls "$rec/cluster" | head -n 40
expect_match "messages recorded by waware cluster start" '^[1-9][0-9]*$' "$count"
expect_match "recorded cluster-joined event (nl80211 command 159)" '(cmd159|CLUSTER_JOINED)' "$(ls "$rec/cluster")"
expect_eq "recorded files that are not whole netlink messages" 0 "$broken"
