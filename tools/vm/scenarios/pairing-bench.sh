#!/bin/bash
# Pairing benchmark (tools/pairing-bench runs it and prints the figures). RUNS PIN pairings between A and B,
# each with fresh stores and fresh processes on both sides (new random NMIs), timed on B, the initiating side,
# from its bootstrapping request ("bootstrapping with": the request goes out) to "paired" (PASN done, NIKs
# exchanged, the pairing stored). Then RUNS verifications of the last pairing (fresh processes, no PIN),
# timed on B from "verifying it with the stored key" (A's NIRA resolved) to "verified". B's output lines are
# stamped as they arrive (bash's EPOCHREALTIME, no process per line). Samples: $SCENARIO_OUT/samples.tsv
# (pairing|verification, seconds); what they were measured with: $SCENARIO_OUT/meta.tsv.
# default: no
# timeout: 3000
source "$(dirname "$0")/../guest/lib.sh"

load_settings PAIRING_BENCH_RUNS
RUNS=${PAIRING_BENCH_RUNS:-5}
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || fail "PAIRING_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 999"
echo "settings: $RUNS runs"
samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
work=$(mktemp -d -p /run)

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

# stamp: each line of standard input with the time it arrived (seconds since the epoch) in front.
stamp() {
    local line
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done
}

# between FILE FROM TO: seconds from the first line matching FROM to the first matching TO in a stamped FILE.
between() {
    awk -v from="$2" -v to="$3" '
        a == "" && index($0, from) { a = $1 }
        a != "" && b == "" && index($0, to) { b = $1 }
        END { if (a == "" || b == "") exit 1; printf "%.3f\n", b - a }' "$1"
}

# accept_side NAME STORE: A shows a PIN (and answers a verification by itself); its PIN is left in $pin.
accept_side() {
    start_bg "$1" dA "$WAWARE" pair --store "$2" --name B --timeout "$(scaled 120)"
    wait_for_line "$(bg_log "$1")" '^PIN [0-9]{6}' 60
    pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log "$1")" | head -n 1)
}

for run in $(seq 1 "$RUNS"); do
    step "pairing $run of $RUNS"
    accept_side "pairA$run" "$work/a$run.json"
    log=$SCENARIO_OUT/pair-b$run.log
    in_netns dB "$WAWARE" pair --pin "$pin" --name A --store "$work/b$run.json" --timeout "$(scaled 120)" 2>&1 | stamp >"$log"
    [ "${PIPESTATUS[0]}" = 0 ] || { cat "$log"; fail "pairing $run failed"; }
    wait_bg "pairA$run" 0 60
    seconds=$(between "$log" 'bootstrapping with' 'paired A') || { cat "$log"; fail "pairing $run: no bootstrapping or paired line"; }
    printf 'pairing\t%s\n' "$seconds" >>"$samples"
    echo "pairing $run: $seconds s"
done

last=$RUNS
for run in $(seq 1 "$RUNS"); do
    step "verification $run of $RUNS"
    accept_side "verifyA$run" "$work/a$last.json"
    log=$SCENARIO_OUT/verify-b$run.log
    in_netns dB "$WAWARE" pair --find --store "$work/b$last.json" --timeout "$(scaled 120)" 2>&1 | stamp >"$log"
    [ "${PIPESTATUS[0]}" = 0 ] || { cat "$log"; fail "verification $run failed"; }
    wait_bg "verifyA$run" 0 60
    seconds=$(between "$log" 'verifying it with the stored key' 'verified A') || { cat "$log"; fail "verification $run: no verifying or verified line"; }
    printf 'verification\t%s\n' "$seconds" >>"$samples"
    echo "verification $run: $seconds s"
done

{
    printf 'binary\t%s\n' "$WAWARE"
    printf 'binary_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'kernel\t%s\n' "$(uname -r)"
    printf 'runs\t%s\n' "$RUNS"
    printf 'guest_cpus\t%s\n' "$(nproc)"
} | tee -a "$SCENARIO_OUT/meta.tsv"
cat "$samples"
