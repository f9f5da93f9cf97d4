#!/bin/bash
# USD on a radio that is a station connected to an access point. Three plain radios (no NAN): hostapd runs an
# open network on the third (in dAP), A's radio connects to it as a station (iw connect, 10.99.0.2 -> the AP
# at 10.99.0.1) and publishes with waware USD on that interface; B subscribes on the second radio, finds A and
# they exchange follow-ups both ways. Then A must still be associated (iw dev link) and ping the AP, both while
# the publish runs and after it ended.
# (1) the AP on channel 6 (2437 MHz), USD's own channel: no warning.
# (2) the AP moved to channel 1 (2412 MHz): the publish prints its one-line warning that the radio leaves the
#     access point's channel to listen on 2437 MHz, and still works (exit 0); the connection survives.
# timeout: 240
source "$(dirname "$0")/../guest/lib.sh"

command -v hostapd >/dev/null || fail "hostapd is not installed (tools/vm/run installs the Debian package hostapd)"

# iface_of NS RADIO: the name of radio RADIO's interface in NS.
iface_of() {
    local phy=${PHYS[$2]}
    in_netns "$1" iw dev | awk -v p="phy#${phy#phy}" '$1 ~ /^phy#/ { cur = $1 } cur == p && $1 == "Interface" { print $2; exit }'
}

sim_radios 3 --no-nan
radio_netns 0 dA
radio_netns 1 dB
radio_netns 2 dAP
wlanA=$(iface_of dA 0)
wlanAP=$(iface_of dAP 2)
[ -n "$wlanA" ] && [ -n "$wlanAP" ] || fail "no station interface on radio 0 or 2"

# ap_start CHANNEL: hostapd with the open network waware-usd on CHANNEL (2.4 GHz; a beacon every 20 TU, so that
# scans hear it), 10.99.0.1 on its interface.
ap_start() {
    local conf=/tmp/usd-station-hostapd.conf
    printf '%s\n' "interface=$wlanAP" driver=nl80211 ssid=waware-usd hw_mode=g "channel=$1" beacon_int=20 >"$conf"
    in_netns dAP ip link set "$wlanAP" down
    start_bg "ap$1" dAP hostapd -t "$conf"
    wait_for_line "$(bg_log "ap$1")" 'AP-ENABLED' 30
    in_netns dAP ip addr replace 10.99.0.1/24 dev "$wlanAP"
}

# station_connect FREQ: A's interface connects to waware-usd on FREQ MHz and gets 10.99.0.2. hostapd answers probe
# requests in user space, too late for an active scan's dwell under emulation, and a beacon every 100 TU is easily
# missed: each attempt first scans FREQ passively until the network shows, so that `iw connect` finds it known.
station_connect() {
    local attempt i link= seen
    in_netns dA ip link set "$wlanA" up
    # mac80211 gives up an authentication or association after 3 tries 200 ms apart, so an attempt has ended
    # within seconds either way; a loaded host makes every `iw` take seconds, so few are run per attempt.
    for attempt in 1 2 3 4 5 6; do
        seen=$(in_netns dA iw dev "$wlanA" scan freq "$1" passive 2>&1 | grep -c 'SSID: waware-usd')
        echo "attempt $attempt: passive scan of $1 MHz saw the network ${seen:-0} time(s)"
        [ "${seen:-0}" -gt 0 ] || { nap 1; continue; }
        in_netns dA iw dev "$wlanA" connect waware-usd "$1" || fail "iw connect waware-usd $1 failed"
        for i in 1 2 3; do
            nap 2
            link=$(in_netns dA iw dev "$wlanA" link)
            echo "$link" | grep -q "^Connected to" && break 2
        done
        echo "attempt $attempt: not associated (hostapd answered too late?)"
        in_netns dA iw dev "$wlanA" disconnect 2>/dev/null
    done
    echo "$link"
    expect_contains "A associated" "Connected to" "$link"
    expect_contains "on $1 MHz" "freq: $1" "$link"
    in_netns dA ip addr replace 10.99.0.2/24 dev "$wlanA"
}

# station_check FREQ WHEN: A is still associated on FREQ and reaches the AP (ping, no loss of 5).
station_check() {
    local link out
    link=$(in_netns dA iw dev "$wlanA" link)
    expect_contains "A still associated $2" "Connected to" "$link"
    expect_contains "still on $1 MHz $2" "freq: $1" "$link"
    out=$(in_netns dA ping -c 5 -i 0.3 -W "$(scaled 2)" 10.99.0.1 2>&1)
    echo "$out" | tail -n 2
    expect_contains "ping to the AP $2" " 0% packet loss" "$out"
}

# usd_round NAME: A publishes _sta-NAME._tcp with USD on its station interface (answering "pong"), B finds it
# and sends "ping"; checks both messages, and the station, while the publish runs and after it ended.
usd_round() {
    local name=$1 freq=$2 out found
    start_bg "pub-$name" dA "$WAWARE" publish "_sta-$name._tcp" --info hello --answer pong --json
    wait_for_line "$(bg_log "pub-$name")" '"event":"started"' 30
    expect_contains "publisher says USD" '"transport":"usd"' "$LINE"
    us=$(event_field "$(bg_log "pub-$name")" started address)
    expect_eq "A's frames carry the station interface's address" "$(in_netns dA cat "/sys/class/net/$wlanA/address")" "$us"
    out=$(in_netns dB "$WAWARE" subscribe "_sta-$name._tcp" --usd --count 1 --send ping --messages 1 \
        --timeout "$(scaled 30)" --json) || fail "subscribe failed: $out"
    echo "$out"
    found=$(echo "$out" | grep '"event":"discovered"')
    expect_contains "A discovered" "\"peer\":\"$us\"" "$found"
    expect_contains "with its service info" '"info":"hello"' "$found"
    expect_contains "ping acknowledged" '"status":"acknowledged"' "$(echo "$out" | grep '"event":"sent"')"
    expect_contains "pong received" '"info":"pong"' "$(echo "$out" | grep '"event":"message"')"
    wait_for_line "$(bg_log "pub-$name")" '"event":"message".*"info":"ping"' 10
    station_check "$freq" "while A publishes"
    stop_bg "pub-$name" INT
    station_check "$freq" "after the publish"
}

step "(1) the AP on channel 6 (2437 MHz); A connects as a station and reaches it"
ap_start 6
station_connect 2437
station_check 2437 "before USD"

step "(1) A publishes over USD on its connected station interface; B finds it; follow-ups both ways"
usd_round ch6 2437
expect_not_contains "no off-channel warning on USD's own channel" "warning" "$(cat "$(bg_log pub-ch6)")"

step "(2) the AP moves to channel 1 (2412 MHz); A connects again"
in_netns dA iw dev "$wlanA" disconnect
stop_bg ap6
ap_start 1
station_connect 2412
station_check 2412 "before USD"

step "(2) A publishes over USD (2437 MHz) while connected on 2412 MHz: one warning line, USD works, exit 0"
usd_round ch1 2412
warnings=$(grep -c '^waware: warning: ' "$(bg_log pub-ch1)")
expect_eq "warning lines" 1 "$warnings"
expect_contains "the warning names both channels" "$wlanA is connected on 2412 MHz; USD runs on 2437 MHz" \
    "$(grep '^waware: warning: ' "$(bg_log pub-ch1)")"
in_netns dA iw dev "$wlanA" disconnect
stop_bg ap1
