#!/bin/bash
# Four services published on one radio and four subscribes on another (one process each): every
# subscribe finds exactly its own service's publish instance, and the eight instance IDs are distinct.
# timeout: 100
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
services=_a._tcp,_b._tcp,_c._tcp,_d._tcp

step "one process publishes four services"
start_bg pub dA "$WAWARE" publish "$services" --json
for s in _a._tcp _b._tcp _c._tcp _d._tcp; do
    wait_for_line "$(bg_log pub)" "\"event\":\"started\".*\"service\":\"$s\"" 30
done
expect_eq "distinct publish instances" 4 \
    "$(grep '"event":"started"' "$(bg_log pub)" | sed -n 's/.*"localInstance":\([0-9]*\).*/\1/p' | sort -u | wc -l)"

step "one process subscribes to all four (two passive services would do; all active here for speed)"
out=$(in_netns dB "$WAWARE" subscribe "$services" --active --count 1 --timeout "$(scaled 30)" --json) || fail "subscribe failed: $out"
echo "$out"
expect_eq "discoveries" 4 "$(echo "$out" | grep -c '"event":"discovered"')"
for s in _a._tcp _b._tcp _c._tcp _d._tcp; do
    want=$(grep "\"event\":\"started\".*\"service\":\"$s\"" "$(bg_log pub)" | sed -n 's/.*"localInstance":\([0-9]*\).*/\1/p')
    got=$(echo "$out" | grep "\"event\":\"discovered\".*\"service\":\"$s\"" | sed -n 's/.*"peerInstance":\([0-9]*\).*/\1/p')
    expect_eq "$s found the publish instance of $s" "$want" "$got"
done
expect_eq "distinct subscribe instances" 4 \
    "$(echo "$out" | grep '"event":"started"' | sed -n 's/.*"localInstance":\([0-9]*\).*/\1/p' | sort -u | wc -l)"
stop_bg pub
