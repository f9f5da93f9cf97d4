# The scenario library, sourced by every tools/vm/scenarios/<name>.sh inside the VM.
#
# The runner loads mac80211_hwsim with no radios before each scenario and removes everything after it.
# Environment: WAWARE (the waware binary), SCENARIO_NAME, SCENARIO_OUT (a results folder kept on the host).
#
# Radios and namespaces
#   sim_radios N             create N NAN-capable radios; their wiphy names go into PHYS[0..N-1]
#   radio_netns I NS         create network namespace NS and move radio I into it
#   in_netns NS CMD...       run CMD inside NS (foreground)
#   start_bg NAME NS CMD...  run CMD inside NS in the background, output to $SCENARIO_OUT/NAME.log
#   stop_bg NAME [SIGNAL [STATUS]]  stop it (default TERM) and wait for it; fails the scenario if it had
#                            already ended before the signal (a crash mid-scenario) or if its exit status
#                            is not STATUS (default: 0 after TERM or INT, waware's clean teardown;
#                            128+9 after KILL)
#   wait_bg NAME STATUS [SECONDS]   wait (default 30 s) for NAME to end by itself with exit status STATUS
#   expect_running NAME...   fail if any of these background processes has ended
#                            Every background process is checked when the scenario ends: one that ended
#                            by itself without a wait_bg fails the scenario, with its exit status.
#   bg_log NAME              path of NAME's log
#   event_field LOG EVENT FIELD...   FIELD of the last JSON line in LOG whose "event" is EVENT
#                            (for `waware ... --json` logs; empty when there is none); with several
#                            fields, one line each, in order (one python3 start instead of several: each
#                            costs seconds in a loaded guest)
#   ww ARGS...               run "$WAWARE" ARGS with a time limit (WW_TIMEOUT, default 30 s, scaled); a
#                            hang is reported as such (exit 124) instead of eating the scenario's timeout
# Time limits
#   scaled SECONDS           SECONDS times WAWARE_VM_TIME_SCALE (default 4): every limit a scenario waits
#                            up to (wait_for_line, wait_bg, ww, `--timeout` of a waware it runs, the
#                            scenario's own timeout in the runner) is scaled, so a loaded 2-core host, where
#                            software emulation runs many times slower, does not fail a correct scenario.
#                            A limit costs time only when it is hit; fixed delays (`sleep`) are not scaled.
# Checks (each prints what was expected and what was seen, and fails the scenario on mismatch;
# FAIL messages go to stderr, so they show even where a scenario hides the ok lines)
#   step TEXT                print a step heading, with the seconds since the scenario started
#   wait_for_line FILE REGEX [SECONDS]   wait until FILE has a line matching REGEX (ERE, default 20 s);
#                            the line is left in $LINE
#   wait_for_count FILE REGEX N [SECONDS]   wait until FILE has at least N lines matching REGEX (default 20 s)
#   expect_eq WHAT EXPECTED ACTUAL
#   expect_match WHAT REGEX ACTUAL
#   expect_line WHAT REGEX TEXT         some line of TEXT matches REGEX
#   expect_contains WHAT NEEDLE TEXT
#   expect_not_contains WHAT NEEDLE TEXT
#   expect_nothing_found WHAT STATUS OUTPUT   a `subscribe --json --count N --timeout S` that must find
#                            nothing: it started (a "started" event), ran until its timeout (a
#                            "terminated" event with reason timeout, exit status 1 with the "found 0 of"
#                            message) and reported no discovery. OUTPUT is its stdout and stderr.
# Data paths
#   ndp_setup PUB SUB CMD... one data path to PUB, a `publish --accept-data-paths --json` in dA: starts SUB in dB
#                            running CMD (a `subscribe --count 1 --data-path --json` with WAWARE_TRACE=1), waits
#                            for its data-path-up or -down, then for PUB's next data-path-up. NDP_SETUP: the
#                            seconds from B's Data Path Request leaving (its trace line `dp tx 5`) to the later of
#                            the two data-path-up records (one guest clock). On B's data-path-down: status 1 and
#                            NDP_SETUP empty. SUB keeps running either way.
#   ndp_end PUB SUB          stop SUB (SIGINT) and wait for PUB's data-path-down
# Baselines on the same radios
#   mesh_join FREQ NAME [WIDTH]   an open 802.11s mesh NAME on FREQ MHz (WIDTH as `iw mesh join` takes it:
#                            NOHT, HT20, ...; default the kernel's) between radio 0 (in dA, netdev mesh0) and
#                            radio 1 (in dB, mesh1), the way to link two hwsim radios without NAN (IBSS
#                            does not form on hwsim): waits for the peering and for both link-local
#                            addresses; A's goes into MESH_ADDR_A. The radios' NAN interfaces must be gone.
#   iperf_mbps NAME NS_SERVER NS_CLIENT IF_SERVER IF_CLIENT SERVER_ADDRESS SECONDS [OMIT]   one iperf3 TCP
#                            run, client to server over the link-local address, the first OMIT seconds
#                            (default 0: slow start, a mesh path still being found) left out; the Mbit/s
#                            received go into IPERF_MBPS (fails the scenario when iperf3 fails or reports
#                            nothing)
# Regulatory domain
#   set_country CC           `iw reg set CC`, then checks with `iw reg get` that the domain took effect
#                            (without wireless-regdb's regulatory.db it silently stays world): fails loudly
#   fail TEXT
# Figures: percentiles and in_dw, as on the host (tools/lib/stats.sh)
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/stats.sh"

WAWARE=${WAWARE:-waware}
SCENARIO_NAME=${SCENARIO_NAME:-scenario}
SCENARIO_OUT=${SCENARIO_OUT:-/tmp/$SCENARIO_NAME}
mkdir -p "$SCENARIO_OUT"
_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

TIME_SCALE=${WAWARE_VM_TIME_SCALE:-4}
scaled() { awk -v s="$1" -v k="$TIME_SCALE" 'BEGIN { printf "%d", s * k + 0.5 }'; }

PHYS=()
LINE=
declare -A _BG_PIDS=()

_lib_start=$(date +%s.%N)

# nap SECONDS: sleeps without starting a program. The wait loops below poll several times a second for minutes,
# and under software emulation every program start (sleep, date) costs tens of milliseconds of the guest's CPU,
# which the scenarios' own processes then lack. A read with a timeout on a pipe nobody writes to is a builtin
# sleep; $EPOCHSECONDS is a builtin clock.
exec {_nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$_nap_fd" _ || :; }
step() { printf '\n== [+%ss] %s\n' "$(awk -v a="$_lib_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" "$*"; }

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

# Background processes end with the scenario, whatever way it ends. One that already ended by itself
# (no stop_bg or wait_bg took its status) crashed or quit mid-scenario: that fails the scenario.
_lib_cleanup() {
    local rc=$? name pid status ended=()
    for name in "${!_BG_PIDS[@]}"; do
        pid=${_BG_PIDS[$name]}
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null
        else
            wait "$pid" 2>/dev/null
            status=$?
            ended+=("$name (exit $status)")
            _bg_tail "$name"
        fi
    done
    if [ ${#ended[@]} -gt 0 ]; then
        printf 'FAIL: background process(es) ended by themselves during the scenario: %s\n' "${ended[*]}" >&2
        exit 1
    fi
    exit "$rc"
}
trap _lib_cleanup EXIT

# The last lines of a background process's log, to stderr (for a FAIL message).
_bg_tail() {
    printf '  last lines of %s:\n' "$(bg_log "$1")" >&2
    tail -n 15 "$(bg_log "$1")" 2>/dev/null | sed 's/^/    | /' >&2
}

# How radios are made: WAWARE_VM_SIM=waware (`waware sim add`, the default) or python (the dev aid
# hwsim-radio.py, to debug the bench without waware).
_sim_tool() {
    case ${WAWARE_VM_SIM:-waware} in
        waware | python) echo "${WAWARE_VM_SIM:-waware}" ;;
        *) fail "WAWARE_VM_SIM must be waware or python, not '$WAWARE_VM_SIM'" ;;
    esac
}

# sim_radios COUNT [--no-nan]: make COUNT radios (PHYS lists them); --no-nan makes plain station radios,
# like an ordinary Wi-Fi card without NAN (waware's tool only).
sim_radios() {
    local count=$1 kind=${2:-} before after tool
    before=$(ls /sys/class/ieee80211 2>/dev/null)
    tool=$(_sim_tool)
    echo "creating $count ${kind:+plain (no NAN) }radio(s) with $tool"
    if [ "$kind" = --no-nan ]; then
        [ "$tool" = waware ] || fail "radios without NAN need WAWARE_VM_SIM=waware"
        "$WAWARE" sim add --count "$count" --no-nan || fail "waware sim add --count $count --no-nan failed"
    elif [ "$tool" = waware ]; then
        "$WAWARE" sim add --count "$count" || fail "waware sim add --count $count failed"
    else
        python3 "$_lib_dir/hwsim-radio.py" new --count "$count" || fail "hwsim-radio.py could not create $count radios"
    fi
    after=$(ls /sys/class/ieee80211)
    # New wiphys, in creation order (their index grows).
    mapfile -t PHYS < <(comm -13 <(printf '%s\n' $before | sort) <(printf '%s\n' $after | sort) | sort -V)
    [ ${#PHYS[@]} -eq "$count" ] || fail "expected $count new wiphys, saw ${#PHYS[@]}: ${PHYS[*]}"
    echo "radios: ${PHYS[*]}"
}

radio_netns() {
    local index=$1 ns=$2 phy=${PHYS[$1]:-}
    [ -n "$phy" ] || fail "no radio $index (sim_radios made ${#PHYS[@]})"
    ip netns add "$ns" || fail "ip netns add $ns failed"
    iw phy "$phy" set netns name "$ns" || fail "iw phy $phy set netns name $ns failed"
    ip -n "$ns" link set lo up
    echo "radio $index ($phy) is in netns $ns"
}

in_netns() {
    local ns=$1
    shift
    ip netns exec "$ns" "$@"
}

ww() {
    local limit
    limit=$(scaled "${WW_TIMEOUT:-30}")
    timeout -k 2 "$limit" "$WAWARE" "$@"
    local rc=$?
    [ $rc = 124 ] && printf 'HANG: waware %s did not finish within %ss\n' "$*" "$limit" >&2
    return $rc
}

event_field() {
    local path=$1 event=$2 attempt out
    shift 2
    # jq, not python: under software emulation python takes over a second to start, and the scenarios ask for
    # fields dozens of times. A log that another process is writing through 9p can fail to read (ENODATA, EIO)
    # on a loaded host: read it again rather than answer "" for a field that is there.
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        if out=$(jq -n -R -r --arg e "$event" '
                [inputs | fromjson? | select(type == "object" and .event == $e)] as $records
                | $ARGS.positional[] as $field
                | [$records[] | select(has($field)) | .[$field]] | last // ""
                | if type == "string" then . else tojson end' "$path" --args "$@" 2>&1); then
            printf '%s\n' "$out"
            return 0
        fi
        nap 0.5
    done
    fail "event_field: cannot read $path: $out"
}

# load_settings NAME...: a benchmark's settings from the host. The guest does not see the host's environment,
# so a host script writes them to a file (tools/lib/common.sh: scenario_config) that tools/vm/run hands over as
# WAWARE_VM_SCENARIO_CONFIG: `NAME<TAB>VALUE` lines. Each line sets the shell variable NAME, which must be one of
# the names given; any other name, or a file that cannot be read, fails the scenario. No file: nothing is set.
load_settings() {
    local config=${WAWARE_VM_SCENARIO_CONFIG:-} name value allowed known
    [ -n "$config" ] || return 0
    [ -r "$config" ] || fail "cannot read the settings file $config"
    while IFS=$'\t' read -r name value; do
        [ -n "$name" ] || continue
        allowed=
        for known in "$@"; do [ "$name" = "$known" ] && allowed=1; done
        [ -n "$allowed" ] || fail "unknown setting '$name' in $config (this scenario takes: $*)"
        printf -v "$name" '%s' "$value"
    done <"$config"
}

bg_log() { printf '%s/%s.log' "$SCENARIO_OUT" "$1"; }

start_bg() {
    local name=$1 ns=$2
    shift 2
    ip netns exec "$ns" "$@" >"$(bg_log "$name")" 2>&1 &
    _BG_PIDS[$name]=$!
    echo "started $name in $ns (pid $!): $*"
}

stop_bg() {
    local name=$1 signal=${2:-TERM} pid=${_BG_PIDS[$1]:-} expected=${3:-}
    [ -n "$pid" ] || fail "no background process named $name"
    if [ -z "$expected" ]; then
        case $signal in
            KILL | 9) expected=137 ;;
            *) expected=0 ;;
        esac
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null
        local early=$?
        unset "_BG_PIDS[$name]"
        _bg_tail "$name"
        fail "$name had already ended (exit $early) before it was to be stopped with SIG$signal"
    fi
    kill -s "$signal" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local rc=$?
    unset "_BG_PIDS[$name]"
    echo "stopped $name with SIG$signal (exit $rc)"
    if [ "$rc" != "$expected" ]; then
        _bg_tail "$name"
        fail "$name exited $rc after SIG$signal, expected $expected"
    fi
    return 0
}

wait_bg() {
    local name=$1 expected=$2 seconds pid=${_BG_PIDS[$1]:-} deadline
    seconds=$(scaled "${3:-30}")
    [ -n "$pid" ] || fail "no background process named $name"
    deadline=$(($EPOCHSECONDS + seconds))
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$EPOCHSECONDS" -ge "$deadline" ]; then
            _bg_tail "$name"
            fail "$name did not end by itself within ${seconds}s"
        fi
        nap 0.2
    done
    wait "$pid" 2>/dev/null
    local rc=$?
    unset "_BG_PIDS[$name]"
    echo "$name ended by itself (exit $rc)"
    if [ "$rc" != "$expected" ]; then
        _bg_tail "$name"
        fail "$name ended with exit $rc, expected $expected"
    fi
}

expect_running() {
    local name pid
    for name in "$@"; do
        pid=${_BG_PIDS[$name]:-}
        [ -n "$pid" ] || fail "no background process named $name"
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null
            local rc=$?
            unset "_BG_PIDS[$name]"
            _bg_tail "$name"
            fail "$name is no longer running (exit $rc)"
        fi
        printf 'ok: %s is running\n' "$name"
    done
}

# pair_with_pin NS_A STORE_A NS_B STORE_B [PIN_WAIT]: A (in NS_A, store STORE_A) shows a PIN and waits; B (in
# NS_B, store STORE_B) pairs with that PIN. A stores B under the name "B", B stores A as "A". B's output is
# left in PAIR_OUT; the scenario fails when either side does. PIN_WAIT: the seconds (scaled) A may take to
# show its PIN (default 60). PAIR_ARGS (an array, optional): more `waware pair` options for both sides, such
# as (--cipher-suite 256). Call it directly, not inside $(...), so that a failure ends the scenario.
pair_with_pin() {
    local ns_a=$1 store_a=$2 ns_b=$3 store_b=$4 pin
    local -a extra=()
    [ -n "${PAIR_ARGS+set}" ] && extra=("${PAIR_ARGS[@]}")
    start_bg pairA "$ns_a" "$WAWARE" pair --store "$store_a" --name B --timeout "$(scaled 90)" "${extra[@]}"
    wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' "${5:-60}"
    pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA)" | head -n 1)
    PAIR_OUT=$(in_netns "$ns_b" "$WAWARE" pair --pin "$pin" --name A --store "$store_b" --timeout "$(scaled 90)" "${extra[@]}" 2>&1) \
        || fail "B could not pair: $PAIR_OUT"
    wait_bg pairA 0 60
}

# wait_link_local NS DEV ADDRESS: waits until ADDRESS is on DEV in netns NS and no longer tentative (duplicate
# address detection done, so TCP can bind to it); fails the scenario when it never gets there.
wait_link_local() {
    local ns=$1 dev=$2 addr=$3 i
    for i in $(seq 1 "$(scaled 50)"); do
        in_netns "$ns" ip -6 addr show dev "$dev" scope link | grep -v tentative | grep -qF -- "$addr" && {
            printf 'ok: %s: %s on %s (DAD done)\n' "$ns" "$addr" "$dev"
            return 0
        }
        nap 0.2
    done
    fail "$ns: $addr never became usable on $dev (still tentative or missing)"
}

# tcp_both_ways NAME PORT SIZE IF_A ADDRESS_A IF_B: a TCP exchange over a data path, A (netns dA) serving on
# its data interface IF_A, B (dB) connecting from IF_B to A's link-local ADDRESS_A: SIZE bytes go each way
# and each side's SHA-256 must be that of what the other sent. NAME names A's background job.
tcp_both_ways() {
    local name=$1 port=$2 size=$3 if_a=$4 addr_a=$5 if_b=$6 tcp="$_lib_dir/tcp-exchange.py" out
    start_bg "$name" dA python3 "$tcp" server "$if_a" "$port" "$size" 11
    wait_for_line "$(bg_log "$name")" 'listening' 60
    out=$(in_netns dB timeout "$(scaled 200)" python3 "$tcp" client "$if_b" "$addr_a" "$port" "$size" 22) \
        || fail "TCP client failed: $out"
    echo "    B: $out"
    wait_for_line "$(bg_log "$name")" '^received' 60
    _tcp_digests "$size"
    expect_eq "B got A's bytes" "received $size sha256 ${_TCP_DIGEST[$size-11]}" "$out"
    expect_eq "A got B's bytes" "received $size sha256 ${_TCP_DIGEST[$size-22]}" "$LINE"
    wait_bg "$name" 0 30
}

# _tcp_digests SIZE: the SHA-256 of SIZE bytes of the streams A (seed 11) and B (seed 22) send, in
# _TCP_DIGEST[SIZE-SEED]; computed once a scenario (python's start takes over a second under emulation).
declare -A _TCP_DIGEST=()
_tcp_digests() {
    [ -z "${_TCP_DIGEST[$1-11]:-}" ] || return 0
    local digests
    mapfile -t digests < <(python3 "$_lib_dir/tcp-exchange.py" digest "$1" 11 22)
    [ "${#digests[@]}" = 2 ] || fail "no digests of the $1-byte TCP streams"
    _TCP_DIGEST[$1-11]=${digests[0]}
    _TCP_DIGEST[$1-22]=${digests[1]}
}

# The air, as hwsim's monitor interface (hwsim0, in the initial namespace) sees every radio's frames: proof that
# a secure data path encrypts what it carries. air_capture_start NAME counts the data frames from now on
# (air-data.py); air_ping NS IF ADDRESS sends six pings whose payload is AIR_PATTERN ("waware-air-test") from NS
# over IF to ADDRESS; air_capture_stop NAME ends the count and sets AIR_DATA (data frames with a body),
# AIR_UNICAST, AIR_PROTECTED, AIR_PLAIN_UNICAST (unicast ones without the Protected bit) and AIR_SEEN_PATTERN
# (frames holding AIR_PATTERN anywhere).
AIR_PATTERN=7761776172652d6169722d74657374
air_capture_start() {
    ip link set hwsim0 up 2>/dev/null || fail "no hwsim0 monitor interface to watch the air on"
    python3 "$_lib_dir/air-data.py" "$AIR_PATTERN" hwsim0 >"$(bg_log "$1")" 2>&1 &
    _BG_PIDS[$1]=$!
    wait_for_line "$(bg_log "$1")" '^listening' 30
}
air_ping() {
    in_netns "$1" ping -6 -n -c 6 -i 0.2 -W 2 -p "$AIR_PATTERN" "$3%$2" | tail -n 2 | sed 's/^/    /'
    [ "${PIPESTATUS[0]}" = 0 ] || fail "$1: no answer to the pings over $2 to $3"
}
air_capture_stop() {
    stop_bg "$1" INT
    local counts
    counts=$(tail -n 1 "$(bg_log "$1")" | jq -r '[.data, .unicast, .protected, .plainUnicast, .pattern] | @tsv' 2>/dev/null)
    read -r AIR_DATA AIR_UNICAST AIR_PROTECTED AIR_PLAIN_UNICAST AIR_SEEN_PATTERN <<<"$counts"
    [ -n "${AIR_SEEN_PATTERN:-}" ] || fail "the air capture $1 gave no counts: $(cat "$(bg_log "$1")")"
    echo "    air: $AIR_DATA data frames, $AIR_UNICAST unicast, $AIR_PROTECTED protected, $AIR_PLAIN_UNICAST unicast in the clear, $AIR_SEEN_PATTERN holding the pings' payload"
}

# paired_data_path_with_tcp STATE_A STATE_B CIPHER PORT: A (in dA, state folder STATE_A) publishes _pdp._tcp
# accepting data paths keyed by pairing, B (in dB, STATE_B) requests one with no security option: B verifies A
# first, both sides report CIPHER, each side's peer NDI station is authorized with MFP, and TCP carries 64 KiB
# each way byte-exact on PORT; both sides are stopped after. For the pairing-datapath scenarios, after a pairing.
paired_data_path_with_tcp() {
    local dir_a=$1 dir_b=$2 cipher=$3 port=$4 size=65536
    local ifA localA cipherA ifB localB cipherB peerB ns dev dump ns_dev
    step "A accepts data paths keyed by pairing; B requests one (no passphrase, no suite named)"
    start_bg pub dA env WAWARE_STATE_DIR="$dir_a" "$WAWARE" publish _pdp._tcp --accept-data-paths --json
    wait_for_line "$(bg_log pub)" '"event":"started"' 60
    start_bg sub dB env WAWARE_STATE_DIR="$dir_b" "$WAWARE" subscribe _pdp._tcp --count 1 --data-path --json
    wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"|^waware: ' 400
    expect_contains "B verified A first" '"event":"verified"' "$(cat "$(bg_log sub)")"
    wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
    { read -r ifA; read -r localA; read -r cipherA; } < <(event_field "$(bg_log pub)" data-path-up interface localAddress cipherSuite)
    { read -r ifB; read -r localB; read -r cipherB; read -r peerB; } \
        < <(event_field "$(bg_log sub)" data-path-up interface localAddress cipherSuite peerAddress)
    expect_eq "A's cipher" "$cipher" "$cipherA"
    expect_eq "B's cipher" "$cipher" "$cipherB"
    expect_eq "B's peer address is A's own" "$localA" "$peerB"
    for ns_dev in "dA $ifA" "dB $ifB"; do
        read -r ns dev <<<"$ns_dev"
        dump=$(in_netns "$ns" iw dev "$dev" station dump)
        expect_match "$ns: the peer's NDI station on $dev is authorized" 'authorized:[[:space:]]*yes' "$dump"
        expect_match "$ns: the peer's NDI station on $dev has MFP (keyed)" 'MFP:[[:space:]]*yes' "$dump"
    done

    step "TCP 64 KiB each way over the $cipher data path"
    wait_link_local dA "$ifA" "$localA"
    wait_link_local dB "$ifB" "$localB"
    tcp_both_ways tcp "$port" "$size" "$ifA" "$localA" "$ifB"
    stop_bg sub INT
    stop_bg pub INT
}

mesh_join() {
    local freq=$1 name=$2 width=${3:-} i ns
    # The baseline comes after a scenario's NAN steps: the runner judges the kernel's warnings from here on as
    # the mesh's (hwsim warns on its mesh frames in ways that vary from run to run) and lists them without
    # failing; a BUG, oops or panic still fails.
    echo "waware-vm-baseline: an 802.11s mesh, no NAN, from here on" >/dev/kmsg
    for i in 0 1; do
        ns=$([ $i = 0 ] && echo dA || echo dB)
        in_netns "$ns" iw phy "${PHYS[$i]}" interface add mesh$i type mp || fail "mesh interface on ${PHYS[$i]} refused"
        in_netns "$ns" ip link set mesh$i up || fail "mesh$i up failed"
        in_netns "$ns" iw dev mesh$i mesh join "$name" freq "$freq" $width || fail "mesh join on $freq MHz $width refused"
    done
    for i in $(seq 1 "$(scaled 30)"); do
        in_netns dA iw dev mesh0 station dump | grep -q 'mesh plink:.*ESTAB' && break
        sleep 1
    done
    expect_match "mesh peering" 'ESTAB' "$(in_netns dA iw dev mesh0 station dump | grep 'mesh plink')"
    in_netns dA iw dev mesh0 info | sed 's/^/    A mesh: /'
    for i in $(seq 1 50); do
        in_netns dA ip -6 addr show dev mesh0 scope link | grep -q tentative || in_netns dB ip -6 addr show dev mesh1 scope link | grep -q tentative || break
        nap 0.2
    done
    MESH_ADDR_A=$(in_netns dA ip -6 addr show dev mesh0 scope link | sed -n 's/.*inet6 \(fe80[^/]*\).*/\1/p' | head -n 1)
    [ -n "$MESH_ADDR_A" ] || fail "mesh0 has no link-local address"
}

iperf_mbps() {
    local name=$1 ns_server=$2 ns_client=$3 if_server=$4 if_client=$5 address=$6 seconds=$7 omit=${8:-0} out bps
    start_bg "iperf-$name" "$ns_server" iperf3 -s -1 -B "$address%$if_server" -p 5201
    sleep 1
    out=$(in_netns "$ns_client" timeout "$(scaled $((seconds + omit + 30)))" iperf3 -c "$address%$if_client" -p 5201 -t "$seconds" -O "$omit" -J) \
        || fail "$name: iperf3 failed: $(tail -n 5 <<<"$out")"
    wait_bg "iperf-$name" 0 30
    bps=$(jq -e '.end.sum_received.bits_per_second' <<<"$out") || fail "$name: no throughput in iperf3's output"
    IPERF_MBPS=$(awk -v b="$bps" 'BEGIN { printf "%.3f", b / 1e6 }')
    echo "$name: $IPERF_MBPS Mbit/s"
}

# wawared_status NS SOCKET: the lines of wawared's status reply (docs/daemon.md), asked over SOCKET from NS.
wawared_status() {
    in_netns "$1" python3 -c '
import socket, sys, json
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"{\"v\":1,\"id\":1,\"method\":\"status\"}\n")
print("\n".join(json.loads(s.makefile().readline())["reply"]["lines"]))' "$2"
}

wait_for_line() {
    local file=$1 regex=$2 seconds deadline line
    seconds=$(scaled "${3:-20}")
    deadline=$(($EPOCHSECONDS + seconds))
    while :; do
        line=$(grep -E -m 1 -- "$regex" "$file" 2>/dev/null)
        if [ -n "$line" ]; then
            LINE=$line
            printf 'ok: %s has /%s/: %s\n' "${file##*/}" "$regex" "$line"
            return 0
        fi
        if [ "$EPOCHSECONDS" -ge "$deadline" ]; then
            {
                printf 'FAIL: no line matching /%s/ in %s after %ss; it holds:\n' "$regex" "${file##*/}" "$seconds"
                sed 's/^/    | /' "$file" 2>/dev/null
            } >&2
            exit 1
        fi
        nap 0.2
    done
}

wait_for_count() {
    local deadline=$(($EPOCHSECONDS + $(scaled "${4:-20}")))
    while [ "$(grep -c -E -- "$2" "$1" 2>/dev/null)" -lt "$3" ]; do
        [ "$EPOCHSECONDS" -lt "$deadline" ] || fail "${1##*/}: fewer than $3 lines matching /$2/ after $(scaled "${4:-20}") s"
        nap 0.2
    done
}

_json_time() { sed -n 's/.*"time":\([0-9.]*\).*/\1/p'; }
ndp_setup() {
    local pub=$1 sub=$2 ups t0 t1 t2
    shift 2
    NDP_SETUP=
    ups=$(grep -c '"event":"data-path-up"' "$(bg_log "$pub")")
    start_bg "$sub" dB "$@"
    wait_for_line "$(bg_log "$sub")" '"event":"data-path-(up|down)"' 300 >/dev/null
    [[ $LINE == *'"event":"data-path-up"'* ]] || return 1
    t1=$(_json_time <<<"$LINE")
    wait_for_count "$(bg_log "$pub")" '"event":"data-path-up"' $((ups + 1)) 60
    t2=$(grep '"event":"data-path-up"' "$(bg_log "$pub")" | tail -n 1 | _json_time)
    t0=$(sed -n 's/^trace \([0-9.]*\) dp tx 5 .*/\1/p' "$(bg_log "$sub")" | head -n 1)
    [ -n "$t0" ] || fail "$sub: no Data Path Request (trace line 'dp tx 5') in B's log: WAWARE_TRACE=1 missing?"
    NDP_SETUP=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (b > c ? b : c) - a }')
}

ndp_end() {
    local downs
    downs=$(grep -c '"event":"data-path-down"' "$(bg_log "$1")")
    stop_bg "$2" INT
    wait_for_count "$(bg_log "$1")" '"event":"data-path-down"' $((downs + 1)) 60
}

expect_eq() {
    if [ "$2" = "$3" ]; then
        printf 'ok: %s = %s\n' "$1" "$3"
    else
        printf 'FAIL: %s\n  expected: %s\n  seen:     %s\n' "$1" "$2" "$3" >&2
        exit 1
    fi
}

# Fails check WHAT ($1): prints the expectation ($2) and the text seen ($3), each line indented, to stderr.
_fail_seen() {
    printf 'FAIL: %s\n  %s\n  seen:\n%s\n' "$1" "$2" "$(printf '%s\n' "$3" | sed 's/^/    | /')" >&2
    exit 1
}

expect_match() {
    if [[ $3 =~ $2 ]]; then
        printf 'ok: %s matches /%s/\n' "$1" "$2"
    else
        _fail_seen "$1" "expected to match: /$2/" "$3"
    fi
}

# expect_line WHAT REGEX TEXT: some line of TEXT matches REGEX (ERE; ^ and $ anchor to the line, where
# expect_match's [[ =~ ]] anchors them to the whole multi-line text).
expect_line() {
    if grep -qE -- "$2" <<<"$3"; then
        printf 'ok: %s: a line matches /%s/\n' "$1" "$2"
    else
        _fail_seen "$1" "expected a line matching: /$2/" "$3"
    fi
}

expect_contains() {
    if [[ $3 == *"$2"* ]]; then
        printf 'ok: %s contains "%s"\n' "$1" "$2"
    else
        _fail_seen "$1" "expected to contain: $2" "$3"
    fi
}

expect_not_contains() {
    if [[ $3 != *"$2"* ]]; then
        printf 'ok: %s does not contain "%s"\n' "$1" "$2"
    else
        _fail_seen "$1" "expected NOT to contain: $2" "$3"
    fi
}

expect_nothing_found() {
    local what=$1 status=$2 out=$3
    expect_contains "$what: the subscribe started" '"event":"started"' "$out"
    expect_match "$what: it ran until its timeout" '"event":"terminated"[^}]*"reason":"timeout"' "$out"
    expect_match "$what: it said it found none" 'waware: found 0 of [0-9]+ publishers' "$out"
    expect_eq "$what: exit status (timeout, nothing found)" 1 "$status"
    expect_not_contains "$what: no discovery" '"event":"discovered"' "$out"
}

set_country() {
    local cc=$1 seen deadline
    iw reg set "$cc" || fail "iw reg set $cc failed"
    # The kernel applies the new domain asynchronously (it loads regulatory.db); give it a moment.
    deadline=$(($EPOCHSECONDS + 10))
    while seen=$(iw reg get 2>&1); ! grep -q "^country $cc:" <<<"$seen"; do
        if [ "$EPOCHSECONDS" -ge "$deadline" ]; then
            printf 'FAIL: iw reg set %s did not take effect (is /lib/firmware/regulatory.db there? package wireless-regdb); iw reg get says:\n%s\n' \
                "$cc" "$(sed 's/^/    | /' <<<"$seen")" >&2
            exit 1
        fi
        nap 0.2
    done
    printf 'ok: regulatory domain is %s (%s)\n' "$cc" "$(grep "^country $cc:" <<<"$seen")"
}
