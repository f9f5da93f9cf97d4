#!/bin/bash
# Discovery A/B in one VM boot (tools/discovery-ab runs it and prints the comparison): blocks of runs
# that alternate between two or more builds of waware, so the host's load falls on every build alike and
# the ratios between them mean something on a shared machine. Each block starts the two publishers
# (unsolicited _abp._tcp on radio 0, solicited-only _aba._tcp on radio 2) with one build, runs RUNS
# passive and RUNS active `subscribe --count 1` on radio 1 with a build (the same or another: a variant
# may pair an old publisher with a new subscriber), each at a random DW phase (`--delay`), then measures
# the idle passive publisher's CPU for IDLE seconds. Variants come from the file named by
# WAWARE_VM_SCENARIO_CONFIG: `LABEL<TAB>PUBLISHER_BINARY<TAB>SUBSCRIBER_BINARY` lines, then
# `runs N`, `rounds N`, `idle SECONDS`, `trace 1` lines (optional; with trace, every process runs with
# WAWARE_TRACE=1 and its trace is kept: a<LABEL><ROUND>.log for the solicited publisher, LABEL-ROUND-RUN-KIND.trace
# and .out for each subscribe, which tools/discovery-ab --segments splits into steps). Samples: $SCENARIO_OUT/samples.tsv
# (label, kind, value), kinds passive/active (seconds) and idlecpu (CPU seconds per minute).
# timeout: 3000
# default: no (a comparison tool: tools/discovery-ab runs it)
source "$(dirname "$0")/../guest/lib.sh"
config=${WAWARE_VM_SCENARIO_CONFIG:-}
[ -n "$config" ] && [ -r "$config" ] || fail "no A/B configuration (WAWARE_VM_SCENARIO_CONFIG='$config')"
labels=() pubs=() subs=()
RUNS=8 ROUNDS=2 IDLE=15 TRACE=0
while IFS=$'\t' read -r a b c; do
    case $a in
        runs) RUNS=$b ;;
        rounds) ROUNDS=$b ;;
        idle) IDLE=$b ;;
        trace) TRACE=$b ;;
        '' | '#'*) ;;
        *) [ -x "$b" ] && [ -x "$c" ] || fail "variant $a: binaries not executable ('$b', '$c')"
           labels+=("$a") pubs+=("$b") subs+=("$c") ;;
    esac
done <"$config"
[ ${#labels[@]} -ge 2 ] || fail "an A/B needs at least two variants"
cp "$config" "$SCENARIO_OUT/config.tsv"
for i in "${!labels[@]}"; do
    printf '%s\tpublisher %s (sha256 %s)\tsubscriber %s (sha256 %s)\n' "${labels[$i]}" \
        "${pubs[$i]}" "$(sha256sum "${pubs[$i]}" | cut -c1-16)" "${subs[$i]}" "$(sha256sum "${subs[$i]}" | cut -c1-16)"
done | tee "$SCENARIO_OUT/variants.tsv"

set_country US
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC
samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1; }
phase() { awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.3f", rand() * 0.524 }'; }
hz=$(getconf CLK_TCK)
sample() {
    if [[ $3 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$samples"
    else echo "variant $1: no $2 sample (got '$3'): left out"; printf '%s\tmissing-%s\t1\n' "$1" "$2" >>"$samples"; fi
}
block() {
    local label=$1 pub=$2 sub=$3 run out pid t0 t1
    step "round $round, variant $label"
    start_bg "p$label$round" dA env WAWARE_TRACE="$TRACE" "$pub" publish _abp._tcp --unsolicited --json
    wait_for_line "$(bg_log "p$label$round")" '"event":"started"' 60
    start_bg "a$label$round" dC env WAWARE_TRACE="$TRACE" "$pub" publish _aba._tcp --solicited --json
    wait_for_line "$(bg_log "a$label$round")" '"event":"started"' 60
    sleep 2
    for run in $(seq 1 "$RUNS"); do
        out=$(in_netns dB env WAWARE_TRACE="$TRACE" "$sub" subscribe _abp._tcp --delay "$(phase)" --count 1 --timeout "$(scaled 20)" --json \
            2>"$SCENARIO_OUT/$label-$round-$run-passive.trace")
        echo "$out" >"$SCENARIO_OUT/$label-$round-$run-passive.out"
        sample "$label" passive "$(echo "$out" | grep '"event":"discovered"' | field elapsed)"
        out=$(in_netns dB env WAWARE_TRACE="$TRACE" "$sub" subscribe _aba._tcp --active --delay "$(phase)" --count 1 --timeout "$(scaled 20)" --json \
            2>"$SCENARIO_OUT/$label-$round-$run-active.trace")
        echo "$out" >"$SCENARIO_OUT/$label-$round-$run-active.out"
        sample "$label" active "$(echo "$out" | grep '"event":"discovered"' | field elapsed)"
    done
    stop_bg "a$label$round"
    pid=${_BG_PIDS[p$label$round]}
    t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    sleep "$IDLE"
    t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    sample "$label" idlecpu "$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$IDLE" 'BEGIN { printf "%.3f", (b - a) / hz * 60 / s }')"
    stop_bg "p$label$round"
    echo "round $round $label: $(grep -c "^$label	" "$samples") samples so far"
}
for round in $(seq 1 "$ROUNDS"); do
    # Alternate the order each round, so neither variant always follows the other.
    if [ $((round % 2)) = 1 ]; then order=("${!labels[@]}"); else order=($(printf '%s\n' "${!labels[@]}" | tac)); fi
    for i in "${order[@]}"; do block "${labels[$i]}" "${pubs[$i]}" "${subs[$i]}"; done
done
echo "samples in $samples"
