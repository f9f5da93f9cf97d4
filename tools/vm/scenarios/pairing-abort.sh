#!/bin/bash
# A NAN pairing killed halfway leaves no half entry. Twice, with the PIN exchange paused where a user
# types the PIN (B runs `waware pair --ask-pin`, reading it from a pipe): bootstrapping is done, A shows
# its PIN and waits for PASN. (1) B is killed with SIGKILL there: A, the survivor, ends by itself with
# one `waware:` line and a nonzero exit. (2) A is killed with SIGKILL there and B is then given the PIN:
# its PASN meets nobody and B ends with one `waware:` line and a nonzero exit. After each, neither store
# holds a device (`waware devices list --json` lists none, the store file's "devices" is empty).
# timeout: 700
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
store_a="$SCENARIO_OUT/a-devices.json"
store_b="$SCENARIO_OUT/b-devices.json"
limit=$(scaled 45)
# A survivor whose peer vanished after bootstrapping waits out its own --timeout: in (1) A's is short (the
# bootstrapping before the kill takes about 8 s), so the scenario does not spend minutes waiting for it.
survivor_limit=$(scaled 15)

# Number of devices in store FILE (0 when there is no file yet; the own identity key is not a device).
store_devices() {
    python3 -c 'import json,os,sys; p=sys.argv[1]; print(len(json.load(open(p)).get("devices", [])) if os.path.exists(p) else 0)' "$1"
}

# expect_no_devices WHEN: both stores hold no device, by the CLI's JSON and by the file.
expect_no_devices() {
    local side file
    for side in a b; do
        file="$SCENARIO_OUT/$side-devices.json"
        expect_eq "$1: $side's devices list --json holds no device" 0 \
            "$("$WAWARE" devices list --json --store "$file" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["devices"]))')"
        expect_eq "$1: $side's store file holds no device" 0 "$(store_devices "$file")"
    done
}

# expect_one_error_line NAME: the process's log ends with exactly one `waware:` line, and has no other.
expect_one_error_line() {
    local log
    log=$(cat "$(bg_log "$1")")
    expect_eq "$1 printed one waware: error line" 1 "$(grep -c '^waware: ' <<<"$log")"
    expect_match "$1's last line is that error" '^waware: ' "$(tail -n 1 <<<"$log")"
    echo "$1 said: $(grep '^waware: ' <<<"$log")"
}

# wait_failure NAME SECONDS: the process ends by itself (within SECONDS, scaled) with a failure exit (1-127).
wait_failure() {
    local name=$1 pid=${_BG_PIDS[$1]:-} deadline rc
    [ -n "$pid" ] || fail "no background process named $name"
    deadline=$(($EPOCHSECONDS + $(scaled "$2")))
    while kill -0 "$pid" 2>/dev/null; do
        [ "$EPOCHSECONDS" -lt "$deadline" ] || { _bg_tail "$name"; fail "$name did not end by itself within $(scaled "$2")s"; }
        nap 0.5
    done
    wait "$pid" 2>/dev/null
    rc=$?
    unset "_BG_PIDS[$name]"
    echo "$name ended by itself (exit $rc)"
    { [ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]; } || { _bg_tail "$name"; fail "$name ended with exit $rc, expected a failure (1-127)"; }
}

# start_asking NAME: B pairs with --ask-pin, its standard input a pipe the scenario holds open on fd 7 (on a
# guest tmpfs: the results folder is 9p, which has no FIFOs).
fifo_dir=$(mktemp -d -p /run)
start_asking() {
    local fifo=$fifo_dir/$1
    mkfifo "$fifo" || fail "cannot make the pipe $fifo for B's standard input"
    exec 7<>"$fifo"
    start_bg "$1" dB bash -c 'exec "$@" <"$0"' "$fifo" "$WAWARE" pair --ask-pin --name A --store "$store_b" --timeout "$limit"
}

step "1. A shows a PIN; B bootstraps and waits for the PIN to be typed"
start_bg pairA dA "$WAWARE" pair --store "$store_a" --name B --timeout "$survivor_limit"
wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' 60
start_asking pairB
wait_for_line "$(bg_log pairB)" 'type the PIN' 120
wait_for_line "$(bg_log pairA)" 'bootstrapped with' 60

step "1. B is killed halfway (SIGKILL); A ends by itself with an error"
stop_bg pairB KILL
exec 7>&-
wait_failure pairA 30
expect_one_error_line pairA
expect_no_devices "after B was killed"

step "2. again; this time A is killed halfway and B is given the PIN"
start_bg pairA2 dA "$WAWARE" pair --store "$store_a" --name B --timeout "$limit"
wait_for_line "$(bg_log pairA2)" '^PIN [0-9]{6}' 60
pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA2)" | head -n 1)
start_asking pairB2
wait_for_line "$(bg_log pairB2)" 'type the PIN' 120
wait_for_line "$(bg_log pairA2)" 'bootstrapped with' 60
stop_bg pairA2 KILL
echo "$pin" >&7
wait_failure pairB2 75
exec 7>&-
expect_one_error_line pairB2
expect_no_devices "after A was killed"
