#!/bin/bash
# `waware diagnose`: on a NAN radio every NAN check is ok and the self-test joins a cluster and times it;
# the world regulatory domain is a warning about 5 GHz that a country lifts; on a radio created without
# NAN the verdict is a clear "no NAN" failure with what to do; a report that says so still exits 0, and a
# name that is no adapter exits 10.
# timeout: 150
source "$(dirname "$0")/../guest/lib.sh"

# expect_line WHAT REGEX TEXT: some line of TEXT matches REGEX (ERE, ^ and $ anchor to the line).
expect_line() {
    local found
    found=$(grep -E -m1 -- "$2" <<<"$3")
    expect_match "$1" "$2" "${found:-$3}"
}

step "one NAN radio"
sim_radios 1
phy=${PHYS[0]}

step "waware diagnose $phy (world regulatory domain)"
out=$(ww diagnose "$phy") || fail "waware diagnose $phy exited $?: $out"
printf '%s\n' "$out"
expect_line "the kernel line" '^  ok +kernel: Linux [0-9]' "$out"
expect_line "the nan verdict" "^  ok +nan: user-space discovery engine, 2\.4\+5 GHz" "$out"
expect_line "the data path verdict" '^  ok +data path: NAN_DATA interfaces' "$out"
expect_line "channel 6" '^  ok +channel 6: 2437 MHz: enabled' "$out"
expect_line "the world domain" "^  warning +regulatory: regulatory domain is world \(00\): 5 GHz NAN channels are not allowed — set a country with 'iw reg set XX'" "$out"
expect_line "the driver" '^  ok +driver: mac80211_hwsim' "$out"
expect_line "the firmware (ethtool on the radio's netdev)" '^  ok +firmware: ' "$out"
expect_line "rfkill" '^  (ok +rfkill: |fail +rfkill: )' "$out"
expect_line "the summary" '^summary: [0-9]+ ok, [0-9]+ warnings?, 0 failures$' "$out"

step "a country allows the 5 GHz NAN channels"
set_country US
out=$(ww diagnose "$phy") || fail "waware diagnose $phy exited $?: $out"
printf '%s\n' "$out" | grep -E 'regulatory|channel'
expect_line "the US domain" '^  ok +regulatory: country US' "$out"
expect_line "channel 149" '^  ok +channel 149: 5745 MHz: enabled' "$out"

step "waware diagnose $phy --self-test --json"
json=$(ww diagnose "$phy" --self-test --timeout "$(scaled 10)" --json) || fail "waware diagnose --self-test exited $?: $json"
printf '%s\n' "$json"
fields=$(printf '%s' "$json" | python3 -c '
import json, sys
doc = json.loads(sys.stdin.read())
a = doc["adapters"][0]
verdict = {c["name"]: c["verdict"] for c in a["checks"]}
t = a["selfTest"]
print(len(doc["adapters"]), a["phy"], verdict["nan"], verdict["self-test"], t["joined"], t["joinSeconds"] > 0, t["clusterID"][:11],
      a["firmware"]["interface"] != "", doc["summary"]["failures"])
') || fail "waware diagnose --json is not the expected JSON (above)"
read -r count seen nan selftest joined positive cluster netdev failures <<<"$fields"
expect_eq "adapters examined" 1 "$count"
expect_eq "the adapter" "$phy" "$seen"
expect_eq "nan verdict" ok "$nan"
expect_eq "self-test verdict" ok "$selftest"
expect_eq "selfTest.joined" True "$joined"
expect_eq "selfTest.joinSeconds > 0" True "$positive"
expect_eq "selfTest.clusterID prefix" "50:6f:9a:01" "$cluster"
expect_eq "firmware asked on a netdev" True "$netdev"
expect_eq "failures" 0 "$failures"
left=$(ww info "$phy" --json | python3 -c 'import json, sys; print(sum(1 for i in json.load(sys.stdin)["interfaces"] if i["type"] == "NAN"))')
expect_eq "NAN interfaces left after the self-test" 0 "$left"

step "a radio created without NAN"
before=$(ls /sys/class/ieee80211)
"$WAWARE" sim add --no-nan || fail "waware sim add --no-nan failed"
plain=$(comm -13 <(printf '%s\n' $before | sort) <(ls /sys/class/ieee80211 | sort) | head -n1)
[ -n "$plain" ] || fail "no new radio after sim add --no-nan"
out=$(ww diagnose "$plain"); rc=$?
printf '%s\n' "$out"
expect_eq "exit status of a report that finds no NAN" 0 "$rc"
expect_line "the no-NAN verdict" "^  fail +nan: no NAN: .* — this driver cannot run NAN: use an adapter whose driver offers it" "$out"
expect_line "the data path verdict" '^  fail +data path: no NAN, so no NAN data path' "$out"
self=$(ww diagnose "$plain" --self-test --json); rc=$?
expect_eq "exit status of --self-test on it" 0 "$rc"
expect_contains "its self-test" '"error":"not run: '"$plain"' has no NAN"' "$self"

step "every adapter without a name; a name that is no adapter"
all=$(ww diagnose --json) || fail "waware diagnose --json exited $?"
expect_eq "adapters in the report" 2 "$(printf '%s' "$all" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["adapters"]))')"
ww diagnose nosuchphy >/dev/null 2>"$SCENARIO_OUT/nosuch.err"; rc=$?
expect_eq "exit status for an unknown adapter" 10 "$rc"
expect_contains "its message" "no adapter 'nosuchphy'" "$(cat "$SCENARIO_OUT/nosuch.err")"
