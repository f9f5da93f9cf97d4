#!/bin/bash
# Two waware processes contend for one radio and one service: the second publisher of the same service on
# the same radio is refused at once (the kernel answers its START_NAN with EBUSY) with one line naming the
# situation and exit 12 (nanAlreadyRunning, README); the first keeps running and is still found.
# timeout: 300
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA and dB, a publisher on radio 0"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
start_bg first dA "$WAWARE" publish _chat._tcp --info first --json
wait_for_line "$(bg_log first)" '"event":"started"' 60
first_addr=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log first)" | head -n 1)
expect_match "first publisher's NMI address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$first_addr"

step "a second publisher of the same service on the same radio"
set +e
out=$(in_netns dA timeout "$(scaled 60)" "$WAWARE" publish _chat._tcp --json 2>&1)
rc=$?
set -e
echo "second publisher: exit $rc: $out"
expect_eq "second publisher's exit code (12 nanAlreadyRunning; 124 would be a hang)" 12 "$rc"
expect_match "second publisher's one line names the situation" '^waware: .*NAN is already running on this adapter' \
    "$(printf '%s\n' "$out" | tail -1)"
expect_eq "lines the second publisher printed" 1 "$(printf '%s\n' "$out" | wc -l)"
expect_not_contains "no stack trace" 'Fatal error' "$out"

step "the first publisher is undisturbed: still running, and a subscriber on radio 1 finds it"
expect_running first
found=$(in_netns dB "$WAWARE" subscribe _chat._tcp --count 1 --timeout "$(scaled 30)" --json) \
    || fail "subscribe failed: $found"
echo "$found"
expect_contains "the first publisher found" "\"peer\":\"$first_addr\"" "$found"
expect_contains "its service info" '"info":"first"' "$found"
expect_running first
stop_bg first
