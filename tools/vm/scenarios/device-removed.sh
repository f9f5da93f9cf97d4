#!/bin/bash
# The radio of a running publisher is deleted: the publisher says the adapter went away in one line and exits
# 13 (deviceRemoved); the subscriber that had found it reports it lost within --lost-after DW periods.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

step "two radios, each in its own network namespace"
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

step "publisher on A, subscriber on B (lost after 8 DW periods, about 4 s)"
start_bg pub dA "$WAWARE" publish _chat._tcp --info hello --json
start_bg sub dB "$WAWARE" subscribe _chat._tcp --json --lost-after 8
wait_for_line "$(bg_log sub)" '"event":"discovered"' 60

step "delete A's radio while the publisher runs"
in_netns dA "$WAWARE" sim remove "${PHYS[0]}" || fail "sim remove ${PHYS[0]} failed"
wait_bg pub 13 30
expect_match "publisher's last line" 'waware: .*went away' "$(tail -1 "$(bg_log pub)")"
expect_not_contains "publisher's output" '"reason":"error"' "$(cat "$(bg_log pub)")"

step "the subscriber reports the publisher lost"
wait_for_line "$(bg_log sub)" '"event":"lost"' 30
expect_running sub
