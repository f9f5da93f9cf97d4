#!/bin/bash
# The fallback to 2.4 GHz: in the world regulatory domain (checked with `iw reg get`) the kernel refuses
# to start NAN on 5 GHz although the radio supports both bands. The engine's first START_NAN (2.4 + 5
# GHz) is refused, it starts again on 2.4 GHz alone, and discovery works there: every DW and every frame
# is on 2437 MHz. The refusal and the second start are read from the netlink replies waware recorded
# (WAWARE_NL_RECORD), so a start that never asked for 5 GHz does not pass.
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

step "regulatory domain world (00): no initiating on 5 GHz"
set_country 00

step "two radios in namespaces dA and dB; the radio offers 2.4 and 5 GHz NAN"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
expect_match "NAN bands of ${PHYS[0]}" '"bands":\[[^]]*5' "$(in_netns dA timeout "$(scaled 30)" "$WAWARE" list --json)"
rec=$(mktemp -d -p /run waware-fallback.XXXXXX) || fail "no temporary folder under /run"

step "publish on A (recorded, traced), subscribe on B"
start_bg pub dA env WAWARE_NL_RECORD="$rec" WAWARE_TRACE=1 "$WAWARE" publish _fallback._tcp --unsolicited --info on-2.4 --json
wait_for_line "$(bg_log pub)" '"event":"started"' 40
out=$(in_netns dB "$WAWARE" subscribe _fallback._tcp --count 1 --timeout "$(scaled 30)" --json 2>&1) || fail "subscribe failed: $out"
echo "$out"
found=$(echo "$out" | grep '"event":"discovered"')
expect_contains "found, in the 2.4 GHz DW" '"frequency":2437' "$found"
sleep 2
expect_running pub
stop_bg pub

step "the first START_NAN was refused and the second, on 2.4 GHz alone, accepted"
starts=$(python3 - "$rec" <<'PY'
import os, struct, sys
folder = sys.argv[1]
results = []
for name in sorted(os.listdir(folder)):
    if "START_NAN" not in name:
        continue
    data = open(os.path.join(folder, name), "rb").read()
    if len(data) >= 20 and struct.unpack_from("H", data, 4)[0] == 2:  # NLMSG_ERROR
        results.append(str(struct.unpack_from("i", data, 16)[0]))
print(" ".join(results))
PY
)
ls "$rec" | grep -i start || true
echo "START_NAN replies (0 = accepted, -errno = refused): $starts"
expect_match "a refused START_NAN, then an accepted one" '^-[0-9]+ 0$' "$starts"

step "every DW the engine was told of is on 2437 MHz"
dw_lines=$(grep -E '^trace .* dw [0-9]+ [0-9]+ MHz' "$(bg_log pub)")
expect_match "2.4 GHz DWs" 'dw [0-9]+ 2437 MHz' "$dw_lines"
expect_not_contains "no 5 GHz DW" "5745 MHz" "$dw_lines"
