#!/bin/bash
# Pairing benchmark (tools/pairing-bench runs it and prints the figures). RUNS PIN pairings between A and B,
# each with fresh stores and fresh processes on both sides (new random NMIs), timed from B's bootstrapping
# request ("bootstrapping with": the request goes out; B initiates) to the later of the two sides' "paired"
# (PASN done, NIKs exchanged, the pairing stored): both sides since 2026-12-06 (issue 26; B's alone before).
# Then RUNS verifications of the last pairing (fresh processes, no PIN), timed on B from "verifying it with the
# stored key" (A's NIRA resolved) to "verified". Both sides' output lines are stamped as they arrive (bash's
# EPOCHREALTIME, no process per line). Samples: $SCENARIO_OUT/samples.tsv (pairing|verification, seconds);
# what they were measured with: $SCENARIO_OUT/meta.tsv.
# With PAIRING_BENCH_REFERENCE=1, RUNS PIN pairings follow between two wpa_supplicant 2.12 instances (the
# reference stack; P publishes with PIN display in dC, Q finds it in dD): from Q's NAN_BOOTSTRAP (PIN keypad)
# to both NAN-PAIRING-STATUS status=success (SAE, CCMP), as ref_pairing samples. The scenario plays both users
# at once: P authorises the bootstrapping as soon as it is asked, and arms its PASN responder with the PIN
# before Q starts PASN, as hostap's own tests do. Every instant is the -t stamp of the line in wpa_supplicant's
# -dd log. The reference's NIK exchange is not asked for (no NAN_SET nik), waware's is part of "paired".
# With PAIRING_BENCH_TRACE=1 both sides of every verification run with WAWARE_TRACE=1 (their trace lines
# stamped in verifyA*.log and verify-b*.log), to see where a verification's time goes.
# default: no
# timeout: 3000
source "$(dirname "$0")/../guest/lib.sh"

load_settings PAIRING_BENCH_RUNS PAIRING_BENCH_REFERENCE PAIRING_BENCH_TRACE
RUNS=${PAIRING_BENCH_RUNS:-5}
REFERENCE=${PAIRING_BENCH_REFERENCE:-0}
TRACE=${PAIRING_BENCH_TRACE:-0}
[ "$REFERENCE" = 1 ] && source "$(dirname "$0")/../guest/wpas.sh"
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || fail "PAIRING_BENCH_RUNS: '$RUNS' is not a number of runs from 1 to 999"
echo "settings: $RUNS runs"
samples=$SCENARIO_OUT/samples.tsv
: >"$samples"
work=$(mktemp -d -p /run)

if [ "$REFERENCE" = 1 ]; then sim_radios 4; else sim_radios 2; fi
radio_netns 0 dA
radio_netns 1 dB
if [ "$REFERENCE" = 1 ]; then radio_netns 2 dC; radio_netns 3 dD; fi

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

# accept_side NAME STORE [TRACE]: A shows a PIN (and answers a verification by itself); its PIN is left in $pin.
# A's output lines are stamped like B's.
accept_side() {
    # shellcheck disable=SC2016
    start_bg "$1" dA env WAWARE_TRACE="${3:-0}" bash -c 'set -o pipefail; "$@" 2>&1 | while IFS= read -r l; do printf "%s %s\n" "$EPOCHREALTIME" "$l"; done' \
        stamp "$WAWARE" pair --store "$2" --name B --timeout "$(scaled 120)"
    wait_for_line "$(bg_log "$1")" '^[0-9.]+ PIN [0-9]{6}' 60
    pin=$(sed -n 's/^[0-9.]* PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log "$1")" | head -n 1)
}

for run in $(seq 1 "$RUNS"); do
    step "pairing $run of $RUNS"
    accept_side "pairA$run" "$work/a$run.json"
    log=$SCENARIO_OUT/pair-b$run.log
    in_netns dB "$WAWARE" pair --pin "$pin" --name A --store "$work/b$run.json" --timeout "$(scaled 120)" 2>&1 | stamp >"$log"
    [ "${PIPESTATUS[0]}" = 0 ] || { cat "$log"; fail "pairing $run failed"; }
    wait_bg "pairA$run" 0 60
    seconds=$(between "$log" 'bootstrapping with' 'paired A') || { cat "$log"; fail "pairing $run: no bootstrapping or paired line"; }
    # A's "paired B" may come later than B's "paired A": the later one ends the sample.
    started=$(grep -m 1 'bootstrapping with' "$log" | cut -d' ' -f1)
    a_paired=$(grep -m 1 ' paired B' "$(bg_log "pairA$run")" | cut -d' ' -f1)
    [ -n "$a_paired" ] || { cat "$(bg_log "pairA$run")"; fail "pairing $run: A has no paired line"; }
    seconds=$(awk -v s="$seconds" -v a="$started" -v b="$a_paired" 'BEGIN { d = b - a; printf "%.3f\n", (d > s ? d : s) }')
    printf 'pairing\t%s\n' "$seconds" >>"$samples"
    echo "pairing $run: $seconds s (both sides)"
done

last=$RUNS
for run in $(seq 1 "$RUNS"); do
    step "verification $run of $RUNS"
    accept_side "verifyA$run" "$work/a$last.json" "$TRACE"
    log=$SCENARIO_OUT/verify-b$run.log
    in_netns dB env WAWARE_TRACE="$TRACE" "$WAWARE" pair --find --store "$work/b$last.json" --timeout "$(scaled 120)" 2>&1 | stamp >"$log"
    [ "${PIPESTATUS[0]}" = 0 ] || { cat "$log"; fail "verification $run failed"; }
    wait_bg "verifyA$run" 0 60
    seconds=$(between "$log" 'verifying it with the stored key' 'verified A') || { cat "$log"; fail "verification $run: no verifying or verified line"; }
    printf 'verification\t%s\n' "$seconds" >>"$samples"
    echo "verification $run: $seconds s"
done

if [ "$REFERENCE" = 1 ]; then
    step "reference: wpa_supplicant P (publishes, PIN display) in dC, Q (PIN keypad) in dD, 2.4 GHz DWs"
    WPAS_DUAL_BAND=0
    wpas_start P dC 2 "2437:0e000000"
    wpas_start Q dD 3 "2437:0e000000"
    nmiP=${WPAS_NMI[P]} nmiQ=${WPAS_NMI[Q]}
    refpin=135790
    for run in $(seq 1 "$RUNS"); do
        step "reference pairing $run of $RUNS"
        wpas_mark P
        wpas_mark Q
        pid=$(wpas P NAN_PUBLISH service_name=_wpbench._udp sync=1 pbm=0x0002 ttl=900)
        sid=$(wpas Q NAN_SUBSCRIBE service_name=_wpbench._udp sync=1)
        wpas_wait Q "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiP" 60
        pubinst=$(wpas_field "$LINE" publish_id)
        sent=$(date +%s.%N)
        wpas Q NAN_BOOTSTRAP "$nmiP" handle="$sid" req_instance_id="$pubinst" method=32 >/dev/null
        wpas_wait P "NAN-BOOTSTRAP-REQUEST .*peer_nmi=$nmiQ" 60
        inst=$(wpas_field "$LINE" requestor_instance_id)
        wpas P NAN_BOOTSTRAP "$nmiQ" handle="$pid" req_instance_id="$inst" method=2 auth >/dev/null
        wpas_wait Q "NAN-BOOTSTRAP-SUCCESS peer_nmi=$nmiP" 60
        wpas P NAN_PAIR "$nmiQ" auth=1 cipher=CCMP handle="$pid" peer_instance_id="$inst" password="$refpin" responder >/dev/null
        wpas Q NAN_PAIR "$nmiP" auth=1 cipher=CCMP handle="$sid" peer_instance_id="$pubinst" password="$refpin" >/dev/null
        wpas_wait Q "NAN-PAIRING-STATUS addr=$nmiP " 60
        expect_contains "Q paired" status=success "$LINE"
        wpas_wait P "NAN-PAIRING-STATUS addr=$nmiQ " 60
        expect_contains "P paired" status=success "$LINE"
        from=$(wpas_log_after Q "$sent" "Control interface command 'NAN_BOOTSTRAP $nmiP")
        q_done=$(wpas_log_after Q "$from" "NAN-PAIRING-STATUS addr=$nmiP ")
        p_done=$(wpas_log_after P "$from" "NAN-PAIRING-STATUS addr=$nmiQ ")
        seconds=$(awk -v a="$from" -v b="$q_done" -v c="$p_done" 'BEGIN { printf "%.3f", (b > c ? b : c) - a }')
        printf 'ref_pairing\t%s\n' "$seconds" >>"$samples"
        echo "reference pairing $run: $seconds s (both sides)"
        wpas Q NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
        wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
        wpas_try Q NAN_BOOTSTRAP_RESET "$nmiP" >/dev/null
        wpas_try P NAN_BOOTSTRAP_RESET "$nmiQ" >/dev/null
    done
fi

{
    [ "$REFERENCE" = 1 ] && printf 'reference\t%s (dual_band 0, schedule 2437:0e000000)\n' "$WPAS_BIN"
    printf 'regulatory_domain\t%s\n' "$(iw reg get | grep -m 1 '^country' | cut -d: -f1 | cut -d' ' -f2)"
    printf 'binary\t%s\n' "$WAWARE"
    printf 'binary_sha256\t%s\n' "$(sha256sum "$WAWARE" | cut -d' ' -f1)"
    printf 'kernel\t%s\n' "$(uname -r)"
    printf 'runs\t%s\n' "$RUNS"
    printf 'guest_cpus\t%s\n' "$(nproc)"
} | tee -a "$SCENARIO_OUT/meta.tsv"
cat "$samples"
