#!/bin/bash
# The unit tests that need a real nl80211 (Tests/NANSystemTests/LiveKernelTests.swift): the package's
# test bundle, built on the host (swift build --build-tests, or swift test), runs here with
# WAWARE_LIVE_NL80211=1 against this kernel's mac80211_hwsim. Every one of them must run and pass:
# a skipped live test fails this scenario (outside the VM they are skipped, by design).
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

# The number of @Test functions in the live suite, read from its source, so a new test is counted too.
source_file=$WAWARE_REPO/Tests/NANSystemTests/LiveKernelTests.swift
expected=$(grep -cE '^[[:space:]]*@Test[ (]' "$source_file")
expect_match "live tests declared in LiveKernelTests.swift" '^[1-9][0-9]*$' "$expected"

bundle=${WAWARE_TEST_BUNDLE:-$(dirname "$WAWARE")/wawarePackageTests.xctest}
[ -x "$bundle" ] || fail "no test bundle at $bundle: build it on the host with 'swift build --build-tests' (tools/vm/run does)"
[ "$bundle" -nt "$source_file" ] || fail "the test bundle $bundle is older than $source_file: rebuild it (swift build --build-tests)"

step "run LiveKernelTests from $bundle (Swift Testing, WAWARE_LIVE_NL80211=1)"
log=$SCENARIO_OUT/swift-testing.log
# Each test adds and removes its own radios (the runner loaded hwsim with none).
NO_COLOR=1 WAWARE_LIVE_NL80211=1 timeout -k 5 "$(scaled 180)" "$bundle" --testing-library swift-testing --filter LiveKernelTests >"$log" 2>&1
rc=$?
cat "$log"
expect_eq "test bundle exit status" 0 "$rc"
summary=$(grep -E 'Test run with [0-9]+ tests?' "$log" | tail -n 1)
expect_match "Swift Testing's summary" "Test run with $expected tests? .*passed" "$summary"
expect_not_contains "skipped tests (every live test must run here)" "skipped" "$(grep -iE '(test|suite) .*skipped' "$log")"
passed=$(grep -cE 'Test [A-Za-z0-9_]+\(\) passed' "$log")
expect_eq "live tests that ran and passed" "$expected" "$passed"
