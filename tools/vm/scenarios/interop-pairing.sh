#!/bin/bash
# NAN pairing with the other NAN stack (wpa_supplicant 2.12), both roles, each case a whole exchange over the air:
#  - PIN: the peer (PIN keypad, method 0x0020) bootstraps toward `waware pair` (PIN display) and pairs with SAE
#    over the PIN waware shows; `waware pair --pin` (keypad) bootstraps toward the peer's publish (PIN display,
#    authorized by its user) and pairs on NCS-PK-PASN-256. Both sides end paired: the peer reports
#    NAN-PAIRING-STATUS success and NAN-NIK-RECEIVED with waware's own NIK; waware's store holds the peer with
#    the peer's NIK (set with NAN_SET nik) and the pairing key, method and suite.
#  - Opportunistic (PASN without a password) both ways, the same checks.
#  - Verification with the cached key both ways (NAN_PAIR auth=2 as initiator and as responder; `waware pair
#    --find`, and `waware pair` answering by itself), each waware process with a new random NMI: the peer
#    recognises it by its NIRA (its log says which stored NIK matched), waware recognises the peer by its NIRA.
#  - Protected follow-ups after verification, both ways: `waware publish --answer` verified by the peer, then
#    the peer's NAN_TRANSMIT and waware's answer; `waware subscribe --paired --send` verifying the peer's
#    publish, then its message and the peer's answer. The air shows the frames between the two NMIs protected.
#  - Paired data paths, NCS-PK-PASN-128 (CCMP-128) and NCS-PK-PASN-256 (GCMP-256), both ways: the requester
#    verifies first, the peer is handed the ND-PMK its NAN-PAIRING-STATUS reported, both report the suite,
#    and TCP carries 256 KiB each way byte-exact.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"

load_settings INTEROP_PAIR_CASES
# Each case: pin:peer pin:waware opp:peer opp:waware verify:waware verify:peer follow:peer follow:waware
# dp128:waware dp128:peer dp256:waware dp256:peer. The verification, follow-up and data-path cases use the
# pairings made by the PIN cases (pin:peer on NCS-PK-PASN-128 for verify:waware, follow:* and dp128:*;
# pin:waware on -256 for verify:peer and dp256:*), so those run first.
INTEROP_PAIR_CASES=${INTEROP_PAIR_CASES:-pin:peer pin:waware opp:peer opp:waware verify:waware verify:peer follow:peer follow:waware dp128:waware dp128:peer dp256:waware dp256:peer}
SERVICE=_waware-pair._udp
PEER_NIK=00112233445566778899aabbccddeeff
SIZE=$((256 * 1024))
port=5200
# The state folder of each pairing: S128 from pin:peer, S256 from pin:waware; opportunistic ones their own.
S128=$SCENARIO_OUT/s128
S256=$SCENARIO_OUT/s256
SOPP1=$SCENARIO_OUT/sopp1
SOPP2=$SCENARIO_OUT/sopp2
mkdir -p "$S128" "$S256" "$SOPP1" "$SOPP2"

# Every waware here traces what it does (WAWARE_TRACE=1: discovery, the runtime, pairing) into its log.
WW=(env WAWARE_TRACE=1 "$WAWARE")
# untraced LOG: a waware log without its trace lines.
untraced() { grep -v '^trace ' "$1"; }

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

# store_summary FILE: our NIK, then one line per device: name, NIK, method, suite, addresses (first = newest).
store_summary() {
    python3 - "$1" <<'PY'
import json, sys
store = json.load(open(sys.argv[1]))
print("own", store.get("identityKey", ""))
for d in store.get("devices", []):
    print("device", d.get("name", ""), d.get("identityKey", "-"), d.get("pairingMethod", "-"),
          d.get("pairingCipherSuite", "NCS-PK-PASN-128"), "yes" if d.get("pairingKey") else "no",
          ",".join(d.get("managementAddresses", [])))
PY
}

# check_store FILE METHOD SUITE: one device, the peer, with the peer's NIK, a pairing key, METHOD and SUITE.
check_store() {
    local file=$1 method=$2 suite=$3 summary devices
    summary=$(store_summary "$file")
    echo "$summary" | sed 's/^/    store: /'
    expect_eq "store mode" 600 "$(stat -c %a "$file")"
    devices=$(grep -c '^device ' <<<"$summary")
    expect_eq "the store holds one device" 1 "$devices"
    expect_match "it is the peer with its NIK, a key, $method on $suite" \
        "^device [^ ]+ $PEER_NIK $method $suite yes ${WPAS_NMI[P]}" "$(grep '^device ' <<<"$summary")"
}

# own_nik FILE: waware's own NIK in the store.
own_nik() { store_summary "$1" | sed -n 's/^own //p'; }

# peer_pairs_ok AKMP CIPHER ADDRESS: the peer reported the pairing with ADDRESS successful with AKMP and CIPHER;
# ND_PMK is what it derived.
peer_pairs_ok() {
    wpas_wait P "NAN-PAIRING-STATUS addr=$3 " 120
    expect_contains "the peer's pairing status" "status=success" "$LINE"
    expect_contains "the peer's AKM" "akmp=$1 " "$LINE"
    expect_contains "the peer's cipher" "cipher=$2 " "$LINE"
    ND_PMK=$(wpas_field "$LINE" nd_pmk)
    expect_match "the peer's ND-PMK" '^[0-9a-f]{64}$' "$ND_PMK"
}

# peer_got_nik STORE: the peer received waware's own NIK (the one in STORE).
peer_got_nik() {
    wpas_wait P "NAN-NIK-RECEIVED " 60
    expect_eq "the NIK the peer received is waware's own" "$(own_nik "$1")" "$(wpas_field "$LINE" nik)"
}

# peer_recognised ADDRESS: the peer's log says a stored NIK resolved a NIRA (verification needs it).
peer_recognised() {
    expect_contains "the peer resolved waware's NIRA to a stored NIK" "NIRA validation succeeded" \
        "$(grep 'NIRA validation succeeded' "$(wpas_log P)" | tail -n 1)"
}

# protected_between A B: the air saw protected action frames from A to B.
protected_between() {
    local n
    n=$(grep -c "^.* protected-action .* src $1 dst $2" "$SCENARIO_OUT/air.txt")
    [ "$n" -gt 0 ] || fail "no protected action frame from $1 to $2 on the air (air.txt)"
    echo "ok: $n protected action frames from $1 to $2 on the air"
}

# The peer answers a bootstrapping request and a pairing request the way its user would: bootstrapping with
# its own method (authorize), then PASN as responder (NAN_PAIR ... responder) with MODE and CIPHER, for the
# peer in the request and its instance. Leaves the waware NMI in PEER_NMI.
peer_accepts_bootstrap() {
    local pid=$1 method=$2
    wpas_wait P "NAN-BOOTSTRAP-REQUEST " 120
    PEER_NMI=$(wpas_field "$LINE" peer_nmi)
    PEER_INST=$(wpas_field "$LINE" requestor_instance_id)
    wpas P NAN_BOOTSTRAP "$PEER_NMI" handle="$pid" req_instance_id="$PEER_INST" method="$method" auth >/dev/null
}

peer_answers_pasn() {
    local pid=$1 auth=$2 cipher=$3 password=${4:-} verify=$5
    wpas_wait P "NAN-PAIRING-REQUEST " 180
    PEER_NMI=$(wpas_field "$LINE" peer_nmi)
    expect_contains "the pairing request is a $([ "$verify" = 1 ] && echo verification || echo setup)" "verify=$verify" "$LINE"
    local inst=${PEER_INST:-$(wpas_field "$LINE" instance_id)}
    wpas P NAN_PAIR "$PEER_NMI" auth="$auth" cipher="$cipher" handle="$pid" peer_instance_id="$inst" \
        ${password:+password=$password} responder >/dev/null
}

step "two radios: waware in dA, wpa_supplicant in dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
wpas_start P dB 1
wpas P NAN_SET nik "$PEER_NIK" >/dev/null
# Every NAN action frame on the air, and every Authentication and protected action frame.
if ip link set hwsim0 up 2>/dev/null; then
    python3 "$_lib_dir/naf-capture.py" --pairing hwsim0 >"$SCENARIO_OUT/air.txt" 2>&1 &
    _BG_PIDS[air-capture]=$!
fi

# pin:peer — the peer bootstraps with PIN keypad toward `waware pair` and pairs with SAE (CCMP).
case_pin_peer() {
    step "pin:peer — waware shows a PIN; the peer bootstraps (PIN keypad) and pairs with it (SAE, CCMP-128)"
    wpas_mark P
    start_bg pairA dA "${WW[@]}" pair --store "$S128/devices.json" --name P --timeout "$(scaled 150)"
    wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' 60
    local pin sid nmi pubid
    pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA)" | head -n 1)
    sid=$(wpas P NAN_SUBSCRIBE service_name="$SERVICE" sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid " 90
    nmi=$(wpas_field "$LINE" address)
    pubid=$(wpas_field "$LINE" publish_id)
    expect_contains "waware advertises PIN display" "pbm=0x0002" "$LINE"
    expect_contains "waware advertises pairing setup" "pairing_setup_supp=1" "$LINE"
    expect_contains "waware advertises NPK/NIK caching" "npk_nik_caching_supp=1" "$LINE"
    wpas P NAN_BOOTSTRAP "$nmi" handle="$sid" req_instance_id="$pubid" method=32 >/dev/null
    wpas_wait P "NAN-BOOTSTRAP-SUCCESS peer_nmi=$nmi " 120
    expect_contains "the peer's method is PIN keypad" "pbm=0x0020" "$LINE"
    wait_for_line "$(bg_log pairA)" 'asks to pair' 60
    wpas P NAN_PAIR "$nmi" auth=1 cipher=CCMP handle="$sid" peer_instance_id="$pubid" password="$pin" >/dev/null
    peer_pairs_ok SAE CCMP "$nmi"
    wait_bg pairA 0 120
    untraced "$(bg_log pairA)"
    peer_got_nik "$S128/devices.json"
    check_store "$S128/devices.json" SAE NCS-PK-PASN-128
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    PIN_PEER_NMI=$nmi
}

# pin:waware — `waware pair --pin` (keypad) toward the peer's publish (PIN display), NCS-PK-PASN-256.
case_pin_waware() {
    step "pin:waware — the peer publishes with PIN display; waware pairs with --pin (keypad) on NCS-PK-PASN-256"
    wpas_mark P
    local pin=246810 pid
    pid=$(wpas P NAN_PUBLISH service_name="$SERVICE" sync=1 pbm=0x0002 ttl=900)
    start_bg pairB dA "${WW[@]}" pair --pin "$pin" --name P --store "$S256/devices.json" --cipher-suite 256 --timeout "$(scaled 150)"
    PEER_INST=
    peer_accepts_bootstrap "$pid" 2
    expect_contains "waware asks with PIN keypad (the peer's side: display)" "pbm=0x0002" "$LINE"
    wpas_wait P "NAN-BOOTSTRAP-SUCCESS peer_nmi=$PEER_NMI " 120
    peer_answers_pasn "$pid" 1 GCMP-256 "$pin" 0
    expect_contains "waware asks for NCS-PK-PASN-256" "csid=8" "$LINE"
    expect_contains "with SAE" "key_mgmt=SAE" "$LINE"
    peer_pairs_ok SAE GCMP-256 "$PEER_NMI"
    wait_bg pairB 0 120
    untraced "$(bg_log pairB)"
    peer_got_nik "$S256/devices.json"
    check_store "$S256/devices.json" SAE NCS-PK-PASN-256
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
}

# opp:peer — the peer bootstraps opportunistically toward `waware pair --opportunistic` and pairs with PASN.
case_opp_peer() {
    step "opp:peer — waware accepts opportunistic pairing; the peer bootstraps and pairs (PASN, CCMP-128)"
    wpas_mark P
    start_bg pairC dA "${WW[@]}" pair --opportunistic --store "$SOPP1/devices.json" --name P --timeout "$(scaled 150)"
    local sid nmi pubid
    sid=$(wpas P NAN_SUBSCRIBE service_name="$SERVICE" sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid " 90
    nmi=$(wpas_field "$LINE" address)
    pubid=$(wpas_field "$LINE" publish_id)
    expect_contains "waware advertises opportunistic" "pbm=0x0001" "$LINE"
    wpas P NAN_BOOTSTRAP "$nmi" handle="$sid" req_instance_id="$pubid" method=1 >/dev/null
    wpas_wait P "NAN-BOOTSTRAP-SUCCESS peer_nmi=$nmi " 120
    wpas P NAN_PAIR "$nmi" auth=0 cipher=CCMP handle="$sid" peer_instance_id="$pubid" >/dev/null
    peer_pairs_ok PASN CCMP "$nmi"
    wait_bg pairC 0 120
    untraced "$(bg_log pairC)"
    peer_got_nik "$SOPP1/devices.json"
    check_store "$SOPP1/devices.json" PASN NCS-PK-PASN-128
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
}

# opp:waware — `waware pair --opportunistic --find` toward the peer's publish (auto-accepted bootstrapping).
case_opp_waware() {
    step "opp:waware — the peer publishes (opportunistic); waware pairs with --opportunistic --find (PASN)"
    wpas_mark P
    local pid
    pid=$(wpas P NAN_PUBLISH service_name="$SERVICE" sync=1 pbm=0x0001 ttl=900)
    start_bg pairD dA "${WW[@]}" pair --opportunistic --find --store "$SOPP2/devices.json" --name P --timeout "$(scaled 150)"
    wpas_wait P "NAN-BOOTSTRAP-SUCCESS " 120
    PEER_INST=$(wpas_field "$LINE" requestor_instance_id)
    peer_answers_pasn "$pid" 0 CCMP "" 0
    expect_contains "with PASN" "key_mgmt=PASN" "$LINE"
    peer_pairs_ok PASN CCMP "$PEER_NMI"
    wait_bg pairD 0 120
    untraced "$(bg_log pairD)"
    peer_got_nik "$SOPP2/devices.json"
    check_store "$SOPP2/devices.json" PASN NCS-PK-PASN-128
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
}

# verify:waware — `waware pair --find` recognises the peer's publish by its NIRA and verifies it (auth=2 responder).
case_verify_waware() {
    step "verify:waware — waware (new NMI) finds the peer by its NIRA and verifies it with the cached key"
    wpas_mark P
    local pid out
    pid=$(wpas P NAN_PUBLISH service_name="$SERVICE" sync=1 pbm=0x0002 ttl=900)
    start_bg verA dA "${WW[@]}" pair --find --store "$S128/devices.json" --timeout "$(scaled 150)"
    PEER_INST=
    peer_answers_pasn "$pid" 2 CCMP "" 1
    [ -z "${PIN_PEER_NMI:-}" ] || [ "$PEER_NMI" != "$PIN_PEER_NMI" ] || fail "waware kept its NMI $PEER_NMI across processes"
    peer_pairs_ok SAE CCMP "$PEER_NMI"
    peer_recognised
    wait_bg verA 0 120
    out=$(untraced "$(bg_log verA)")
    echo "$out"
    expect_contains "waware recognised the peer and used the stored key" 'verifying it with the stored key' "$out"
    expect_contains "waware verified P" 'verified P' "$out"
    expect_not_contains "no bootstrapping" 'bootstrapping with' "$out"
    check_store "$S128/devices.json" SAE NCS-PK-PASN-128
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
}

# verify:peer — the peer verifies `waware pair` (accepting side, a new NMI) with auth=2 on GCMP-256.
case_verify_peer() {
    step "verify:peer — waware (new NMI) accepts; the peer recognises it by its NIRA and verifies (auth=2, GCMP-256)"
    wpas_mark P
    start_bg verB dA "${WW[@]}" pair --store "$S256/devices.json" --timeout "$(scaled 150)"
    local sid nmi pubid out
    sid=$(wpas P NAN_SUBSCRIBE service_name="$SERVICE" sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid " 90
    nmi=$(wpas_field "$LINE" address)
    pubid=$(wpas_field "$LINE" publish_id)
    wpas P NAN_PAIR "$nmi" auth=2 cipher=GCMP-256 handle="$sid" peer_instance_id="$pubid" >/dev/null
    peer_recognised
    peer_pairs_ok SAE GCMP-256 "$nmi"
    wait_bg verB 0 120
    out=$(untraced "$(bg_log verB)")
    echo "$out"
    expect_contains "waware verified P" 'verified P' "$out"
    expect_eq "waware's store notes the peer at the address it verified" "${WPAS_NMI[P]}" \
        "$(store_summary "$S256/devices.json" | awk '$1 == "device" { split($7, a, ","); print a[1] }')"
    expect_contains "waware's store notes when it saw the peer" "lastSeen" "$(cat "$S256/devices.json")"
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
}

# follow:peer — the peer verifies `waware publish --answer pong`, sends ping protected, gets pong protected.
case_follow_peer() {
    step "follow:peer — the peer verifies waware's publish, then follow-ups both ways (protected)"
    wpas_mark P
    start_bg pubF dA env WAWARE_TRACE=1 WAWARE_STATE_DIR="$S128" "$WAWARE" publish _ipf._tcp --answer pong --json
    wait_for_line "$(bg_log pubF)" '"event":"started"' 60
    local nmi sid pubid
    nmi=$(event_field "$(bg_log pubF)" started address)
    sid=$(wpas P NAN_SUBSCRIBE service_name=_ipf._tcp sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmi" 90
    pubid=$(wpas_field "$LINE" publish_id)
    wpas P NAN_PAIR "$nmi" auth=2 cipher=CCMP handle="$sid" peer_instance_id="$pubid" >/dev/null
    peer_pairs_ok SAE CCMP "$nmi"
    wait_for_line "$(bg_log pubF)" '"event":"verified"' 60
    wpas P NAN_TRANSMIT handle="$sid" req_instance_id="$pubid" address="$nmi" ssi="$(hex ping)" >/dev/null
    wait_for_line "$(bg_log pubF)" '"event":"message".*"info":"ping"' 60
    wpas_wait P "NAN-RECEIVE id=$sid .*address=$nmi ssi=$(hex pong)" 60
    protected_between "${WPAS_NMI[P]}" "$nmi"
    protected_between "$nmi" "${WPAS_NMI[P]}"
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    stop_bg pubF INT
}

# follow:waware — `waware subscribe --paired --send ping` verifies the peer's publish, then ping/pong protected.
case_follow_waware() {
    step "follow:waware — waware verifies the peer's publish, then follow-ups both ways (protected)"
    wpas_mark P
    local pid nmi inst
    pid=$(wpas P NAN_PUBLISH service_name=_ipg._tcp sync=1 ttl=900)
    start_bg subG dA env WAWARE_TRACE=1 WAWARE_STATE_DIR="$S128" "$WAWARE" subscribe _ipg._tcp --paired --count 1 --send ping --messages 1 \
        --timeout "$(scaled 150)" --json
    PEER_INST=
    peer_answers_pasn "$pid" 2 CCMP "" 1
    nmi=$PEER_NMI
    peer_pairs_ok SAE CCMP "$nmi"
    wpas_wait P "NAN-RECEIVE id=$pid .*address=$nmi ssi=$(hex ping)" 90
    inst=$(wpas_field "$LINE" peer_instance_id)
    wpas P NAN_TRANSMIT handle="$pid" req_instance_id="$inst" address="$nmi" ssi="$(hex pong)" >/dev/null
    wait_for_line "$(bg_log subG)" '"event":"message".*"info":"pong"' 60
    wait_bg subG 0 60
    expect_contains "waware verified the peer first" '"event":"verified"' "$(cat "$(bg_log subG)")"
    protected_between "$nmi" "${WPAS_NMI[P]}"
    protected_between "${WPAS_NMI[P]}" "$nmi"
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
}

csid_of() { [ "$1" = 128 ] && echo 7 || echo 8; }
cipher_of() { [ "$1" = 128 ] && echo CCMP || echo GCMP-256; }
state_of() { [ "$1" = 128 ] && echo "$S128" || echo "$S256"; }

# check_paired_link LOG SUITE: the data path is up with NCS-PK-PASN-SUITE on waware's side; TCP both ways.
check_paired_link() {
    local log=$1 suite=$2 ifA localA cipher peerA
    { read -r ifA; read -r localA; read -r cipher; read -r peerA; } \
        < <(event_field "$log" data-path-up interface localAddress cipherSuite peerInterfaceAddress)
    expect_eq "waware's cipher" "NCS-PK-PASN-$suite" "$cipher"
    expect_eq "waware's peer NDI is the peer's" "${WPAS_NDI[P]}" "$peerA"
    expect_match "waware's station of the peer NDI is keyed (MFP)" 'MFP:[[:space:]]*yes' "$(in_netns dA iw dev "$ifA" station dump)"
    wait_link_local dA "$ifA" "$localA"
    port=$((port + 1))
    tcp_both_ways "tcp-$port" "$port" "$SIZE" "$ifA" "$localA" ndiP
}

# dpSUITE:waware — waware requests a paired data path from the peer's publish.
case_dp_waware() {
    local suite=$1 pid nmi ndp init_ndi svc=_ipd$1._tcp
    step "dp$suite:waware — waware verifies the peer's publish and requests an NCS-PK-PASN-$suite data path"
    wpas_mark P
    pid=$(wpas P NAN_PUBLISH service_name="$svc" sync=1 data_path=1 cipher_suites="$(csid_of "$suite")" ttl=900)
    start_bg subD dA env WAWARE_TRACE=1 WAWARE_STATE_DIR="$(state_of "$suite")" "$WAWARE" subscribe "$svc" --count 1 --data-path --json
    PEER_INST=
    peer_answers_pasn "$pid" 2 "$(cipher_of "$suite")" "" 1
    nmi=$PEER_NMI
    peer_pairs_ok SAE "$(cipher_of "$suite")" "$nmi"
    wpas_wait P "NAN-NDP-REQUEST " 120
    expect_contains "waware asks for NCS-PK-PASN-$suite" "csid=$(csid_of "$suite")" "$LINE"
    init_ndi=$(wpas_field "$LINE" init_ndi)
    ndp=$(wpas_field "$LINE" ndp_id)
    wpas P NAN_NDP_RESPONSE accept peer_nmi="$nmi" ndi=ndiP ndp_id="$ndp" init_ndi="$init_ndi" handle="$pid" \
        csid="$(csid_of "$suite")" pmk="$ND_PMK" >/dev/null
    wpas_wait P "NAN-NDP-CONNECTED .*peer=$nmi|NAN-NDP-DISCONNECTED" 120
    expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
    wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
    wait_for_line "$(bg_log subD)" '"event":"data-path-(up|down)"' 60
    check_paired_link "$(bg_log subD)" "$suite"
    wpas_keep_busy_stop P
    wpas_mark P
    stop_bg subD INT
    wpas_wait P "NAN-NDP-DISCONNECTED .*ndp_id=$ndp" 60
    wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
}

# dpSUITE:peer — the peer verifies waware's publish and requests a paired data path with the ND-PMK.
case_dp_peer() {
    local suite=$1 nmi sid pubid svc=_ipe$1._tcp
    step "dp$suite:peer — the peer verifies waware's publish and requests an NCS-PK-PASN-$suite data path"
    wpas_mark P
    start_bg pubD dA env WAWARE_TRACE=1 WAWARE_STATE_DIR="$(state_of "$suite")" "$WAWARE" publish "$svc" --accept-data-paths --json
    wait_for_line "$(bg_log pubD)" '"event":"started"' 60
    nmi=$(event_field "$(bg_log pubD)" started address)
    sid=$(wpas P NAN_SUBSCRIBE service_name="$svc" sync=1)
    wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmi" 90
    pubid=$(wpas_field "$LINE" publish_id)
    wpas P NAN_PAIR "$nmi" auth=2 cipher="$(cipher_of "$suite")" handle="$sid" peer_instance_id="$pubid" >/dev/null
    peer_pairs_ok SAE "$(cipher_of "$suite")" "$nmi"
    wpas P NAN_NDP_REQUEST handle="$sid" ndi=ndiP peer_nmi="$nmi" peer_id="$pubid" csid="$(csid_of "$suite")" pmk="$ND_PMK" >/dev/null
    wpas_wait P "NAN-NDP-CONNECTED .*peer=$nmi|NAN-NDP-DISCONNECTED" 120
    expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
    local ndp
    ndp=$(wpas_field "$LINE" ndp_id)
    wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
    wait_for_line "$(bg_log pubD)" '"event":"data-path-up"' 60
    check_paired_link "$(bg_log pubD)" "$suite"
    wpas_keep_busy_stop P
    wpas_mark P
    wpas P NAN_NDP_TERMINATE peer_nmi="$nmi" init_ndi="${WPAS_NDI[P]}" ndp_id="$ndp" >/dev/null
    wait_for_line "$(bg_log pubD)" '"event":"data-path-down"' 60
    wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
    stop_bg pubD INT
}

for case in $INTEROP_PAIR_CASES; do
    case $case in
        pin:peer) case_pin_peer ;;
        pin:waware) case_pin_waware ;;
        opp:peer) case_opp_peer ;;
        opp:waware) case_opp_waware ;;
        verify:waware) case_verify_waware ;;
        verify:peer) case_verify_peer ;;
        follow:peer) case_follow_peer ;;
        follow:waware) case_follow_waware ;;
        dp128:waware) case_dp_waware 128 ;;
        dp128:peer) case_dp_peer 128 ;;
        dp256:waware) case_dp_waware 256 ;;
        dp256:peer) case_dp_peer 256 ;;
        *) fail "unknown case $case" ;;
    esac
    echo "case passed: $case"
done
