#!/bin/bash
# `waware diagnose`: on a NAN radio every NAN check is ok and the self-test joins a cluster and times it;
# the world regulatory domain is a warning about 5 GHz that a country lifts; on a radio created without
# NAN the verdict is a clear "no NAN" failure with what to do; a report that says so still exits 0, and a
# name that is no adapter exits 10. --two-radio makes two simulated radios of its own, finds a publisher on
# one from the other and gets a follow-up answered (times in s and DW), and removes them: after a pass, after
# Ctrl-C mid-test, and says what to do when mac80211_hwsim is not loaded.
# timeout: 270
source "$(dirname "$0")/../guest/lib.sh"

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

# radio_count: how many wiphys exist now.
radio_count() { ls /sys/class/ieee80211 | wc -l; }

step "waware diagnose --two-radio: two radios of its own, publish on one, subscribe on the other"
before=$(radio_count)
out=$(ww diagnose "$phy" --two-radio --timeout "$(scaled 10)") || fail "waware diagnose --two-radio exited $?: $out"
printf '%s\n' "$out"
expect_line "the two-radio verdict" '^  ok +two-radio: two simulated radios \(phy[0-9]+ and phy[0-9]+\): discovered after [0-9]+\.[0-9]{3} s \([0-9.]+ DW\)( on [0-9]+ MHz)?(, -?[0-9]+ dBm)?, follow-up answered in [0-9]+\.[0-9]{3} s \([0-9.]+ DW\), radios removed$' "$out"
expect_eq "radios after the test (it removed its own)" "$before" "$(radio_count)"

json=$(ww diagnose "$phy" --two-radio --timeout "$(scaled 10)" --json) || fail "waware diagnose --two-radio --json exited $?: $json"
fields=$(printf '%s' "$json" | python3 -c '
import json, sys
doc = json.loads(sys.stdin.read())
t = doc["twoRadio"]
verdict = {c["name"]: c["verdict"] for c in doc["checks"]}
print(verdict["two-radio"], len(t["radios"]), t["discovered"], t["discoverySeconds"] > 0, t["discoveryWindows"] > 0,
      t["followUpRoundTripSeconds"] > 0, t["cleanedUp"], t["publisher"] != t["subscriber"], t.get("error"))
print("two-radio: discovery %.3f s = %.2f DW, follow-up round trip %.3f s = %.2f DW" % (t["discoverySeconds"],
      t["discoveryWindows"], t["followUpRoundTripSeconds"], t["followUpRoundTripWindows"]))
') || fail "waware diagnose --two-radio --json is not the expected JSON: $json"
printf '%s\n' "$fields" | tail -n 1
read -r verdict radios discovered positive windows answered cleaned distinct error <<<"$(head -n 1 <<<"$fields")"
expect_eq "two-radio verdict (JSON)" ok "$verdict"
expect_eq "radios made" 2 "$radios"
expect_eq "discovered" True "$discovered"
expect_eq "discoverySeconds > 0" True "$positive"
expect_eq "discoveryWindows > 0" True "$windows"
expect_eq "followUpRoundTripSeconds > 0" True "$answered"
expect_eq "cleanedUp" True "$cleaned"
expect_eq "two distinct NAN addresses" True "$distinct"
expect_eq "error" None "$error"
expect_eq "radios after the JSON test" "$before" "$(radio_count)"

step "Ctrl-C during the two-radio test removes what it made"
"$WAWARE" diagnose --two-radio --timeout "$(scaled 10)" >"$SCENARIO_OUT/interrupted.log" 2>&1 &
pid=$!
deadline=$(($EPOCHSECONDS + $(scaled 10)))
while [ "$(radio_count)" -lt $((before + 2)) ] && [ "$EPOCHSECONDS" -lt "$deadline" ]; do nap 0.1; done
[ "$(radio_count)" -ge $((before + 2)) ] || fail "the two-radio test made no radios within $(scaled 10) s: $(cat "$SCENARIO_OUT/interrupted.log")"
kill -INT "$pid"
deadline=$(($EPOCHSECONDS + $(scaled 20)))
while kill -0 "$pid" 2>/dev/null && [ "$EPOCHSECONDS" -lt "$deadline" ]; do nap 0.2; done
kill -0 "$pid" 2>/dev/null && fail "waware diagnose --two-radio did not end within $(scaled 20) s of SIGINT"
wait "$pid"; rc=$?
cat "$SCENARIO_OUT/interrupted.log"
expect_eq "exit status after SIGINT (the report was made)" 0 "$rc"
expect_line "the interrupted test" '^  fail +two-radio: interrupted.* — run it again and let it end' "$(cat "$SCENARIO_OUT/interrupted.log")"
expect_eq "radios after SIGINT" "$before" "$(radio_count)"

step "without mac80211_hwsim the two-radio test says how to load it"
"$WAWARE" sim remove all >/dev/null || fail "waware sim remove all failed"
rmmod mac80211_hwsim || fail "rmmod mac80211_hwsim failed"
out=$(ww diagnose --two-radio); rc=$?
printf '%s\n' "$out" | grep two-radio
expect_eq "exit status without hwsim (the report was made)" 0 "$rc"
expect_line "the no-hwsim verdict" "^  fail +two-radio: the mac80211_hwsim module is not loaded — load the simulated radios' module as root: 'modprobe mac80211_hwsim radios=0'" "$out"
modprobe mac80211_hwsim radios=0 || fail "could not load mac80211_hwsim again"
