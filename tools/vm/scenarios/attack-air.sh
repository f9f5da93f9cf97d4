#!/bin/bash
# An attacker on the air (issue 24). Three radios: A (dA) accepts pairings and data paths, B (dB) pairs with it,
# verifies it later and opens an NCS-SK-128 data path to it; the third radio stays in the initial namespace
# with the attacker (tools/vm/guest/air-attack.py), which hears every frame through hwsim0 and injects through
# a monitor interface of its own on 2437 MHz. Both victims keep their adapters' addresses (--fixed-address), so
# the attacker knows them; it could learn them from the air as well. Each session runs under its own attacks:
#   1. B pairs with A (PIN) while A is flooded with PASN frame 1s from random addresses and B's follow-ups
#      (bootstrapping) come again replayed and tampered;
#   2. B verifies A while B's frame 1 of the pairing (forged: an older exchange), its current frame 1 and 3
#      replayed and copies with a flipped byte reach A with B's address;
#   3. on the data path, a Data Path Termination, a rejecting Data Path Response and a Schedule Update
#      Notification with no slot in common come from B's address, and B's Data Path Request again, replayed
#      and with its MIC or PMKID flipped; then ping and TCP must still cross it.
# A session the attacks broke is reported by name and the scenario goes on to the next; it fails at the end
# with "victims' sessions kept: N of 3" when N < 3. waware must not crash (every process's exit is checked).
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

attack="$_lib_dir/air-attack.py"
work=$(mktemp -d -p /run)
dir_a="$SCENARIO_OUT/a"; dir_b="$SCENARIO_OUT/b"
mkdir -p "$dir_a" "$dir_b"
kept=0
broken=()

step "three radios: A in dA, B in dB, the attacker's in the initial namespace"
sim_radios 3
# With --fixed-address the NAN interface takes the radio's second address: hwsim's 02:... becomes 42:... (seen in
# the first run: A 42:00:00:00:00:00 while phy0's macaddress is 02:00:00:00:00:00).
addr_a=$(sed 's/^02:/42:/' "/sys/class/ieee80211/${PHYS[0]}/macaddress")
addr_b=$(sed 's/^02:/42:/' "/sys/class/ieee80211/${PHYS[1]}/macaddress")
radio_netns 0 dA
radio_netns 1 dB
for dev in $(iw dev | awk -v p="phy#${PHYS[2]#phy}" '/^phy#/ { phy = $1 } /Interface/ && phy == p { print $2 }'); do
    iw dev "$dev" del
done
iw phy "${PHYS[2]}" interface add atk0 type monitor || fail "no monitor interface on the attacker's radio"
ip link set atk0 up || fail "atk0 up failed"
iw dev atk0 set freq 2437 || fail "atk0 refused 2437 MHz"
ip link set hwsim0 up || fail "no hwsim0 monitor interface to hear the air on"
echo "A is $addr_a, B is $addr_b; the attacker injects on atk0 (2437 MHz)"

# attacker_start NAME KINDS [OPTIONS...]: the attacker, until attacker_stop NAME, which leaves its counts (JSON) in
# ATTACK_COUNTS and prints them.
attacker_start() {
    local name=$1 kinds=$2
    shift 2
    python3 "$attack" atk0 "$addr_a" "$addr_b" "$kinds" "$@" >"$(bg_log "$name")" 2>&1 &
    _BG_PIDS[$name]=$!
    wait_for_line "$(bg_log "$name")" '^listening' 30
}
attacker_stop() {
    stop_bg "$1" INT
    ATTACK_COUNTS=$(tail -n 1 "$(bg_log "$1")")
    jq -e . >/dev/null <<<"$ATTACK_COUNTS" || fail "the attacker $1 gave no counts: $(cat "$(bg_log "$1")")"
    grep -v '^{' "$(bg_log "$1")" | sed 's/^/    attacker: /'
    echo "    attack frames sent: $(jq -r 'to_entries | map("\(.key) \(.value)") | join(", ")' <<<"$ATTACK_COUNTS")"
}
# stop_waiting NAME: ends a `waware pair` left waiting after its peer failed (Ctrl-C: "interrupted", exit 1), or
# takes the status of one that already ended by itself.
stop_waiting() {
    local pid=${_BG_PIDS[$1]}
    if kill -0 "$pid" 2>/dev/null; then
        stop_bg "$1" INT 1
    else
        wait "$pid"
        echo "$1 had ended by itself (exit $?)"
        unset "_BG_PIDS[$1]"
    fi
}
# session NAME OK: counts a session the attacks left working, or names it as broken.
session() {
    if [ "$2" = yes ]; then
        kept=$((kept + 1))
        echo "ok: session '$1' kept"
    else
        broken+=("$1")
        echo "BROKEN: session '$1': $3" >&2
    fi
}

step "1. B pairs with A (PIN) under a PASN frame 1 flood from random addresses and replayed, tampered follow-ups"
attacker_start atk1 flood,bootstrap --save "$work/frame1"
start_bg pairA dA "$WAWARE" pair --fixed-address --store "$dir_a/devices.json" --name B --timeout "$(scaled 60)"
wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' 40
pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA)" | head -n 1)
if out=$(in_netns dB env WAWARE_PIN="$pin" "$WAWARE" pair --fixed-address --name A --store "$dir_b/devices.json" \
        --timeout "$(scaled 40)" 2>&1); then
    echo "$out" | sed 's/^/    B: /'
    wait_bg pairA 0 60
    expect_contains "A stored B with a key" 'paired with key (SAE)' "$(cat "$(bg_log pairA)")"
    expect_contains "B paired with A's address" "pairing with $addr_a" "$out"
    session pairing yes
    paired=yes
else
    echo "$out" | sed 's/^/    B: /'
    session pairing no "B could not pair under attacks 1 and 3 (flood, bootstrapping): $(tail -n 1 <<<"$out")"
    stop_waiting pairA
    paired=no
fi
attacker_stop atk1
flood_sent=$(jq -r '."pasn-flood" // 0' <<<"$ATTACK_COUNTS")
followups_sent=$(jq -r '(."followup-replayed" // 0) + (."followup-tampered" // 0)' <<<"$ATTACK_COUNTS")

step "2. B verifies A while B's PASN frames 1 and 3 come again: forged, replayed, with a flipped byte"
pasn_sent=0
if [ "$paired" = yes ]; then
    attacker_start atk2 pasn --template "$work/frame1"
    start_bg verifyA dA "$WAWARE" pair --fixed-address --store "$dir_a/devices.json" --timeout "$(scaled 60)"
    wait_for_line "$(bg_log verifyA)" '^PIN [0-9]{6}' 40
    if out=$(in_netns dB "$WAWARE" pair --fixed-address --find --store "$dir_b/devices.json" --timeout "$(scaled 20)" 2>&1); then
        echo "$out" | sed 's/^/    B: /'
        wait_bg verifyA 0 60
        expect_contains "B verified A" 'verified A' "$out"
        expect_contains "A verified B" 'verified B' "$(cat "$(bg_log verifyA)")"
        session verification yes
    else
        echo "$out" | sed 's/^/    B: /'
        sed 's/^/    A: /' "$(bg_log verifyA)"
        session verification no "attack 2 (forged, replayed or flipped PASN frames with B's address) ended B's verification: $(tail -n 1 <<<"$out")"
        stop_waiting verifyA
    fi
    attacker_stop atk2
    pasn_sent=$(jq -r '[to_entries[] | select(.key | startswith("pasn-")) | .value] | add // 0' <<<"$ATTACK_COUNTS")
else
    session verification no "not tried: the pairing of step 1 failed"
fi

step "3. an NCS-SK-128 data path from B to A; then a spoofed termination, response and schedule update, and message 1 again"
attacker_start atk3 ndp
start_bg pub dA env WAWARE_PASSPHRASE=attack-air WAWARE_TRACE=1 "$WAWARE" publish _atk._tcp --fixed-address \
    --accept-data-paths --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB env WAWARE_PASSPHRASE=attack-air "$WAWARE" subscribe _atk._tcp --fixed-address --count 1 --data-path \
    --cipher-suite 128 --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 200
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
{ read -r ifA; read -r localA; read -r cipherA; } < <(event_field "$(bg_log pub)" data-path-up interface localAddress cipherSuite)
{ read -r ifB; read -r localB; } < <(event_field "$(bg_log sub)" data-path-up interface localAddress)
expect_eq "A's cipher" NCS-SK-128 "$cipherA"
wait_link_local dA "$ifA" "$localA"
wait_link_local dB "$ifB" "$localB"
kill -USR1 "${_BG_PIDS[atk3]}"
wait_for_line "$(bg_log atk3)" '^ndp attack( sent|: no Data Path Request)' 60
# The frames landed in A's windows; give A's engine a moment to act on them if it were to.
sleep 2
attacker_stop atk3
ndp_sent=$(jq -r '[to_entries[] | select(.key | startswith("ndp-") or startswith("schedule-")) | .value] | add // 0' <<<"$ATTACK_COUNTS")
expect_eq "the ndp attack had B's Data Path Request to work from" yes "$([ "$ndp_sent" -gt 0 ] && echo yes || echo no)"
down_a=$(grep -c '"event":"data-path-down"' "$(bg_log pub)")
down_b=$(grep -c '"event":"data-path-down"' "$(bg_log sub)")
echo "    A's engine on the attacker's NAFs:"
grep -E 'dp rx (dataPathTermination|dataPathResponse|dataPathRequest)|dp (unprotected )?schedule update' "$(bg_log pub)" \
    | tail -n 12 | sed 's/^/      /'
if [ "$down_a" = 0 ] && [ "$down_b" = 0 ] \
        && in_netns dB ping -6 -n -c 4 -i 0.2 -W 3 "$localA%$ifB" | tail -n 2 | sed 's/^/    /' && [ "${PIPESTATUS[0]}" = 0 ]; then
    tcp_both_ways tcp 5199 65536 "$ifA" "$localA" "$ifB"
    expect_running pub sub
    session data-path yes
else
    session data-path no "attacks 4-5 (spoofed termination, response, schedule update; message 1 again): data-path-down on A $down_a, on B $down_b, or no ping"
fi
stop_bg sub INT
stop_bg pub INT

step "figures"
echo "attack frames sent: PASN frame 1 flood $flood_sent, follow-ups replayed or tampered $followups_sent, PASN frames forged, replayed or flipped $pasn_sent, data-path NAFs spoofed or replayed $ndp_sent"
echo "victims' sessions kept: $kept of 3"
[ "$kept" = 3 ] || fail "the attacks broke: ${broken[*]}"
