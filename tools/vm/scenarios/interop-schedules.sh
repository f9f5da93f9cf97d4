#!/bin/bash
# Schedules that differ, with the other NAN stack (wpa_supplicant 2.12), both ways, on open data paths:
# 1. waware counters: the peer commits channel 36 only (5180 MHz, slots 1-31); waware's publish has the swapped
#    layout (channel 149 in slot 1, channel 6 elsewhere), shares no slot with it and answers with its own
#    schedule; the peer's application sees the counter-proposal (NAN-NDP-COUNTER-REQUEST), moves its schedule
#    to channel 6 and confirms. Then waware evacuates channel 149 (a schedule update during the data path):
#    the peer installs waware's new schedule (NAN-PEER-SCHEDULE-CHANGED) and TCP still flows.
# 2. the peer counters: waware's subscribe requests; the peer moves its schedule to channel 149 only and
#    accepts, which makes its response a counter-proposal; waware takes it and confirms.
# (The peer cannot change its own schedule during a data path on this kernel: with an NDP up its
# NAN_SCHED_CONFIG_MAP becomes a deferred update that waits for NL80211_CMD_NAN_SCHED_UPDATE_DONE, which
# mac80211_hwsim 7.2 never sends, and its SDFs keep announcing the old schedule. waware's side of following a
# schedule a peer announces in its SDFs is unit-tested: DataPathEngineTests.)
# Each time the common committed slots are printed and 256 KiB of TCP go each way byte-exact.
# timeout: 900
source "$(dirname "$0")/../guest/lib.sh"
source "$(dirname "$0")/../guest/wpas.sh"

SIZE=$((256 * 1024))

step "two radios: waware in dA, wpa_supplicant in dB; regulatory domain US"
set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB
wpas_start P dB 1 "5180:feffffff"

# tcp_over LOG PORT: 256 KiB each way over the data path LOG reports up.
tcp_over() {
    local log=$1 port=$2 ifA localA
    { read -r ifA; read -r localA; } < <(event_field "$log" data-path-up interface localAddress)
    wait_link_local dA "$ifA" "$localA"
    tcp_both_ways "tcp-$port" "$port" "$SIZE" "$ifA" "$localA" ndiP
}

step "1. waware (swapped layout) counters the peer's channel-36 request"
wpas_mark P
start_bg pub dA env WAWARE_TRACE=1 WAWARE_DP_SCHEDULE=swapped WAWARE_DP_EVACUATE=5745:6 \
    "$WAWARE" publish _isc._tcp --accept-data-paths --open --json
wait_for_line "$(bg_log pub)" '"event":"started"' 60
nmiA=$(event_field "$(bg_log pub)" started address)
sid=$(wpas P NAN_SUBSCRIBE service_name=_isc._tcp sync=1)
wpas_wait P "NAN-DISCOVERY-RESULT subscribe_id=$sid .*address=$nmiA" 60
pubid=$(wpas_field "$LINE" publish_id)
wpas P NAN_NDP_REQUEST handle="$sid" ndi=ndiP peer_nmi="$nmiA" peer_id="$pubid" >/dev/null
wpas_wait P "NAN-NDP-COUNTER-REQUEST .*peer_nmi=$nmiA" 120
ndp=$(wpas_field "$LINE" ndp_id)
echo "    the peer takes the counter: its schedule moves to channel 6, slots 1-31"
wpas P NAN_SCHED_CONFIG_MAP map_id=1 2437:feffffff >/dev/null
wpas P NAN_NDP_RESPONSE accept peer_nmi="$nmiA" ndi=ndiP ndp_id="$ndp" init_ndi="${WPAS_NDI[P]}" handle="$sid" >/dev/null
wpas_wait P "NAN-NDP-CONNECTED .*peer=$nmiA|NAN-NDP-DISCONNECTED" 120
expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
wait_for_line "$(bg_log pub)" '"event":"data-path-up"' 60
grep -E 'dp (establish|local schedule)' "$(bg_log pub)" 2>/dev/null | tail -n 3 | sed 's/^/    /'
tcp_over "$(bg_log pub)" 5301

step "1b. waware evacuates channel 149: the peer installs its new schedule, TCP still flows"
# (The evacuation comes 6 s after the data path is up, maybe during the TCP above: the wait starts at step 1's mark.)
wait_for_line "$(bg_log pub)" 'waware: evacuated 5745 MHz .*now on 2437 MHz' 60
wpas_wait P "NAN-PEER-SCHEDULE-CHANGED" 60
tcp_over "$(bg_log pub)" 5302
wpas_keep_busy_stop P
wpas_mark P
stop_bg pub INT
wpas_wait P "NAN-NDP-DISCONNECTED .*peer=$nmiA" 60
wpas P NAN_CANCEL_SUBSCRIBE subscribe_id="$sid" >/dev/null

step "2. the peer counters waware's request with channel 149 only"
wpas_mark P
wpas P NAN_SCHED_CONFIG_MAP map_id=1 2437:0e000000 5180:f0ffffff >/dev/null
pid=$(wpas P NAN_PUBLISH service_name=_ipc._tcp sync=1 data_path=1 ttl=900)
start_bg sub dA env WAWARE_TRACE=1 "$WAWARE" subscribe _ipc._tcp --count 1 --data-path --open --json
wpas_wait P "NAN-NDP-REQUEST " 120
peer_nmi=$(wpas_field "$LINE" peer_nmi)
init_ndi=$(wpas_field "$LINE" init_ndi)
ndp=$(wpas_field "$LINE" ndp_id)
wpas P NAN_SCHED_CONFIG_MAP map_id=1 5745:feffffff >/dev/null
wpas P NAN_NDP_RESPONSE accept peer_nmi="$peer_nmi" ndi=ndiP ndp_id="$ndp" init_ndi="$init_ndi" handle="$pid" >/dev/null
wpas_wait P "NAN-NDP-CONNECTED .*peer=$peer_nmi|NAN-NDP-DISCONNECTED" 120
expect_contains "the peer reports the data path connected" NAN-NDP-CONNECTED "$LINE"
wpas_keep_busy P "$(wpas_field "$LINE" peer_ndi)"
wait_for_line "$(bg_log sub)" '"event":"data-path-(up|down)"' 60
expect_contains "waware's data path" '"data-path-up"' "$LINE"
wait_for_line "$(bg_log sub)" "dp local schedule .*5745 MHz.* \(to meet the peer's schedule" 5
grep -E 'dp (establish|local schedule)' "$(bg_log sub)" 2>/dev/null | tail -n 3 | sed 's/^/    /'
tcp_over "$(bg_log sub)" 5303
wpas_keep_busy_stop P

wpas_mark P
stop_bg sub INT
wpas_wait P "NAN-NDP-DISCONNECTED .*ndp_id=$ndp" 60
expect_eq "no NDI left in dA" 0 "$(in_netns dA ip -o link show | grep -c 'data')"
