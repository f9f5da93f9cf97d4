#!/bin/bash
# A publish with a TTL ends by itself with reason ttl: 3 seconds, then 4 discovery windows.
# timeout: 60
source "$(dirname "$0")/../guest/lib.sh"

sim_radios 1

step "publish with --ttl 3 ends after about 3 s with reason ttl"
echo "launch at $(date +%s.%N)"
out=$(timeout 30 "$WAWARE" publish _clock._tcp --ttl 3 --json) || fail "publish failed: $out"
echo "exit at $(date +%s.%N)"
echo "$out"
end=$(echo "$out" | grep '"event":"terminated"')
expect_contains "termination reason" '"reason":"ttl"' "$end"
expect_match "ended after 3 s" '"elapsed":3\.[0-9]+' "$end"

step "publish with --ttl-dw 4 ends after 4 discovery windows with reason ttl"
out=$(timeout 30 "$WAWARE" publish _clock._tcp --ttl-dw 4 --json) || fail "publish failed: $out"
echo "$out"
end=$(echo "$out" | grep '"event":"terminated"')
expect_contains "termination reason" '"reason":"ttl"' "$end"
expect_match "ended after about 4 x 0.524 s" '"elapsed":(1\.[6-9]|2\.[0-9])[0-9]*' "$end"
