#!/bin/bash
# Data paths with the other NAN stack (wpa_supplicant 2.12), both roles, each carrying 1 MiB of TCP each way
# byte-exact: the peer requests from `waware publish --accept-data-paths`, and `waware subscribe --data-path`
# requests from the peer's publish; open, NCS-SK-128 and NCS-SK-256, by passphrase and by PMK. The peer's
# schedule is not ours (2437 MHz slots 1-3 and 5180 MHz slots 4-31 against our 2437 + 5745 MHz); the common
# committed slots are printed. After each, both sides end it (the peer's NAN_NDP_TERMINATE ends ours and ours
# ends theirs) and no NAN data interface or station is left on waware's side.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"

PMK=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
load_settings INTEROP_DP_CASES INTEROP_IPERF_SECONDS
# Which cases run: "peer:MODE" (the peer requests) and "waware:MODE" (waware requests); MODE is open,
# sk128, sk256 (passphrase NAN), pmk128, pmk256, or wrong (the requester's passphrase is not the
# responder's: refused on both sides, nothing left).
INTEROP_DP_CASES=${INTEROP_DP_CASES:-peer:open waware:open peer:sk128 waware:sk128 peer:sk256 waware:sk256 peer:pmk128 waware:pmk128 peer:pmk256 waware:pmk256 peer:wrong waware:wrong}
SIZE=$((1024 * 1024))
port=5100

step "two radios: waware in dA, wpa_supplicant in dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
wpas_start P dB 1
# Every NAN action frame on the air, with its channel, its place in the DW period and its bytes.
if ip link set hwsim0 up 2>/dev/null; then
    python3 "$_lib_dir/naf-capture.py" --hex hwsim0 >"$SCENARIO_OUT/air.txt" 2>&1 &
    _BG_PIDS[air-capture]=$!
fi

# Options of each side for MODE: waware's, then the peer's (csid and credential).
waware_security() {
    case $1 in
        open) echo "--open" ;;
        sk128) echo "--passphrase NAN --cipher-suite 128" ;;
        sk256) echo "--passphrase NAN --cipher-suite 256" ;;
        pmk128) echo "--pmk $PMK --cipher-suite 128" ;;
        pmk256) echo "--pmk $PMK --cipher-suite 256" ;;
        wrong) echo "--passphrase NAN --cipher-suite 128" ;;
    esac
}
peer_security() {
    case $1 in
        open) echo "" ;;
        sk128) echo "csid=1 password=NAN" ;;
        sk256) echo "csid=2 password=NAN" ;;
        pmk128) echo "csid=1 pmk=$PMK" ;;
        pmk256) echo "csid=2 pmk=$PMK" ;;
        wrong) echo "csid=1 password=WRONG" ;;
    esac
}
cipher_name() {
    case $1 in
        open) echo open ;;
        sk128 | pmk128) echo NCS-SK-128 ;;
        sk256 | pmk256) echo NCS-SK-256 ;;
    esac
}
peer_cipher_suites() {
    case $1 in
        open) echo "" ;;
        sk128 | pmk128 | wrong) echo "cipher_suites=1" ;;
        sk256 | pmk256) echo "cipher_suites=2" ;;
    esac
}

# check_link MODE WAWARE_LOG: the data path is up on both sides with MODE's cipher; prints the common slots;
# TCP both ways.
check_link() {
    local mode=$1 log=$2 ifA localA cipher peerA
    { read -r ifA; read -r localA; read -r cipher; read -r peerA; } \
        < <(event_field "$log" data-path-up interface localAddress cipherSuite peerInterfaceAddress)
    expect_eq "waware's cipher ($mode)" "$(cipher_name "$mode")" "$cipher"
    expect_eq "waware's peer NDI is the peer's" "${WPAS_NDI[P]}" "$peerA"
    in_netns dA iw dev "$ifA" station dump | grep -E 'Station|authorized|MFP' | sed 's/^/    waware station: /'
    grep -E 'dp (peer|local) schedule|common' "$log" 2>/dev/null | tail -n 4 | sed 's/^/    /'
    wait_link_local dA "$ifA" "$localA"
    port=$((port + 1))
    tcp_both_ways "tcp-$port" "$port" "$SIZE" "$ifA" "$localA" ndiP
    if [ "$mode" != open ]; then
        expect_match "waware's station of the peer NDI is keyed (MFP)" 'MFP:[[:space:]]*yes' "$(in_netns dA iw dev "$ifA" station dump)"
    fi
    iperf_mbps "$mode-$port" dA dB "$ifA" ndiP "$localA" "${INTEROP_IPERF_SECONDS:-2}"
    echo "figure: $CASE_NAME $mode iperf3 $IPERF_MBPS Mbit/s (peer to waware)"
}

# no_station WHAT: no station on any netdev (the NDIs) in dA.
no_station() {
    local dev
    for dev in $(in_netns dA iw dev | awk '$1 == "Interface" { print $2 }'); do
        expect_eq "$1: no station on dA $dev" "" "$(in_netns dA iw dev "$dev" station dump)"
    done
}

# nothing_left WHAT: no NDI station on waware's side and no NAN data interface in dA.
nothing_left() {
    local i
    for i in $(seq 1 "$(scaled 10)"); do
        [ "$(in_netns dA ip -o link show | grep -c 'data')" = 0 ] && break
        nap 0.5
    done
    expect_eq "$1: no NDI left in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
}

peer_requests() {
    local mode=$1 svc=_pq$2._tcp sid ndp
    step "the peer requests a $mode data path from waware's publish $svc"
    wpas_mark P
    # shellcheck disable=SC2046
    start_bg pub dA env WAWARE_TRACE=1 "$WAWARE" publish "$svc" --accept-data-paths $(waware_security "$mode") --json
    wait_for_line "$(bg_log pub)" '"event":"started"' 60
    local nmiA
    nmiA=$(event_field "$(bg_log pub)" started address)
    sid=$(wpas P NAN_SUBSCRIBE service_name="$svc" sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiA" 60
    local pubid
    pubid=$(wpas_field "$LINE" publish_id)
    # shellcheck disable=SC2046
    wpas P NAN_NDP_REQUEST handle="$sid" ndi=ndiP peer_nmi="$nmiA" peer_id="$pubid" $(peer_security "$mode") >/dev/null
    if [ "$mode" = wrong ]; then
        step "the peer's passphrase is not waware's: refused on both sides, nothing left"
        wpas_wait P "NAN-NDP-DISCONNECTED .*peer=$nmiA" 120
        expect_contains "the peer reports a failure" "failure=1" "$LINE"
        wait_for_line "$(bg_log pub)" '"event":"data-path-down"' 60
        expect_contains "waware says why" '"reason":"security-failure"' "$LINE"
        expect_not_contains "waware never came up" '"event":"data-path-up"' "$(cat "$(bg_log pub)")"
        no_station "after the refusal"
        expect_running pub
        wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
        stop_bg pub INT
        nothing_left "after the refusal"
        return
    fi
    wpas_wait P "NAN-NDP-CONNECTED .*peer=$nmiA|NAN-NDP-DISCONNECTED" 120
    expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
    ndp=$(wpas_field "$LINE" ndp_id)
    wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
    wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
    check_link "$mode" "$(bg_log pub)"
    wpas_keep_busy_stop P

    step "the peer ends it (NAN_NDP_TERMINATE): waware reports it down"
    wpas_mark P
    wpas P NAN_NDP_TERMINATE peer_nmi="$nmiA" init_ndi="${WPAS_NDI[P]}" ndp_id="$ndp" >/dev/null
    wait_for_line "$(bg_log pub)" '"event":"data-path-down"' 60
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    stop_bg pub INT
    nothing_left "after the peer's termination"
}

waware_requests() {
    local mode=$1 svc=_wq$2._tcp pid
    step "waware requests a $mode data path from the peer's publish $svc"
    wpas_mark P
    # shellcheck disable=SC2046
    pid=$(wpas P NAN_PUBLISH service_name="$svc" sync=1 data_path=1 $(peer_cipher_suites "$mode") ttl=900)
    # shellcheck disable=SC2046
    start_bg sub dA env WAWARE_TRACE=1 "$WAWARE" subscribe "$svc" --count 1 --data-path $(waware_security "$mode") --json
    wpas_wait P "NAN-NDP-REQUEST " 120
    local peer_nmi init_ndi ndp
    peer_nmi=$(wpas_field "$LINE" peer_nmi)
    init_ndi=$(wpas_field "$LINE" init_ndi)
    ndp=$(wpas_field "$LINE" ndp_id)
    # shellcheck disable=SC2046
    # (wrong: waware asks with passphrase NAN, the peer answers with another.)
    wpas P NAN_NDP_RESPONSE accept peer_nmi="$peer_nmi" ndi=ndiP ndp_id="$ndp" init_ndi="$init_ndi" handle="$pid" \
        $(peer_security "$mode") >/dev/null
    if [ "$mode" = wrong ]; then
        step "the peer's passphrase is not waware's: refused on both sides, nothing left"
        wpas_wait P "NAN-NDP-DISCONNECTED .*peer=$peer_nmi" 120
        expect_contains "the peer reports a failure" "failure=1" "$LINE"
        wait_bg sub 1 120
        wait_for_line "$(bg_log sub)" '^waware: .*data path' 10
        expect_not_contains "waware never came up" '"event":"data-path-up"' "$(cat "$(bg_log sub)")"
        no_station "after the refusal"
        nothing_left "after the refusal"
        wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
        return
    fi
    wpas_wait P "NAN-NDP-CONNECTED .*peer=$peer_nmi|NAN-NDP-DISCONNECTED" 120
    expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
    wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
    wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 60
    check_link "$mode" "$(bg_log sub)"
    wpas_keep_busy_stop P

    step "waware ends it (Ctrl-C): the peer reports it disconnected"
    wpas_mark P
    stop_bg sub INT
    wpas_wait P "NAN-NDP-DISCONNECTED .*ndp_id=$ndp" 60
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
    nothing_left "after waware's termination"
}

n=0
for case in $INTEROP_DP_CASES; do
    n=$((n + 1))
    CASE_NAME=$case
    case $case in
        peer:*) peer_requests "${case#peer:}" "$n" ;;
        waware:*) waware_requests "${case#waware:}" "$n" ;;
        *) fail "unknown case $case" ;;
    esac
done
