#!/bin/bash
# wawared (issue 29, docs/daemon.md) owns radio 0 and serves three waware clients on its one NMI at once: A
# subscribes to _s1, B to _s2 (both published by an in-process peer on radio 1), C publishes _c3 (found by a
# peer on radio 2). Each client says "using wawared" and sees only its own service's events; the peer sees C at the
# daemon's NMI. Then B is killed with SIGKILL: A and C run on, the daemon's status lists no session of B's, and
# a new passive subscribe to _s2 is told of the publisher at once from what the daemon heard (instant
# discovery), and `waware diagnose` reports the daemon: its version, protocol, adapter and clients. Last, a user
# outside the group is refused in one line (exit 77), and diagnose says why for that user.
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

WAWARED=$(dirname "$WAWARE")/wawared
SOCK=/tmp/wawared-clients.sock

sim_radios 3
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dC

step "the peer (its own radio, in process) publishes _s1 and _s2"
start_bg peer dB env WAWARE_DAEMON=off "$WAWARE" publish _s1._tcp,_s2._tcp --info peer --json
wait_for_count "$(bg_log peer)" '"event":"started"' 2 30

step "wawared on radio 0, three clients"
start_bg daemon dA "$WAWARED" --socket "$SOCK"
wait_for_line "$(bg_log daemon)" 'listening at' 30
start_bg A dA env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" "$WAWARE" subscribe _s1._tcp --json
start_bg B dA env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" "$WAWARE" subscribe _s2._tcp --json
start_bg C dA env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" "$WAWARE" publish _c3._tcp --info three --json
for c in A B C; do wait_for_line "$(bg_log $c)" '"event":"started"' 60; done
wait_for_line "$(bg_log A)" '"event":"discovered"' 30
wait_for_line "$(bg_log B)" '"event":"discovered"' 30
found=$(in_netns dC env WAWARE_DAEMON=off "$WAWARE" subscribe _c3._tcp --count 1 --timeout "$(scaled 30)" --json 2>&1) \
    || fail "the other peer's subscribe failed: $found"
echo "$found"
expect_contains "a peer on radio 2 found C's publish" '"info":"three"' "$found"
nmi=$(grep -m1 '"event":"started"' "$(bg_log C)" | sed -n 's/.*"address":"\([0-9a-f:]*\)".*/\1/p')
expect_contains "at the daemon's NMI, shared by the clients" "\"peer\":\"$nmi\"" "$found"
for c in A B C; do
    expect_contains "$c says it uses the daemon" 'waware: using wawared' "$(cat "$(bg_log $c)")"
done
expect_not_contains "A sees nothing of _s2" '_s2._tcp' "$(cat "$(bg_log A)")"
expect_not_contains "B sees nothing of _s1" '_s1._tcp' "$(cat "$(bg_log B)")"
expect_not_contains "C discovered nothing" '"event":"discovered"' "$(cat "$(bg_log C)")"
status=$(wawared_status dA "$SOCK")
echo "$status"
expect_eq "sessions in the daemon" 3 "$(echo "$status" | grep -c ' session ')"

step "B killed mid-session: the others run on, B's session is gone"
stop_bg B KILL
nap 2
expect_running A C daemon
status=$(wawared_status dA "$SOCK")
echo "$status"
expect_eq "sessions left in the daemon" 2 "$(echo "$status" | grep -c ' session ')"

step "waware diagnose reports the daemon (A, C and diagnose itself are its clients)"
out=$(in_netns dA env WAWARED_SOCKET="$SOCK" "$WAWARE" diagnose 2>&1) || fail "waware diagnose exited $?: $out"
echo "$out" | grep wawared
expect_line "the wawared line" "^  ok +wawared: wawared [0-9.]+ \(protocol 1\) answers at $SOCK: serves ${PHYS[0]}, 3 clients$" "$out"

step "instant discovery: a new passive subscribe to _s2 (B's lease gone with B) is told at once"
t0=$(date +%s.%N)
out=$(in_netns dA env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" "$WAWARE" subscribe _s2._tcp --count 1 \
    --timeout "$(scaled 20)" --json 2>&1) || fail "the new subscribe failed: $out"
t1=$(date +%s.%N)
echo "$out"
expect_contains "found the peer" '"event":"discovered"' "$out"
echo "figure: new passive subscribe through wawared, process start to exit: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"

step "a user outside the group is refused in one line"
chmod 0666 "$SOCK"
set +e
out=$(in_netns dA setpriv --reuid=65534 --regid=65534 --clear-groups env WAWARE_DAEMON=on WAWARED_SOCKET="$SOCK" \
    "$WAWARE" subscribe _s1._tcp --count 1 --timeout 5 2>&1)
rc=$?
set -e
echo "exit $rc: $out"
expect_eq "exit code (77: permission)" 77 "$rc"
expect_eq "lines printed" 1 "$(printf '%s\n' "$out" | wc -l)"
expect_match "the line says why" "^waware: .*wawared refuses uid 65534: only root and members of group 'wawared'" "$out"
out=$(in_netns dA setpriv --reuid=65534 --regid=65534 --clear-groups env WAWARED_SOCKET="$SOCK" "$WAWARE" diagnose 2>&1) \
    || fail "waware diagnose as uid 65534 exited $?: $out"
expect_line "diagnose says why for that user" "^  warning +wawared: $SOCK refuses this user: not root and not in group 'wawared' — add yourself to group 'wawared'" "$out"
expect_running A C daemon

stop_bg A INT
stop_bg C INT
stop_bg daemon TERM
stop_bg peer INT
