#!/bin/bash
# Discovery with the other NAN stack (wpa_supplicant 2.12), both roles: waware publishes and the peer finds it
# passively and actively, with matching filters, and they exchange follow-ups; then the peer publishes and
# waware finds it passively and actively (a service response filter naming waware, one excluding it) and they
# exchange follow-ups.
# timeout: 420
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

step "two radios: waware in dA, wpa_supplicant in dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
wpas_start P dB 1

step "waware publishes _ia._tcp (info hello, answers pong, match filter a,b); the peer subscribes passively"
start_bg pub dA "$WAWARE" publish _ia._tcp --info hello --answer pong --match-filter a,b --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
nmiA=$(event_field "$(bg_log pub)" started address)
sid=$(wpas P NAN_SUBSCRIBE service_name=_ia._tcp sync=1 match_filter_rx=01610162)
wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiA" 60
expect_eq "the peer read our service info" "$(hex hello)" "$(wpas_field "$LINE" ssi)"
pubid=$(wpas_field "$LINE" publish_id)

step "the peer sends ping; waware receives it and answers pong"
wpas_mark P
wpas P NAN_TRANSMIT handle="$sid" req_instance_id="$pubid" address="$nmiA" ssi="$(hex ping)" >/dev/null
wait_for_line "$(bg_log pub)" '"event":"message".*"info":"ping"' 60
wpas_wait P "NAN-RECEIVE id=$sid .*address=$nmiA ssi=$(hex pong)" 60
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null

step "the peer subscribes actively (match filter a,b); waware's solicited answer finds it"
wpas_mark P
sid=$(wpas P NAN_SUBSCRIBE service_name=_ia._tcp sync=1 active=1 match_filter_tx=01610162 match_filter_rx=01610162)
wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiA" 60
wait_for_line "$(bg_log pub)" '"event":"replied"' 60
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null

step "a peer subscribe whose filter does not match (x) finds nothing in 10 s"
sid=$(wpas P NAN_SUBSCRIBE service_name=_ia._tcp sync=1 active=1 match_filter_tx=0178 match_filter_rx=0178)
sleep 10
expect_not_contains "no discovery by the non-matching subscribe" "subscribe_id=$sid " \
    "$(grep NAN-DISCOVERY-RESULT "$SCENARIO_OUT/P-events.log")"
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null
stop_bg pub INT

step "the peer publishes _ib._tcp (info world); waware subscribes passively and sends ping"
wpas_mark P
pid=$(wpas P NAN_PUBLISH service_name=_ib._tcp sync=1 ssi="$(hex world)" ttl=600)
start_bg sub dA "$WAWARE" subscribe _ib._tcp --count 1 --send ping --messages 1 --timeout "$(scaled 90)" --json
wait_for_line "$(bg_log sub)" '"event":"discovered".*"info":"world"' 90
nmiA=$(event_field "$(bg_log sub)" started address)
wpas_wait P "NAN-RECEIVE id=$pid .*address=$nmiA ssi=$(hex ping)" 60
peer_inst=$(wpas_field "$LINE" peer_instance_id)
wpas P NAN_TRANSMIT handle="$pid" req_instance_id="$peer_inst" address="$nmiA" ssi="$(hex pong)" >/dev/null
wait_for_line "$(bg_log sub)" '"event":"message".*"info":"pong"' 60
wait_bg sub 0 30

step "waware subscribes actively with a service response filter naming the peer: found"
# Solicited only from here: an unsolicited publish heard before waware's own subscribe went out would end
# `--count 1` at once, the subscribe never sent (the CI failures of 157 s: no NAN-REPLIED to wait for).
wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null
pid=$(wpas P NAN_PUBLISH service_name=_ib._tcp sync=1 unsolicited=0 ssi="$(hex world)" ttl=600)
wpas_mark P
out=$(in_netns dA "$WAWARE" subscribe _ib._tcp --active --srf-include "${WPAS_NMI[P]}" --count 1 --timeout "$(scaled 60)" --json) \
    || fail "active subscribe with the peer in its SRF found nothing: $out"
expect_contains "found the peer" "\"peer\":\"${WPAS_NMI[P]}\"" "$out"
wpas_wait P "NAN-REPLIED publish_id=$pid" 30

step "waware subscribes actively with a Bloom-filter SRF naming the peer: found"
out=$(in_netns dA "$WAWARE" subscribe _ib._tcp --active --srf-include "${WPAS_NMI[P]}" --srf-bloom --count 1 --timeout "$(scaled 60)" --json) \
    || fail "active subscribe with a Bloom SRF naming the peer found nothing: $out"
expect_contains "found the peer" "\"peer\":\"${WPAS_NMI[P]}\"" "$out"
wpas P NAN_CANCEL_PUBLISH publish_id="$pid" >/dev/null

step "the peer publishes solicited only with match filter x; a waware active subscribe with filter y finds nothing"
pid=$(wpas P NAN_PUBLISH service_name=_ic._tcp sync=1 unsolicited=0 match_filter_rx=0178 match_filter_tx=0178 ttl=600)
out=$(in_netns dA "$WAWARE" subscribe _ic._tcp --active --match-filter y --count 1 --timeout 8 --json 2>&1)
expect_nothing_found "non-matching active subscribe" $? "$out"
out=$(in_netns dA "$WAWARE" subscribe _ic._tcp --active --match-filter x --count 1 --timeout "$(scaled 60)" --json) \
    || fail "active subscribe with the matching filter found nothing: $out"
expect_contains "found with the matching filter" "\"peer\":\"${WPAS_NMI[P]}\"" "$out"
