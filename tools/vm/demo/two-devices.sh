#!/bin/bash
# The demo tools/demo shows on a machine without NAN hardware: two simulated devices, each with its own
# radio in its own network namespace, start NAN with waware and end up in one cluster; when this waware
# has publish/subscribe, device B then discovers a service device A publishes and they exchange messages;
# with pairing, they pair with a PIN (PASN) and store each other;
# with data paths, B opens a secure one to A (keyed by the pairing, NCS-PK-PASN-128, or else NCS-SK-128 with a
# passphrase) and they exchange a TCP message
# over it; with USD, two more radios without NAN find each other by unsynchronized service discovery and
# exchange messages; with `waware perf`, B prints a link report over a second secure data path.
# Output is for people, not for grep: the raw logs are in results/demo/two-devices/.
# timeout: 600
source "$(dirname "$0")/../guest/lib.sh"

# describe WHO ROLE [LOG]: one sentence per interesting event of waware's --json output (LOG or stdin);
# ROLE says what a service's "started" means (publishing, looking for).
cat >"$SCENARIO_OUT/describe.py" <<'PY'
import json, sys
who, role = sys.argv[1], sys.argv[2]
for raw in (open(sys.argv[3]) if len(sys.argv) > 3 else sys.stdin):
    try:
        e = json.loads(raw)
    except ValueError:
        continue
    if not isinstance(e, dict):
        continue
    kind, at = e.get("event"), e.get("elapsedSeconds", e.get("elapsed"))
    after = " after %.1f s" % at if isinstance(at, (int, float)) else ""
    peer, info = e.get("peer", "?"), e.get("info", "")
    if kind == "started":
        what = role + " " + e["service"] if "service" in e else "NAN is on"
        kind_of_address = "address" if e.get("transport") == "usd" else "NAN address"
        print("  %s: %s (%s %s)" % (who, what, kind_of_address, e.get("address", "?")))
    elif kind == "clusterJoined":
        how = "created a new cluster" if e.get("newCluster") else "joined the cluster"
        print("  %s: %s %s%s" % (who, how, e.get("clusterID", "?"), after))
    elif kind == "discovered":
        facts = []
        if info:
            facts.append('service info "%s"' % info)
        if "signal" in e:
            facts.append("signal %s dBm" % e["signal"])
        print("  %s: found the service on %s%s%s" % (who, peer, after, " (%s)" % ", ".join(facts) if facts else ""))
    elif kind == "sent":
        print('  %s: sent "%s" to %s: %s' % (who, info, peer, e.get("status", "?")))
    elif kind == "message":
        print('  %s: received "%s" from %s%s' % (who, info, peer, after))
    elif kind == "stopped":
        print("  %s: NAN stopped, interface removed" % who)
    elif kind == "data-path-up":
        print("  %s: data path up%s: interface %s, own address %s, peer %s, security %s" % (
            who, after, e.get("interface", "?"), e.get("localAddress", "?"), e.get("peerAddress", "?"),
            e.get("cipherSuite", "?")))
    elif kind == "verified":
        print("  %s: verified %s with the stored pairing key (no PIN)%s" % (who, e.get("device", e.get("name", peer)), after))
    elif kind == "data-path-down":
        print("  %s: data path down (%s)" % (who, e.get("reason", "?")))
PY
describe() { python3 "$SCENARIO_OUT/describe.py" "$@"; }
last_cluster() { event_field "$1" clusterJoined clusterID; }

echo "Two simulated Wi-Fi Aware (NAN) devices, A and B, each with its own radio."
echo
sim_radios 2 >/dev/null
radio_netns 0 deviceA >/dev/null
radio_netns 1 deviceB >/dev/null
echo "  device A: radio ${PHYS[0]} in its own network namespace"
echo "  device B: radio ${PHYS[1]} in its own network namespace"
echo

echo "Device A starts NAN (waware cluster start):"
start_bg A deviceA "$WAWARE" cluster start --json >/dev/null
wait_for_line "$(bg_log A)" '"event":"clusterJoined"' 30 >/dev/null
describe "device A" "" "$(bg_log A)"
echo
echo "Device B starts NAN and looks for a cluster to join:"
start_bg B deviceB "$WAWARE" cluster start --json >/dev/null
wait_for_line "$(bg_log B)" '"event":"clusterJoined"' 30 >/dev/null
deadline=$(($(date +%s) + 30))
while a=$(last_cluster "$(bg_log A)") b=$(last_cluster "$(bg_log B)"); [ "$a" != "$b" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.5
done
describe "device B" "" "$(bg_log B)"
echo
if [ "$a" = "$b" ]; then
    echo "Both devices are in NAN cluster $a: they share discovery windows and can now find each other's services."
else
    fail "the devices did not agree on a cluster: A is in ${a:-none}, B in ${b:-none} (logs in results/demo/two-devices/)"
fi
echo
stop_bg A >/dev/null
stop_bg B >/dev/null
echo "Stopping both (Ctrl-C):"
describe "device A" "" "$(bg_log A)" | grep stopped
describe "device B" "" "$(bg_log B)" | grep stopped

# Service discovery, when this build of waware has it.
"$WAWARE" publish --help >/dev/null 2>&1 || exit 0
echo
echo "Device A publishes the service _chat._tcp and answers every message with \"pong\" (waware publish):"
start_bg pub deviceA "$WAWARE" publish _chat._tcp --unsolicited --info "hello from A" --answer pong --json >/dev/null
wait_for_line "$(bg_log pub)" '"event":"started"' 30 >/dev/null
describe "device A" publishing "$(bg_log pub)"
echo
echo "Device B looks for _chat._tcp and sends \"ping\" to what it finds (waware subscribe):"
out=$(in_netns deviceB timeout "$(scaled 90)" "$WAWARE" subscribe _chat._tcp --count 1 --send ping --messages 1 --timeout "$(scaled 45)" --json)
rc=$?
printf '%s\n' "$out" >"$SCENARIO_OUT/sub.log"
describe "device B" "looking for" <"$SCENARIO_OUT/sub.log"
[ $rc = 0 ] || fail "waware subscribe exited $rc (logs in results/demo/two-devices/)"
sleep 1
describe "device A" publishing "$(bg_log pub)" | grep received
stop_bg pub >/dev/null
echo
echo "Device B discovered device A's service and they exchanged messages, all over the simulated air."

# Pairing, when this build of waware has it: the stores it fills are used by what follows.
state_a=$SCENARIO_OUT/a
state_b=$SCENARIO_OUT/b
mkdir -p "$state_a" "$state_b"
store_a=$state_a/devices.json
store_b=$state_b/devices.json
paired=no
if "$WAWARE" pair --help >/dev/null 2>&1; then
    echo
    echo "Devices A and B pair (waware pair). A shows a PIN; B's user types it. They bootstrap in follow-up"
    echo "messages, run PASN (SAE over the PIN) to derive a pairing key, and swap identity keys, so each"
    echo "recognises the other later whatever its MAC address. Keys go to a 0600 store and are never printed:"
    start_bg pairA deviceA "$WAWARE" pair --store "$store_a" --name "device-B" --timeout "$(scaled 90)" >/dev/null
    wait_for_line "$(bg_log pairA)" '^PIN [0-9]{6}' 60 >/dev/null
    pin=$(sed -n 's/^PIN \([0-9]\{6\}\).*/\1/p' "$(bg_log pairA)" | head -n 1)
    echo "  device A: shows PIN $pin"
    out=$(in_netns deviceB "$WAWARE" pair --pin "$pin" --name "device-A" --store "$store_b" --timeout "$(scaled 90)" 2>&1) \
        || fail "B could not pair with A: $out"
    printf '%s\n' "$out" | sed 's/^/  device B: /'
    wait_bg pairA 0 60 >/dev/null
    grep -v '^PIN ' "$(bg_log pairA)" | sed 's/^/  device A: /'
    echo "  A's store: $("$WAWARE" devices list --store "$store_a" | head -n 1)"
    echo "  B's store: $("$WAWARE" devices list --store "$store_b" | head -n 1)"
    paired=yes
fi

# A secure data path, when this build of waware has one.
"$WAWARE" publish --help 2>/dev/null | grep -q -- --passphrase || exit 0
echo
if [ "$paired" = yes ] && "$WAWARE" publish --help 2>/dev/null | grep -q -- --fixed-address; then
    # Paired: no passphrase. B verifies A with the stored pairing key (PASN, no PIN), both derive a fresh
    # data-path key from it, and the NDP's 4-way handshake uses that key (NCS-PK-PASN-128).
    suite=NCS-PK-PASN-128
    echo "Device A publishes _files._tcp and accepts data paths from its paired devices; device B asks for one."
    echo "No passphrase: B first verifies A with the stored pairing key (PASN, no PIN), then the data path is"
    echo "keyed by the pairing (NCS-PK-PASN-128: a 4-way handshake in the NAN frames, then CCMP on the link):"
    start_bg dpA deviceA env WAWARE_STATE_DIR="$state_a" "$WAWARE" publish _files._tcp --accept-data-paths --json >/dev/null
    wait_for_line "$(bg_log dpA)" '"event":"started"' 60 >/dev/null
    start_bg dpB deviceB env WAWARE_STATE_DIR="$state_b" "$WAWARE" subscribe _files._tcp --count 1 --data-path --json >/dev/null
else
    suite=NCS-SK-128
    echo "Device A publishes _files._tcp and accepts data paths secured with the passphrase \"demo passphrase\";"
    echo "device B asks for one (NCS-SK-128: a 4-way handshake in the NAN frames, then CCMP on the link):"
    start_bg dpA deviceA "$WAWARE" publish _files._tcp --accept-data-paths --passphrase "demo passphrase" --json >/dev/null
    wait_for_line "$(bg_log dpA)" '"event":"started"' 60 >/dev/null
    start_bg dpB deviceB "$WAWARE" subscribe _files._tcp --count 1 --data-path --passphrase "demo passphrase" --json >/dev/null
fi
wait_for_line "$(bg_log dpB)" '"event":"data-path-(up|down)"|^waware: ' 400 >/dev/null
wait_for_line "$(bg_log dpA)" '"event":"data-path-up"' 60 >/dev/null
describe "device B" "looking for" "$(bg_log dpB)" | grep "verified"
describe "device A" publishing "$(bg_log dpA)" | grep "data path"
describe "device B" "looking for" "$(bg_log dpB)" | grep "data path"
ifA=$(event_field "$(bg_log dpA)" data-path-up interface)
ifB=$(event_field "$(bg_log dpB)" data-path-up interface)
addrA=$(event_field "$(bg_log dpA)" data-path-up localAddress)
[ "$(event_field "$(bg_log dpB)" data-path-up cipherSuite)" = "$suite" ] || fail "the data path is not $suite"
echo
echo "Over it, plain TCP between the two IPv6 link-local addresses (the link below is encrypted):"
cat >"$SCENARIO_OUT/chat.py" <<'PY'
import socket, sys, time
role, iface = sys.argv[1], sys.argv[2]
scope = socket.if_nametoindex(iface)
if role == "server":
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::", 7000, 0, scope)); s.listen(1)
    print("listening", flush=True)
    c, _ = s.accept()
    line = c.makefile().readline().strip()
    print('  device A: received "%s"' % line, flush=True)
    c.sendall(b"hello B, your message came through encrypted\n"); c.close()
else:
    # The address may still be tentative (duplicate address detection) for a moment: retry.
    for _ in range(60):
        try:
            c = socket.create_connection(("%s%%%s" % (sys.argv[3], iface), 7000), timeout=10)
            break
        except OSError:
            time.sleep(0.5)
    else:
        sys.exit("  device B: could not connect to device A")
    c.sendall(b"hello A, this is B over the secure data path\n")
    print('  device B: sent "hello A, this is B over the secure data path"', flush=True)
    print('  device B: received "%s"' % c.makefile().readline().strip(), flush=True)
PY
start_bg chatA deviceA python3 "$SCENARIO_OUT/chat.py" server "$ifA" >/dev/null
wait_for_line "$(bg_log chatA)" listening 20 >/dev/null
in_netns deviceB timeout 60 python3 "$SCENARIO_OUT/chat.py" client "$ifB" "$addrA" || fail "the TCP exchange failed"
wait_bg chatA 0 20 >/dev/null
grep "device A" "$(bg_log chatA)"
stop_bg dpB >/dev/null
stop_bg dpA >/dev/null
echo
echo "A secure NAN data path carried TCP between the two devices; both ended it and removed their interfaces."

# Messages over mutual TLS between the paired devices, when this build's connections have TLS.
if [ "$paired" = yes ] && "$WAWARE" listen --help 2>/dev/null | grep -q -- --tofu; then
    echo
    echo "Device A listens for connections to _chat._tcp (waware listen); device B connects (waware connect)."
    echo "Under each connection: a data path keyed by the pairing, then TLS 1.3 with a certificate on both sides."
    echo "Each device makes its own key and certificate on first use; the first connection over the paired data"
    echo "path pins the peer's certificate in the paired-device entry, so a different one is refused later:"
    start_bg chatA deviceA env WAWARE_STATE_DIR="$state_a" "$WAWARE" listen _chat._tcp --echo --json >/dev/null
    wait_for_line "$(bg_log chatA)" '"event":"listening"' 90 >/dev/null
    out=$(in_netns deviceB env WAWARE_STATE_DIR="$state_b" timeout "$(scaled 400)" "$WAWARE" connect _chat._tcp \
        --send "hello A, this is B over TLS" --messages 1 --json 2>"$SCENARIO_OUT/chatB.err") \
        || fail "B could not connect to A over TLS: $(cat "$SCENARIO_OUT/chatB.err")"
    wait_for_line "$(bg_log chatA)" '"event":"message"' 60 >/dev/null
    cat >"$SCENARIO_OUT/tls.py" <<'PY'
import json, sys
who, path = sys.argv[1], sys.argv[2]
for line in open(path):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    e = r.get("event")
    if e == "connected":
        print("  %s: connected to %s over %s (%s), trust %s, peer certificate %s..." % (who, r.get("device") or r.get("peer"),
              r.get("interface"), r.get("transport"), r.get("trust"), (r.get("peerFingerprint") or "")[:16]))
    elif e == "message":
        print('  %s: received "%s"' % (who, r.get("text")))
PY
    printf '%s\n' "$out" >"$SCENARIO_OUT/chatB.json"
    python3 "$SCENARIO_OUT/tls.py" "device B" "$SCENARIO_OUT/chatB.json"
    python3 "$SCENARIO_OUT/tls.py" "device A" "$(bg_log chatA)"
    stop_bg chatA >/dev/null
    pinnedA=$(python3 -c 'import json,sys; print(" ".join((d.get("certificateFingerprint") or "-")[:16] for d in json.load(open(sys.argv[1]))["devices"]))' "$store_a")
    echo "  A's store now pins B's certificate: $pinnedA..."
    echo
    echo "A message each way over mutual TLS, on a data path keyed by the pairing; the data path ended with the connection."
fi

# Unsynchronized service discovery on radios without NAN, when this build of waware has it.
if "$WAWARE" publish --help 2>/dev/null | grep -q -- '--usd'; then
    echo
    echo "Most Wi-Fi cards have no NAN. Two more simulated radios, plain station radios like those, find each"
    echo "other with unsynchronized service discovery (USD: action frames on channel 6, no cluster):"
    sim_radios 2 --no-nan >/dev/null
    radio_netns 0 usdA >/dev/null
    radio_netns 1 usdB >/dev/null
    start_bg usdpub usdA "$WAWARE" publish _chat._tcp --info "hello over USD" --answer pong --json >/dev/null
    wait_for_line "$(bg_log usdpub)" '"event":"started"' 30 >/dev/null
    describe "plain radio A" "publishing over USD" "$(bg_log usdpub)"
    out=$(in_netns usdB timeout "$(scaled 60)" "$WAWARE" subscribe _chat._tcp --count 1 --send ping --messages 1 \
        --timeout "$(scaled 30)" --json)
    rc=$?
    printf '%s\n' "$out" >"$SCENARIO_OUT/usd-sub.log"
    describe "plain radio B" "looking over USD for" <"$SCENARIO_OUT/usd-sub.log"
    [ $rc = 0 ] || fail "waware subscribe over USD exited $rc (logs in results/demo/two-devices/)"
    describe "plain radio A" publishing "$(bg_log usdpub)" | grep received
    stop_bg usdpub >/dev/null
fi

# A link report, when this build of waware has one.
"$WAWARE" perf --help >/dev/null 2>&1 || exit 0
echo
echo "Link performance (waware perf): device A serves _perf._tcp and answers probes; device B opens a secure"
echo "data path to it, measures, and prints the report:"
start_bg perfA deviceA "$WAWARE" perf _perf._tcp --serve --passphrase "demo passphrase" --json >/dev/null
wait_for_line "$(bg_log perfA)" '"event":"started"' 60 >/dev/null
report=$(in_netns deviceB timeout "$(scaled 240)" "$WAWARE" perf _perf._tcp --passphrase "demo passphrase" \
    --duration 1 --latency-probes 5 --access-category be,vo 2>&1) || fail "waware perf failed: $report"
printf '%s\n' "$report" | sed 's/^/  /'
stop_bg perfA >/dev/null
echo
echo "(hwsim frames take no airtime: the emulated CPU, not the radio, bounds these figures.)"
