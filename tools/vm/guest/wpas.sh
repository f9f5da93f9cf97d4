# The peer stack on the bench: wpa_supplicant 2.12 (../shared/peers/wpa_supplicant-2.12, hostap's NAN), driven
# over its control socket. Sourced by the interop scenarios after lib.sh.
#
#   wpas_start NAME NS RADIO [SCHEDULE]   run wpa_supplicant in NS on radio index RADIO (PHYS[RADIO]): its
#                            station interface, a NAN interface nanNAME and a data interface ndiNAME; NAN
#                            started and the cluster joined; SCHEDULE (default "2437:0e000000 5180:f0ffffff",
#                            slots 1-3 on channel 6 and 4-31 on channel 36, as the peer's own tests do) set with
#                            NAN_SCHED_CONFIG_MAP map 1. Its -dd log is $SCENARIO_OUT/NAME-wpas.log, its events
#                            $SCENARIO_OUT/NAME-events.log. Sets WPAS_NMI[NAME] and WPAS_NDI[NAME].
#   wpas_start_usd NAME NS RADIO   run wpa_supplicant in NS on radio index RADIO's station interface only, for
#                            unsynchronized service discovery (NAN_PUBLISH/NAN_SUBSCRIBE without sync=1; the radio
#                            may lack NAN); commands and events then go to the station interface. Sets WPAS_ADDR[NAME].
#   wpas NAME COMMAND...     one control command on NAME's NAN interface (station interface after wpas_start_usd); prints the reply, fails the
#                            scenario on FAIL
#   wpas_try NAME COMMAND... the same, returning the status instead of failing
#   wpas_wait NAME REGEX [SECONDS]   wait for an event line matching REGEX (ERE; default 20 s, scaled) in
#                            NAME's events since the last wpas_mark; the line is left in $LINE
#   wpas_mark NAME           events before this point are not waited for any more (each case of a scenario
#                            starts with one, so an earlier case's event cannot satisfy a later wait)
#   wpas_field LINE KEY      the value of key=value in an event line
#   wpas_log NAME            the path of NAME's -dd log while the scenario runs
#   wpas_keep_busy NAME PEER_NDI   ping PEER_NDI over NAME's data interface until wpas_keep_busy_stop NAME
#                            (the peer drops a data path idle for 25 s; the bench is slower than an application)
#   wpas_ndi_address NAME    the MAC address of NAME's data interface
#   wpas_log_after NAME T0 TEXT   the time stamp (-t, seconds since the epoch) of the first line of NAME's -dd
#                            log at or after T0 that contains TEXT; fails the scenario when there is none.
#                            Commands show as "Control interface command 'COMMAND ...'", events by their
#                            name ("NAN-DISCOVERY-RESULT ..."), each NAF handed to the kernel as "NAN: send_naf"
#   wpas_ndp_setup Q P PARAMS     Q requests a data path from P's publish (Q's NAN_NDP_REQUEST with PARAMS, e.g.
#                            "handle=1 ndi=ndiQ peer_nmi=... peer_id=2"; P must accept it, wpas_auto_accept);
#                            leaves in NDP_SETUP the seconds from Q's Data Path Request handed to the kernel
#                            (its first "NAN: send_naf" after the command) to the later NAN-NDP-CONNECTED of the
#                            two, both from the -t logs, and in NDP_ID / NDP_PEER_NDI what Q's event said;
#                            status 1 when the setup failed (NAN-NDP-DISCONNECTED on both sides)
#   wpas_link_local NAME     its IPv6 link-local address, once duplicate address detection is done
#   wpas_auto_accept NAME PARAMS   answer every data-path request at once (NAN_NDP_RESPONSE accept PARAMS, e.g.
#                            "ndi=ndiP handle=1"), as an application that accepts them all would; until
#                            wpas_auto_accept_stop NAME
#
# The peer binary comes from WAWARE_PEER_WPAS (tools/vm/run resolves it on the host and fails, naming the
# path, when it is missing); never skipped.

WPAS_BIN=${WAWARE_PEER_WPAS:-}
declare -A WPAS_NMI=() WPAS_NDI=() WPAS_ADDR=() _WPAS_NS=() _WPAS_IFACE=()
_WPAS_WLAN=

# On the way out: each peer's -dd log into the results, then lib.sh's cleanup with the scenario's status.
_wpas_exit() {
    local rc=$? name
    for name in "${!_WPAS_NS[@]}"; do cp "/tmp/wpas-$name.log" "$SCENARIO_OUT/$name-wpas.log" 2>/dev/null; done
    (exit "$rc")
    _lib_cleanup
}
trap _wpas_exit EXIT

# A control command's reply may take long on a loaded host (INTERFACE_ADD took over 30 s under load): the
# wait is scaled like every other limit.
export WPAS_CTL_TIMEOUT=$(scaled 20)

wpas_start_usd() {
    local name=$1 ns=$2 radio=$3 wlan i
    _wpas_launch "$name" "$ns" "$radio"
    wlan=$_WPAS_WLAN
    _WPAS_IFACE[$name]=$wlan
    start_bg "$name-wpas-events" "$ns" python3 "$_lib_dir/wpas-ctl.py" --monitor "/tmp/wpas-$name/$wlan" "$SCENARIO_OUT/$name-events.log"
    for i in $(seq 1 "$(scaled 10)"); do grep -q ATTACHED "$SCENARIO_OUT/$name-events.log" 2>/dev/null && break; nap 0.5; done
    WPAS_ADDR[$name]=$(in_netns "$ns" cat "/sys/class/net/$wlan/address")
    echo "wpa_supplicant $name in $ns for USD: station $wlan ${WPAS_ADDR[$name]}; $(wpas "$name" GET_CAPABILITY nan)"
}

# _wpas_launch NAME NS RADIO: starts wpa_supplicant NAME in NS with the station interface of radio RADIO added;
# leaves that interface's name in _WPAS_WLAN.
_wpas_launch() {
    local name=$1 ns=$2 radio=$3 phy wlan
    [ -z "${WAWARE_PEER_WPAS_PROBLEM:-}" ] || fail "$WAWARE_PEER_WPAS_PROBLEM"
    [ -n "$WPAS_BIN" ] || fail "WAWARE_PEER_WPAS is not set: the peer stack (../shared/peers/wpa_supplicant-2.12/wpa_supplicant) was not handed to the guest"
    [ -x "$WPAS_BIN" ] || fail "the peer stack is missing: $WPAS_BIN is not an executable file"
    phy=${PHYS[$radio]:-}
    [ -n "$phy" ] || fail "no radio $radio for wpa_supplicant $name"
    wlan=$(in_netns "$ns" iw dev | awk -v p="phy#${phy#phy}" '$1 ~ /^phy#/ { cur = $1 } cur == p && $1 == "Interface" { print $2; exit }')
    [ -n "$wlan" ] || fail "no station interface of $phy in $ns"
    _WPAS_NS[$name]=$ns
    _wpas_ctl_start
    # A socket left by an earlier scenario's peer of the same name would pass the wait below at once, and the
    # first command would meet "Connection refused" before this peer has bound it (interop-schedules after
    # interop-pairing, 2026-12-05).
    rm -rf "/tmp/wpas-g-$name" "/tmp/wpas-$name"
    mkdir -p "/tmp/wpas-$name"
    # The -dd log goes to the guest's own /tmp: written through 9p to the results folder it slowed the peer down
    # by seconds under load (its event loop fell behind and its 2 s NDP timeouts fired). It is copied to
    # $SCENARIO_OUT/NAME-wpas.log when the scenario ends, however it ends.
    start_bg "$name-wpas-main" "$ns" "$WPAS_BIN" -g "/tmp/wpas-g-$name" -dd -t -f "/tmp/wpas-$name.log"
    local i
    for i in $(seq 1 "$(scaled 10)"); do [ -S "/tmp/wpas-g-$name" ] && break; nap 0.5; done
    [ -S "/tmp/wpas-g-$name" ] || fail "wpa_supplicant $name did not open its global control socket"
    _wpas_global "$name" "INTERFACE_ADD $wlan		nl80211	/tmp/wpas-$name"
    _WPAS_WLAN=$wlan
}

wpas_start() {
    local name=$1 ns=$2 radio=$3 schedule=${4:-2437:0e000000 5180:f0ffffff} i
    _wpas_launch "$name" "$ns" "$radio"
    _wpas_global "$name" "INTERFACE_ADD nan$name		nl80211	/tmp/wpas-$name			create	nan"
    start_bg "$name-wpas-events" "$ns" python3 "$_lib_dir/wpas-ctl.py" --monitor "/tmp/wpas-$name/nan$name" "$SCENARIO_OUT/$name-events.log"
    for i in $(seq 1 "$(scaled 10)"); do grep -q ATTACHED "$SCENARIO_OUT/$name-events.log" 2>/dev/null && break; nap 0.5; done
    wpas "$name" NAN_SET master_pref 10 >/dev/null
    # WPAS_DUAL_BAND=0: DWs on 2.4 GHz only, as the world regulatory domain allows.
    wpas "$name" NAN_SET dual_band "${WPAS_DUAL_BAND:-1}" >/dev/null
    wpas "$name" NAN_START >/dev/null
    wpas_wait "$name" 'NAN-CLUSTER-JOIN' 30
    # A NAN data interface comes up only while NAN runs (the kernel refuses IFF_UP with ENOLINK before).
    _wpas_global "$name" "INTERFACE_ADD ndi$name		nl80211	/tmp/wpas-$name			create	nan_data"
    wpas "$name" NAN_SCHED_CONFIG_MAP map_id=1 $schedule >/dev/null
    # The NAN interface has no netdev: iw lists it as a non-netdev interface of type NAN.
    WPAS_NMI[$name]=$(in_netns "$ns" iw dev | awk '$1 == "addr" { addr = $2 } $1 == "type" && $2 == "NAN" { print addr; exit }')
    [ -n "${WPAS_NMI[$name]}" ] || fail "no NAN interface address for wpa_supplicant $name in $ns"
    WPAS_NDI[$name]=$(wpas_ndi_address "$name")
    echo "wpa_supplicant $name in $ns: station $_WPAS_WLAN, NMI ${WPAS_NMI[$name]}, NDI ndi$name ${WPAS_NDI[$name]}, schedule $schedule"
}

# One python process sends every control command of the scenario (wpas-ctl.py --serve): started per command,
# python took 1.3-1.5 s of the emulated guest each time, and the interop scenarios send over a hundred. The
# control sockets are files, reachable from any namespace. Commands go one at a time: only the scenario's own
# shell sends them, never a background job.
_WPAS_CTL_REQ=
_WPAS_CTL_REP=
_wpas_ctl_start() {
    [ -z "$_WPAS_CTL_REQ" ] || return 0
    local dir
    dir=$(mktemp -d -p /run wpas-ctl.XXXXXX) || fail "cannot make a folder for the control pipes"
    mkfifo "$dir/requests" "$dir/replies" || fail "cannot make the control pipes in $dir"
    exec {_WPAS_CTL_REQ}<>"$dir/requests" {_WPAS_CTL_REP}<>"$dir/replies"
    python3 "$_lib_dir/wpas-ctl.py" --serve "$dir/requests" "$dir/replies" >"$SCENARIO_OUT/wpas-ctl.log" 2>&1 &
    _BG_PIDS[wpas-ctl]=$!
}

# _wpas_ctl SOCKET COMMAND: sends COMMAND (words joined by spaces; TABs kept) and prints the reply; status 1
# on FAIL, UNKNOWN COMMAND or no reply.
_wpas_ctl() {
    local line status=
    [ -n "$_WPAS_CTL_REQ" ] || fail "the control client is not running (wpas_start starts it)"
    printf '%s\x1f%s\x1f%s\n' "$1" "$WPAS_CTL_TIMEOUT" "$2" >&"$_WPAS_CTL_REQ"
    while IFS= read -r -t $((WPAS_CTL_TIMEOUT + 10)) -u "$_WPAS_CTL_REP" line; do
        if [ "${line:0:1}" = $'\x1e' ]; then status=${line:1}; break; fi
        printf '%s\n' "$line"
    done
    [ -n "$status" ] || { echo "no answer from the control client (see wpas-ctl.log)"; return 1; }
    return "$status"
}

_wpas_global() {
    local name=$1 reply
    reply=$(_wpas_ctl "/tmp/wpas-g-$name" "$2") \
        || fail "wpa_supplicant $name refused '${2//	/<TAB>}': $reply (log: $name-wpas.log)"
}

wpas_try() {
    local name=$1
    shift
    _wpas_ctl "/tmp/wpas-$name/${_WPAS_IFACE[$name]:-nan$name}" "$*"
}

wpas() {
    local name=$1 reply
    shift
    reply=$(wpas_try "$name" "$@") || fail "wpa_supplicant $name refused '$*': $reply (log: $name-wpas.log)"
    printf '%s\n' "$reply"
}

declare -A _WPAS_MARK=()

wpas_mark() { _WPAS_MARK[$1]=$(wc -l <"$SCENARIO_OUT/$1-events.log"); }

wpas_wait() {
    local name=$1 regex=$2 seconds deadline line from
    from=$((${_WPAS_MARK[$name]:-0} + 1))
    seconds=$(scaled "${3:-20}")
    deadline=$(($EPOCHSECONDS + seconds))
    while :; do
        line=$(tail -n +"$from" "$SCENARIO_OUT/$name-events.log" 2>/dev/null | grep -E -m 1 -- "$regex")
        if [ -n "$line" ]; then
            LINE=$line
            printf 'ok: %s events have /%s/: %s\n' "$name" "$regex" "$line"
            return 0
        fi
        if [ "$EPOCHSECONDS" -ge "$deadline" ]; then
            {
                printf 'FAIL: no event matching /%s/ from wpa_supplicant %s after %ss; since the mark it sent:\n' "$regex" "$name" "$seconds"
                tail -n +"$from" "$SCENARIO_OUT/$name-events.log" 2>/dev/null | sed 's/^/    | /'
            } >&2
            exit 1
        fi
        nap 0.2
    done
}

# wpas_transmit NAME ARGS...: NAN_TRANSMIT ARGS from wpa_supplicant NAME, sent again at once when its log says the
# frame went unacknowledged, at most 3 sends in all: what waware's engines do with their own follow-ups
# (USDOptions.followUpAttempts). wpa_supplicant sends one once; a USD peer between two listen periods misses it.
# Benchmarks time from the first NAN_TRANSMIT, so a resend counts in the sample as it does for waware.
wpas_transmit() {
    local name=$1 attempt since status deadline
    shift
    for attempt in 1 2 3; do
        since=$(date +%s.%N)
        wpas "$name" NAN_TRANSMIT "$@" >/dev/null
        deadline=$(($EPOCHSECONDS + $(scaled 2)))
        status=
        while [ -z "$status" ] && [ "$EPOCHSECONDS" -lt "$deadline" ]; do
            status=$(awk -v t0="$since" '{ t = $1; sub(/:$/, "", t) } t + 0 >= t0 + 0 && /NAN: TX status/ {
                if (match($0, /result=[a-z-]+/)) { print substr($0, RSTART + 7, RLENGTH - 7); exit } }' "$(wpas_log "$name")")
            [ -n "$status" ] || nap 0.05
        done
        [ "$status" = no-ack ] || return 0
        echo "note: $name's follow-up went unacknowledged (send $attempt of 3)"
    done
}

wpas_field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

wpas_auto_accept() {
    start_bg "$1-accept" "${_WPAS_NS[$1]}" python3 "$_lib_dir/wpas-ctl.py" --monitor "/tmp/wpas-$1/nan$1" \
        "$SCENARIO_OUT/$1-accept.log" "$2"
    local i
    for i in $(seq 1 "$(scaled 10)"); do grep -q ATTACHED "$SCENARIO_OUT/$1-accept.log" 2>/dev/null && return 0; nap 0.5; done
    fail "wpa_supplicant $1: the auto-accepting monitor did not attach"
}

wpas_auto_accept_stop() { stop_bg "$1-accept" TERM 143; }

# wpas_link_local NAME: the IPv6 link-local address of NAME's data interface (once it is usable).
wpas_link_local() {
    local address i
    for i in $(seq 1 "$(scaled 50)"); do
        address=$(in_netns "${_WPAS_NS[$1]}" ip -6 addr show dev "ndi$1" scope link 2>/dev/null | grep -v tentative \
            | sed -n 's/.*inet6 \(fe80[^/]*\).*/\1/p' | head -n 1)
        [ -n "$address" ] && { echo "$address"; return 0; }
        nap 0.2
    done
    fail "wpa_supplicant $1: ndi$1 has no usable link-local address"
}

# wpas_keep_busy NAME PEER_NDI: NAME pings PEER_NDI's link-local address (EUI-64 of the MAC) over its data
# interface twice a second, from now until wpas_keep_busy_stop NAME. The peer ends a data path after 25 s with
# no unicast packet to or from the peer's NDI station (its max_ndl_idle_period); on a loaded host the bench took
# longer than that to start python for the TCP check, where an application uses its link at once.
wpas_keep_busy() {
    local name=$1 mac=$2 o
    IFS=: read -r -a o <<<"$mac"
    local ll
    ll=$(printf 'fe80::%x%02x:%xff:fe%02x:%x%02x' $((0x${o[0]} ^ 0x02)) "0x${o[1]}" "0x${o[2]}" "0x${o[3]}" "0x${o[4]}" "0x${o[5]}")
    start_bg "$name-busy" "${_WPAS_NS[$name]}" ping -6 -n -i 0.5 "$ll%ndi$name"
}

# wpas_keep_busy_stop NAME: stops NAME's pings; at least one must have been answered.
wpas_keep_busy_stop() { stop_bg "$1-busy" INT; }

# wpas_log NAME: where NAME's -dd log is while the scenario runs (the guest's /tmp; copied out at the end).
wpas_log() { printf '/tmp/wpas-%s.log' "$1"; }

wpas_ndi_address() { in_netns "${_WPAS_NS[$1]}" cat "/sys/class/net/ndi$1/address"; }

wpas_log_after() {
    local at
    at=$(awk -v t0="$2" -v text="$3" '{ t = $1; sub(/:$/, "", t) } t + 0 >= t0 + 0 && index($0, text) { print t; exit }' \
        "$(wpas_log "$1")")
    [ -n "$at" ] || fail "wpa_supplicant $1: no line with '$3' in its log after $2"
    printf '%s\n' "$at"
}

wpas_ndp_setup() {
    local q=$1 p=$2 params=$3 t0 sent q_up p_up
    wpas_mark "$q"
    wpas_mark "$p"
    t0=$(date +%s.%N)
    wpas "$q" NAN_NDP_REQUEST "$params" >/dev/null
    NDP_SETUP=
    wpas_wait "$q" "NAN-NDP-CONNECTED .*peer=${WPAS_NMI[$p]}|NAN-NDP-DISCONNECTED" 120
    if [[ $LINE != *NAN-NDP-CONNECTED* ]]; then
        # A setup that failed (its 2 s NDP timeouts fire on a loaded emulated host): both sides drop it.
        wpas_wait "$p" "NAN-NDP-DISCONNECTED .*peer=${WPAS_NMI[$q]}" 60
        return 1
    fi
    NDP_ID=$(wpas_field "$LINE" ndp_id)
    NDP_PEER_NDI=$(wpas_field "$LINE" peer_ndi)
    wpas_wait "$p" "NAN-NDP-CONNECTED .*peer=${WPAS_NMI[$q]}" 60
    sent=$(wpas_log_after "$q" "$(wpas_log_after "$q" "$t0" "Control interface command 'NAN_NDP_REQUEST")" "NAN: send_naf")
    q_up=$(wpas_log_after "$q" "$sent" "NAN-NDP-CONNECTED")
    p_up=$(wpas_log_after "$p" "$sent" "NAN-NDP-CONNECTED")
    NDP_SETUP=$(awk -v a="$sent" -v b="$q_up" -v c="$p_up" 'BEGIN { printf "%.3f", (b > c ? b : c) - a }')
}

# wpas_ndp_end Q P: Q ends the data path wpas_ndp_setup made; both report it down.
wpas_ndp_end() {
    wpas_mark "$1"
    wpas_mark "$2"
    wpas "$1" NAN_NDP_TERMINATE peer_nmi="${WPAS_NMI[$2]}" init_ndi="${WPAS_NDI[$1]}" ndp_id="$NDP_ID" >/dev/null
    wpas_wait "$1" "NAN-NDP-DISCONNECTED .*peer=${WPAS_NMI[$2]}" 60
    wpas_wait "$2" "NAN-NDP-DISCONNECTED .*peer=${WPAS_NMI[$1]}" 60
}
