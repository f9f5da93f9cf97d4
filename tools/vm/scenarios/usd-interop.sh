#!/bin/bash
# Unsynchronized service discovery (USD) with the other stack (wpa_supplicant 2.12, NAN_PUBLISH/NAN_SUBSCRIBE
# without sync=1) on two radios without NAN: the peer publishes unsolicited and waware finds it passively and
# sends a follow-up; the peer publishes solicited only and waware finds it by an active subscribe, sends a
# follow-up and receives the peer's answer; then waware publishes solicited-only and the peer finds it by an
# active subscribe, and they exchange follow-ups both ways; last the peer finds an unsolicited waware publish
# passively. Service info is checked in every discovery.
# timeout: 300
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

step "two plain radios: waware in dA, wpa_supplicant (USD on its station interface) in dB"
sim_radios 2 --no-nan
radio_netns 0 dA
radio_netns 1 dB
wpas_start_usd P dB 1
peer=${WPAS_ADDR[P]}

step "the peer publishes _iu._tcp unsolicited (info hello); waware subscribes passively and sends ping"
pid=$(wpas P NAN_PUBLISH service_name=_iu._tcp ssi="$(hex hello)" ttl=120)
wpas_mark P
out=$(in_netns dA "$WAWARE" subscribe _iu._tcp --usd --count 1 --send ping --timeout "$(scaled 30)" --json) \
    || fail "subscribe failed: $out"
echo "$out"
found=$(echo "$out" | grep '"event":"discovered"')
expect_contains "the peer found" "\"peer\":\"$peer\"" "$found"
expect_contains "its service info" '"info":"hello"' "$found"
expect_contains "its publish id" "\"peerInstance\":$pid" "$found"
expect_contains "ping acknowledged" '"status":"acknowledged"' "$(echo "$out" | grep '"event":"sent"')"
wpas_wait P "NAN-RECEIVE id=$pid .*ssi=$(hex ping)" 20
wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null

step "the peer publishes _iu4._tcp solicited only (info hey); waware subscribes actively, sends ping, the peer answers pong"
pid4=$(wpas P NAN_PUBLISH service_name=_iu4._tcp unsolicited=0 ssi="$(hex hey)" ttl=120)
wpas_mark P
start_bg sub4 dA "$WAWARE" subscribe _iu4._tcp --usd --active --count 1 --send ping --messages 1 \
    --timeout "$(scaled 40)" --json
wait_for_line "$(bg_log sub4)" '"event":"discovered"' 30
expect_contains "the solicited-only peer found by an active subscribe" "\"peer\":\"$peer\"" "$LINE"
expect_contains "its service info" '"info":"hey"' "$LINE"
expect_contains "its publish id" "\"peerInstance\":$pid4" "$LINE"
sub4=$(event_field "$(bg_log sub4)" started address)
wpas_wait P "NAN-RECEIVE id=$pid4 .*address=$sub4 .*ssi=$(hex ping)" 20
wpas_transmit P handle="$pid4" req_instance_id="$(wpas_field "$LINE" peer_instance_id)" address="$sub4" \
    ssi="$(hex pong)"
wait_for_line "$(bg_log sub4)" '"event":"message".*"info":"pong"' 20
wait_bg sub4 0 40
expect_contains "the peer's answer received" '"info":"pong"' "$(grep '"event":"message"' "$(bg_log sub4)")"
expect_contains "ping acknowledged" '"status":"acknowledged"' "$(grep '"event":"sent"' "$(bg_log sub4)")"
wpas P NAN_CANCEL_PUBLISH publish_id="$pid4" >/dev/null

step "waware publishes _iu2._tcp solicited only (info hi, answers pong); the peer subscribes actively"
start_bg pub dA "$WAWARE" publish _iu2._tcp --usd --solicited --info hi --answer pong --json
wait_for_line "$(bg_log pub)" '"event":"started"' 30
us=$(event_field "$(bg_log pub)" started address)
wpas_mark P
sid=$(wpas P NAN_SUBSCRIBE service_name=_iu2._tcp active=1 ttl=120)
wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$us" 30
expect_eq "the peer read our service info" "$(hex hi)" "$(wpas_field "$LINE" ssi)"
pubid=$(wpas_field "$LINE" publish_id)
wait_for_line "$(bg_log pub)" "\"event\":\"replied\".*\"peer\":\"$peer\"" 10

step "the peer sends ping; waware receives it and answers pong"
wpas_mark P
wpas_transmit P handle="$sid" req_instance_id="$pubid" address="$us" ssi="$(hex ping)"
wait_for_line "$(bg_log pub)" "\"event\":\"message\".*\"info\":\"ping\".*\"peer\":\"$peer\"" 20
wpas_wait P "NAN-RECEIVE id=$sid .*address=$us .*ssi=$(hex pong)" 20
# The peer's sessions end before waware's: a frame the peer sends to a waware that has exited is an action frame
# nobody registered for, which mac80211 returns from a radio on no channel (a hwsim warning).
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
stop_bg pub

step "waware publishes _iu3._tcp unsolicited (info yo); the peer subscribes passively and finds it"
start_bg pub3 dA "$WAWARE" publish _iu3._tcp --usd --unsolicited --info yo --json
wait_for_line "$(bg_log pub3)" '"event":"started"' 30
wpas_mark P
sid3=$(wpas P NAN_SUBSCRIBE service_name=_iu3._tcp ttl=120)
wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid3 .*address=$us" 30
expect_eq "the peer read our service info" "$(hex yo)" "$(wpas_field "$LINE" ssi)"
# The passive peer's empty follow-up (asking the publisher to wait for it) is no message.
nap 1
expect_eq "messages waware reported" 0 "$(grep -c '"event":"message"' "$(bg_log pub3)")"
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid3" >/dev/null
nap 1
stop_bg pub3
