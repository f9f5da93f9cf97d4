#!/bin/bash
# Discovery and NDP-setup A/B in one VM boot (tools/discovery-ab runs it and prints the comparison): blocks
# of runs that alternate between two or more builds of waware, so the host's load falls on every build
# alike and the ratios between them mean something on a shared machine. A block has one build as the
# publishers and one (the same or another: a variant may pair an old publisher with a new subscriber) as
# the subscriber on radio 1, and runs the kinds asked for:
#  - discovery: the two publishers (unsolicited _abp._tcp on radio 0, solicited-only _aba._tcp on radio 2),
#    RUNS passive and RUNS active `subscribe --count 1`, each at a random DW phase (`--delay`), then the
#    idle passive publisher's CPU for IDLE seconds;
#  - ndp: a publisher accepting data paths on radio 0 (_abn._tcp), RUNS open then RUNS NCS-SK-128
#    (passphrase) `subscribe --count 1 --data-path`, each timed by ndp_setup (tools/vm/guest/lib.sh: B's
#    Data Path Request leaving to both sides' data-path-up), each subscriber ended before the next (before
#    round 1, one setup of each kind with the first variant, not counted: the warm-up below).
# Variants come from the file named by WAWARE_VM_SCENARIO_CONFIG: `LABEL<TAB>PUBLISHER_BINARY<TAB>SUBSCRIBER_BINARY`
# lines, then `runs N`, `rounds N`, `idle SECONDS`, `kinds discovery,ndp` (default discovery), `domain world` (default
# US: DWs on 2.4 and 5 GHz; world, the domain 00, allows 2.4 GHz DWs only), `trace 1` lines
# (optional; with trace, every discovery process runs with WAWARE_TRACE=1 and its trace is kept:
# a<LABEL><ROUND>.log for the solicited publisher, LABEL-ROUND-RUN-KIND.trace and .out for each subscribe, which
# tools/discovery-ab --trace splits into steps; each NDP subscriber's log, traced, is LABEL-ROUND-RUN-KIND.log).
# Samples: $SCENARIO_OUT/samples.tsv (label, kind, value), kinds passive/active, ndp-open/ndp-sk (seconds) and
# idlecpu (CPU seconds per minute); a setup that failed is a `missing-KIND` line, never a value.
# timeout: 3000
# default: no (a comparison tool: tools/discovery-ab runs it)
source "$(dirname "$0")/../guest/lib.sh"
config=${WAWARE_VM_SCENARIO_CONFIG:-}
[ -n "$config" ] && [ -r "$config" ] || fail "no A/B configuration (WAWARE_VM_SCENARIO_CONFIG='$config')"
labels=() pubs=() subs=()
RUNS=8 ROUNDS=2 IDLE=15 TRACE=0 KINDS=discovery DOMAIN=US
while IFS=$'\t' read -r a b c; do
    case $a in
        runs) RUNS=$b ;;
        rounds) ROUNDS=$b ;;
        idle) IDLE=$b ;;
        trace) TRACE=$b ;;
        kinds) KINDS=$b ;;
        domain) DOMAIN=$b ;;
        '' | '#'*) ;;
        *) [ -x "$b" ] && [ -x "$c" ] || fail "variant $a: binaries not executable ('$b', '$c')"
           labels+=("$a") pubs+=("$b") subs+=("$c") ;;
    esac
done <"$config"
[ ${#labels[@]} -ge 2 ] || fail "an A/B needs at least two variants"
[[ $KINDS =~ ^(discovery|ndp)(,(discovery|ndp))?$ ]] || fail "kinds: '$KINDS' is not discovery, ndp or both"
[[ $DOMAIN =~ ^(US|world)$ ]] || fail "domain: '$DOMAIN' is not US or world"
cp "$config" "$SCENARIO_OUT/config.tsv"
for i in "${!labels[@]}"; do
    printf '%s\tpublisher %s (sha256 %s)\tsubscriber %s (sha256 %s)\n' "${labels[$i]}" \
        "${pubs[$i]}" "$(sha256sum "${pubs[$i]}" | cut -c1-16)" "${subs[$i]}" "$(sha256sum "${subs[$i]}" | cut -c1-16)"
done | tee "$SCENARIO_OUT/variants.tsv"

if [ "$DOMAIN" = world ]; then set_country 00; else set_country US; fi
iw reg get >"$SCENARIO_OUT/reg.txt"
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
discovery() {
    local label=$1 pub=$2 sub=$3 run out pid t0 t1
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
}
ndp() {
    local label=$1 pub=$2 sub=$3 kind run name security one
    for kind in ndp-open ndp-sk; do
        if [ "$kind" = ndp-open ]; then security=(--open); else security=(--passphrase waware-ab); fi
        name=$label-$round-$kind-publisher
        start_bg "$name" dA "$pub" publish _abn._tcp --accept-data-paths "${security[@]}" --json
        wait_for_line "$(bg_log "$name")" '"event":"started"' 60
        for run in $(seq 1 "$RUNS"); do
            one=$label-$round-$run-$kind
            if ndp_setup "$name" "$one" env WAWARE_TRACE=1 "$sub" subscribe _abn._tcp --count 1 --data-path "${security[@]}" --json; then
                sample "$label" "$kind" "$NDP_SETUP"
                ndp_end "$name" "$one"
            else
                # Left out (a missing-KIND line); the subscriber may have ended by itself, with any status.
                sample "$label" "$kind" "$LINE"
                kill -INT "${_BG_PIDS[$one]}" 2>/dev/null
                wait "${_BG_PIDS[$one]}" 2>/dev/null
                unset "_BG_PIDS[$one]"
                sleep 2
            fi
        done
        stop_bg "$name" INT
    done
}
block() {
    step "round $round, variant $1"
    [[ ,$KINDS, == *,discovery,* ]] && discovery "$@"
    [[ ,$KINDS, == *,ndp,* ]] && ndp "$@"
    echo "round $round $1: $(grep -c "^$1	" "$samples") samples so far"
}
# The boot's first NCS-SK-128 setup spends seconds between adding the peer's NDI station and its key being in
# (12.3 s and 8.0 s in two boots on 2026-12-05; every later one 0.01-0.53 s), a cost that would fall on the
# first variant alone: one setup of each kind first, with that variant, not counted.
if [[ ,$KINDS, == *,ndp,* ]]; then
    step "warm-up: one open and one NCS-SK-128 data path with variant ${labels[0]}, not counted"
    RUNS=1 round=0 samples=/dev/null ndp "${labels[0]}" "${pubs[0]}" "${subs[0]}"
fi
for round in $(seq 1 "$ROUNDS"); do
    # Alternate the order each round, so neither variant always follows the other.
    if [ $((round % 2)) = 1 ]; then order=("${!labels[@]}"); else order=($(printf '%s\n' "${!labels[@]}" | tac)); fi
    for i in "${order[@]}"; do block "${labels[$i]}" "${pubs[$i]}" "${subs[$i]}"; done
done
echo "samples in $samples"
