#!/bin/bash
# Temporary (branch speed, not committed): traced follow-ups and active discoveries, world domain.
# timeout: 400
# default: no
source "$(dirname "$0")/../guest/lib.sh"
set_country 00
sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC
start_bg pub dA env WAWARE_TRACE=1 "$WAWARE" publish _chat._tcp --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
start_bg puba dC env WAWARE_TRACE=1 "$WAWARE" publish _act._tcp --solicited --json
wait_for_line "$(bg_log puba)" '"event":"started"' 30
phase() { awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.3f", rand() * 0.524 }'; }
for run in 1 2 3 4 5 6; do
    in_netns dB env WAWARE_TRACE=1 "$WAWARE" subscribe _chat._tcp --delay "$(phase)" --count 1 --send "ping$run" --timeout 20 --json \
        >"$SCENARIO_OUT/sub$run.out" 2>"$SCENARIO_OUT/sub$run.trace" || true
    in_netns dB env WAWARE_TRACE=1 "$WAWARE" subscribe _act._tcp --active --delay "$(phase)" --count 1 --timeout 20 --json \
        >"$SCENARIO_OUT/act$run.out" 2>"$SCENARIO_OUT/act$run.trace" || true
    grep -h '"event":"\(sending\|sent\|discovered\)"' "$SCENARIO_OUT/sub$run.out" "$SCENARIO_OUT/act$run.out" | cut -c1-200
done
sleep 1
stop_bg pub
stop_bg puba
ls "$SCENARIO_OUT"
