#!/bin/bash
# Two waware processes contend for one radio and one service: the second publisher of the same service on
# the same radio is refused at once with one clear line and a non-zero exit code; the first keeps running.
# timeout: 120
source "$(dirname "$0")/../guest/lib.sh"

step "one radio in its own namespace, a publisher on it"
sim_radios 1
radio_netns 0 dA
start_bg first dA "$WAWARE" publish _chat._tcp --json
wait_for_line "$(bg_log first)" '"event":"started"' 60

step "a second publisher of the same service on the same radio"
set +e
out=$(in_netns dA timeout "$(scaled 30)" "$WAWARE" publish _chat._tcp --json 2>&1)
rc=$?
set -e
echo "second publisher: exit $rc: $out"
expect_match "second publisher's exit code (1 failure or 12 nanAlreadyRunning, never 0 or a hang)" '^(1|12)$' "$rc"
expect_match "second publisher's one line" '^waware: .*(already|running)' "$(printf '%s\n' "$out" | tail -1)"
expect_eq "lines the second publisher printed" 1 "$(printf '%s\n' "$out" | wc -l)"
expect_running first
