#!/bin/bash
# waware with CAP_NET_ADMIN alone, as docs/security.md tells: both devices run as user nobody with only that
# capability (setpriv, ambient), and a secure data path comes up between them and carries TCP. Without the
# capability the same command fails with exit 77 and one line. A waware started as root keeps only
# CAP_NET_ADMIN on every thread (the rest dropped first thing in main).
# timeout: 300
source "$(dirname "$0")/../guest/lib.sh"

step "two radios in namespaces dA, dB; a state folder and passphrase file for user nobody"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
state=$(mktemp -d /tmp/waware-nobody.XXXXXX)
mkdir "$state/run"
printf 'unprivileged-passphrase\n' >"$state/nan.pass"
chmod 600 "$state/nan.pass"
chown -R 65534:65534 "$state"
chmod 700 "$state"
# As nobody, with CAP_NET_ADMIN as its only capability (ambient, so it survives the exec), or with none.
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin
    -- env HOME=/nonexistent XDG_RUNTIME_DIR="$state/run" WAWARE_STATE_DIR="$state")
as_nobody_without=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- env HOME=/nonexistent XDG_RUNTIME_DIR="$state/run" WAWARE_STATE_DIR="$state")

step "without CAP_NET_ADMIN: exit 77 (permissionDenied) and one line"
out=$(in_netns dA "${as_nobody_without[@]}" "$WAWARE" publish _u._tcp --accept-data-paths --passphrase-file "$state/nan.pass" 2>&1)
rc=$?
echo "    $out"
expect_eq "exit status without the capability" 77 "$rc"
expect_eq "lines printed" 1 "$(printf '%s\n' "$out" | wc -l)"
expect_contains "the message names the capability" "CAP_NET_ADMIN" "$out"

step "as nobody with CAP_NET_ADMIN: A publishes accepting NCS-SK data paths, B requests one"
start_bg pub dA "${as_nobody[@]}" "$WAWARE" publish _u._tcp --accept-data-paths --passphrase-file "$state/nan.pass" --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
start_bg sub dB "${as_nobody[@]}" "$WAWARE" subscribe _u._tcp --count 1 --data-path --passphrase-file "$state/nan.pass" --json
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 150
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 30
expect_eq "B's cipher" NCS-SK-128 "$(event_field "$(bg_log sub)" data-path-up cipherSuite)"
pid=${_BG_PIDS[pub]}
expect_eq "A runs as" 65534 "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")"
expect_eq "A's capabilities (CapEff)" 0000000000001000 "$(awk '/^CapEff:/ { print $2 }' "/proc/$pid/status")"

step "TCP: 256 KiB each way over the data path, byte-exact"
ifA=$(event_field "$(bg_log pub)" data-path-up interface)
ifB=$(event_field "$(bg_log sub)" data-path-up interface)
localA=$(event_field "$(bg_log pub)" data-path-up localAddress)
localB=$(event_field "$(bg_log sub)" data-path-up localAddress)
wait_link_local dA "$ifA" "$localA"
wait_link_local dB "$ifB" "$localB"
tcp_both_ways tcpU 5003 $((256 * 1024)) "$ifA" "$localA" "$ifB"

step "a waware started as root keeps only CAP_NET_ADMIN, on every thread"
stop_bg sub
stop_bg pub
start_bg rootpub dA "$WAWARE" publish _r._tcp --json
wait_for_line "$(bg_log rootpub)" '"event":"started"' 60
rpid=${_BG_PIDS[rootpub]}
for status in /proc/"$rpid"/task/*/status; do
    expect_eq "CapEff of $(basename "$(dirname "$status")")" 0000000000001000 "$(awk '/^CapEff:/ { print $2 }' "$status")"
done
expect_eq "its bounding set" 0000000000001000 "$(awk '/^CapBnd:/ { print $2 }' "/proc/$rpid/status")"
expect_eq "no new privileges" 1 "$(awk '/^NoNewPrivs:/ { print $2 }' "/proc/$rpid/status")"
stop_bg rootpub
rm -rf "$state"
