#!/bin/bash
# `waware probe <phy>`: the KEY=VALUE lines udev's IMPORT{program} reads.
# timeout: 60
source "$(dirname "$0")/../guest/lib.sh"

step "one radio"
sim_radios 1
phy=${PHYS[0]}

step "waware probe $phy"
out=$(ww probe "$phy") || fail "waware probe exited $?: $out"
printf '%s\n' "$out"
bad=$(printf '%s\n' "$out" | grep -Ev '^[A-Z][A-Z0-9_]*=[^[:space:]"'"'"']*$')
expect_eq "lines that are not KEY=VALUE (no spaces or quotes)" "" "$bad"
expect_contains "probe output" "WAWARE_PHY=$phy" "$out"
expect_contains "probe output" "WAWARE_NAN=1" "$out"
expect_contains "probe output" "WAWARE_NAN_USERSPACE_DE=1" "$out"
expect_contains "probe output" "WAWARE_NAN_BANDS=2.4GHz,5GHz" "$out"
expect_contains "probe output" "WAWARE_USD=1" "$out"

step "the sysfs path names the same adapter"
expect_eq "probe /sys/class/ieee80211/$phy" "$out" "$(ww probe "/sys/class/ieee80211/$phy")"
