#!/bin/bash
# Frames the discovery engine sends, captured as nl80211 delivers them (WAWARE_NL_RECORD) on both
# sides and decoded by `waware decode --nlmsgs`: every received frame must decode, and publish,
# subscribe and follow-up SDFs must all be among them. The frames are saved one per file (hex) in
# $SCENARIO_OUT/frames/ for the codec's fixtures (Tests/NANWireTests/Fixtures/captured/).
# The recordings are written to and decoded from a guest tmpfs, not from the results folder: that is
# 9p, where each of the few hundred small files costs several round trips into QEMU (580 files: decode
# 35 s there, 8 s on /run, under load; 0.16 s on the host; see docs/testing.md); kept as one tar each.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

SERVICE=_frames._tcp
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
rec=$(mktemp -d -p /run waware-frames.XXXXXX) || fail "no temporary folder under /run"
echo "recordings in $rec ($(stat -f -c %T "$rec") file system)"
mkdir -p "$rec/record-pub" "$rec/record-sub" "$SCENARIO_OUT/frames"

# The subscriber starts first and keeps sending subscribe SDFs until answered, so the publisher
# records some whatever the timing; the publisher then announces itself unsolicited and answers them.
step "active subscribe with a matching filter, sending 'ping' to what it finds"
start_bg sub dB env WAWARE_NL_RECORD="$rec/record-sub" "$WAWARE" subscribe "$SERVICE" --active \
    --match-filter 'red,*' --count 1 --send ping --messages 1 --timeout "$(scaled 60)" --json
wait_for_line "$(bg_log sub)" '"event":"started"' 30
sleep 3

step "unsolicited publish with service info and a matching filter, answering 'pong'"
start_bg pub dA env WAWARE_NL_RECORD="$rec/record-pub" "$WAWARE" publish "$SERVICE" --unsolicited --solicited \
    --info 'hello from A' --match-filter red,large --answer pong --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30

step "discovery and a follow-up each way"
wait_for_line "$(bg_log sub)" '"event":"discovered"' 40
wait_for_line "$(bg_log sub)" '"event":"message".*"info":"pong"' 40
wait_for_line "$(bg_log pub)" '"event":"message".*"info":"ping"' 10
wait_for_line "$(bg_log pub)" '"event":"sent".*"status":"acknowledged"' 10
# A few more discovery windows, so the publisher's unsolicited publishes are recorded too.
sleep 2
# The subscriber ends by itself once it has its publisher and its message (--count 1 --messages 1).
wait_bg sub 0 30
stop_bg pub
for side in pub sub; do
    tar -C "$rec" -cf "$SCENARIO_OUT/record-$side.tar" "record-$side" || fail "could not keep the $side recording"
done

step "every received frame decodes"
for side in pub sub; do
    files=$(ls "$rec/record-$side" | wc -l)
    t0=$(date +%s.%N)
    ww decode --nlmsgs "$rec/record-$side" --service "$SERVICE" >"$SCENARIO_OUT/decoded-$side.txt" 2>&1 \
        || fail "decode of the $side side's frames failed: $(tail -n 1 "$SCENARIO_OUT/decoded-$side.txt")"
    t1=$(date +%s.%N)
    ww decode --nlmsgs "$rec/record-$side" --service "$SERVICE" --json >"$SCENARIO_OUT/decoded-$side.jsonl" \
        || fail "decode --json of the $side side's frames failed"
    echo "$side received $(grep -c . "$SCENARIO_OUT/decoded-$side.jsonl") frames, all decoded ($files files, decode took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
    head -n 12 "$SCENARIO_OUT/decoded-$side.txt"
done

step "publish, subscribe and follow-up SDFs were all seen"
pub_frames=$(cat "$SCENARIO_OUT/decoded-pub.jsonl")
sub_frames=$(cat "$SCENARIO_OUT/decoded-sub.jsonl")
expect_contains "publisher received subscribes" '"serviceName":"_frames._tcp","summary":"SDA subscribe' "$pub_frames"
expect_contains "publisher received the ping follow-up" '"serviceInfo":"ping"' "$pub_frames"
expect_contains "subscriber received publishes" '"serviceName":"_frames._tcp","summary":"SDA publish' "$sub_frames"
expect_contains "publish carries its service info" '"serviceInfo":"hello from A"' "$sub_frames"
expect_contains "subscriber received the pong follow-up" '"serviceInfo":"pong"' "$sub_frames"

step "save each frame as hex, named by side and kind"
python3 - "$SCENARIO_OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
counts = {}
for side, receiver in (("pub", "publisher"), ("sub", "subscriber")):
    for line in open(os.path.join(out, f"decoded-{side}.jsonl")):
        record = json.loads(line)
        types = [a["type"] for a in record["frame"]["attributes"] if "type" in a]
        kind = "-".join(dict.fromkeys(types)) or record["frame"]["kind"].replace(" ", "-").lower()
        key = (receiver, kind)
        counts[key] = counts.get(key, 0) + 1
        name = f"{kind}-received-by-{receiver}-{counts[key]:02d}.hex"
        with open(os.path.join(out, "frames", name), "w") as f:
            f.write(record["hex"] + "\n")
for (receiver, kind), n in sorted(counts.items()):
    print(f"{receiver} received {n} {kind} frame(s)")
PY
ls "$SCENARIO_OUT/frames"
