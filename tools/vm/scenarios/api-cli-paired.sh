#!/bin/bash
# waware publish and subscribe run through the WiFiAware API: on C, `subscribe --paired` and `--device NAME`
# report only the paired publisher A (with its device name) and never B, which an unrestricted subscribe
# hears; an unknown device name fails on one line; one process cannot publish one service twice.
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

state=$(mktemp -d)

step "three radios in namespaces dA, dB, dC"
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "A and B publish _chat._tcp"
start_bg pubA dA "$WAWARE" publish _chat._tcp --unsolicited --info from-a --json
start_bg pubB dB "$WAWARE" publish _chat._tcp --unsolicited --info from-b --json
wait_for_line "$(bg_log pubA)" '"event":"started"' 40
wait_for_line "$(bg_log pubB)" '"event":"started"' 40
addrA=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pubA)" | head -n 1)
addrB=$(sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p' "$(bg_log pubB)" | head -n 1)
expect_match "A's NAN address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addrA"
expect_match "B's NAN address" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' "$addrB"

step "control: C without a selection finds both"
out=$(in_netns dC env WAWARE_STATE_DIR="$state" "$WAWARE" subscribe _chat._tcp --count 2 --timeout "$(scaled 40)" --json) \
    || fail "subscribe failed: $out"
echo "$out"
expect_contains "A found" "\"peer\":\"$addrA\"" "$(echo "$out" | grep '"event":"discovered"')"
expect_contains "B found" "\"peer\":\"$addrB\"" "$(echo "$out" | grep '"event":"discovered"')"

step "C pairs A as Alpha; --paired reports A only, named"
in_netns dC env WAWARE_STATE_DIR="$state" "$WAWARE" devices add "$addrA" Alpha || fail "devices add failed"
out=$(in_netns dC env WAWARE_STATE_DIR="$state" "$WAWARE" subscribe _chat._tcp --paired --timeout "$(scaled 5)" --json) \
    || fail "paired subscribe failed: $out"
echo "$out"
found=$(echo "$out" | grep '"event":"discovered"')
expect_contains "A found" "\"peer\":\"$addrA\"" "$found"
expect_contains "A named" '"device":"Alpha"' "$found"
expect_contains "A's info" '"info":"from-a"' "$found"
expect_not_contains "B never reported" "$addrB" "$out"

step "--device Alpha does the same"
out=$(in_netns dC env WAWARE_STATE_DIR="$state" "$WAWARE" subscribe _chat._tcp --device Alpha --count 1 --timeout "$(scaled 30)" --json) \
    || fail "subscribe --device failed: $out"
expect_contains "A found by name" "\"peer\":\"$addrA\"" "$(echo "$out" | grep '"event":"discovered"')"
expect_not_contains "B never reported" "$addrB" "$out"

step "an unknown device name fails on one line"
err=$(in_netns dC env WAWARE_STATE_DIR="$state" "$WAWARE" subscribe _chat._tcp --device Nobody --timeout "$(scaled 5)" 2>&1 >/dev/null)
rc=$?
expect_eq "exit status" 1 "$rc"
expect_eq "one line" 1 "$(echo "$err" | grep -c .)"
expect_contains "names the device" "'Nobody'" "$err"

step "one process publishing _dup._tcp twice: serviceAlreadyPublishing"
err=$(in_netns dC "$WAWARE" publish _dup._tcp,_dup._tcp --ttl 10 2>&1 >/dev/null)
rc=$?
expect_eq "exit status" 1 "$rc"
expect_contains "refused" "_dup._tcp is already published on" "$err"

stop_bg pubA
stop_bg pubB
