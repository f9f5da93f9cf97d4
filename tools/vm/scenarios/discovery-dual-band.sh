#!/bin/bash
# With the US regulatory domain (checked with `iw reg get`), NAN runs on 2.4 and 5 GHz: the engine is told
# of a DW on 2437 MHz and one on 5745 MHz in each period, and the subscriber's radio receives the
# publisher's frames on both channels (the kernel's frequency of each received frame, from a
# WAWARE_NL_RECORD recording decoded with `waware decode --nlmsgs`). Then it finds the publish.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

step "regulatory domain US (5 GHz NAN allowed)"
set_country US

step "two radios in namespaces dA and dB"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
rec=$(mktemp -d -p /run waware-dual.XXXXXX) || fail "no temporary folder under /run"

step "unsolicited publish on A, traced (WAWARE_TRACE=1: one line per DW)"
start_bg pub dA env WAWARE_TRACE=1 "$WAWARE" publish _dual._tcp --unsolicited --info both-bands --json
wait_for_line "$(bg_log pub)" '"event":"started"' 40
pub_addr=$(sed -n 's/.*"event":"started".*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)
[ -n "$pub_addr" ] || pub_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pub)" | head -n 1)
expect_match "publisher NMI address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$pub_addr"

step "a subscriber on B records what its radio receives for about 8 DW periods"
start_bg sub dB env WAWARE_NL_RECORD="$rec" "$WAWARE" subscribe _dual._tcp --json
wait_for_line "$(bg_log sub)" '"event":"started"' 40
wait_for_line "$(bg_log sub)" '"event":"discovered"' 30
expect_contains "the subscriber found the publisher" "\"peer\":\"$pub_addr\"" "$LINE"
sleep 4
expect_running pub
stop_bg sub

step "the publisher's engine was told of DWs on both bands"
dw_lines=$(grep -E '^trace .* dw [0-9]+ [0-9]+ MHz' "$(bg_log pub)")
expect_match "a 2.4 GHz DW" 'dw [0-9]+ 2437 MHz' "$dw_lines"
expect_match "a 5 GHz DW" 'dw [0-9]+ 5745 MHz' "$dw_lines"

step "B received the publisher's frames on 2437 and on 5745 MHz"
ww decode --nlmsgs "$rec" --service _dual._tcp --json >"$SCENARIO_OUT/received.jsonl" \
    || fail "decode --nlmsgs of B's recording failed: $(tail -n 2 "$SCENARIO_OUT/received.jsonl")"
tar -C "$rec" -cf "$SCENARIO_OUT/record-sub.tar" . || fail "could not keep B's recording"
frequencies=$(python3 - "$SCENARIO_OUT/received.jsonl" "$pub_addr" <<'PY'
import collections, json, sys
path, publisher = sys.argv[1:3]
counts = collections.Counter()
for line in open(path):
    record = json.loads(line)
    source = record["hex"][20:32]
    if ":".join(source[i:i + 2] for i in range(0, 12, 2)) == publisher:
        counts[record["frequency"]] += 1
print(" ".join(f"{f}:{n}" for f, n in sorted(counts.items())))
PY
)
echo "frames from the publisher by frequency: $frequencies"
expect_match "frames from the publisher at 2437 MHz" '(^| )2437:[1-9]' "$frequencies"
expect_match "frames from the publisher at 5745 MHz" '(^| )5745:[1-9]' "$frequencies"
stop_bg pub
