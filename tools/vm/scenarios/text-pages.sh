#!/bin/bash
# The pages of the waware binary an idle publisher touches, for tools/text-order (the static build's function
# order): for each binary named in WAWARE_VM_SCENARIO_CONFIG (`LABEL<TAB>BINARY` lines, unstripped static
# builds whose .text was shuffled differently), one `waware publish` accepting data paths left alone for 10 s,
# then the same publisher holding one open NDP, again after 10 s, as in idle-rss. Writes LABEL-idle.pages and
# LABEL-ndp.pages: the addresses of the pages resident in the binary's mappings and the anonymous mapping
# right after them (.bss), one hexadecimal address a line, read from /proc/PID/pagemap.
# default: no
# timeout: 1500
source "$(dirname "$0")/../guest/lib.sh"

config=${WAWARE_VM_SCENARIO_CONFIG:-}
[ -n "$config" ] && [ -r "$config" ] || fail "no binaries to measure (WAWARE_VM_SCENARIO_CONFIG='$config')"

set_country US
sim_radios 2
radio_netns 0 dA
radio_netns 1 dB

# pages PID BINARY OUT: writes the resident pages of BINARY's mappings in PID (and the anonymous one after them).
pages() {
    python3 - "$1" "$2" >"$3" <<'EOF' || fail "cannot read the pagemap of pid $1"
import os, struct, sys
pid, binary = sys.argv[1], os.path.realpath(sys.argv[2])
ranges, last_end = [], None
for line in open(f"/proc/{pid}/maps"):
    fields = line.split()
    start, end = (int(x, 16) for x in fields[0].split("-"))
    path = fields[5] if len(fields) > 5 else ""
    if path == binary or (path == "" and start == last_end):
        ranges.append((start, end))
        last_end = end if path == binary else None
    else:
        last_end = None
with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
    for start, end in ranges:
        pagemap.seek(start // 4096 * 8)
        data = pagemap.read((end - start) // 4096 * 8)
        for i, (entry,) in enumerate(struct.iter_unpack("<Q", data)):
            if entry >> 62 & 3:  # present or swapped
                print(f"{start + i * 4096:x}")
EOF
    echo "$(wc -l <"$3") pages resident in $(basename "$3" .pages)"
}

mapfile -t variants <"$config"
for variant in "${variants[@]}"; do
    IFS=$'\t' read -r label binary <<<"$variant"
    [ -n "$label" ] || continue
    [ -x "$binary" ] || fail "not an executable: $binary"
    step "$label: an idle publisher"
    start_bg "pub-$label" dA "$binary" publish _idle._tcp --info idle --accept-data-paths --open --json
    wait_for_line "$(bg_log "pub-$label")" '"event":"started"' 120
    pid=${_BG_PIDS[pub-$label]}
    nap 10
    pages "$pid" "$binary" "$SCENARIO_OUT/$label-idle.pages"
    step "$label: the same publisher holding one open NDP"
    start_bg "sub-$label" dB "$binary" subscribe _idle._tcp --count 1 --data-path --open --json
    wait_for_line "$(bg_log "sub-$label")" '"event":"data-path-(up|down)"' 300 >/dev/null
    [[ $LINE == *'"event":"data-path-up"'* ]] || fail "no data path: $LINE"
    wait_for_line "$(bg_log "pub-$label")" '"event":"data-path-up"' 60 >/dev/null
    nap 10
    pages "$pid" "$binary" "$SCENARIO_OUT/$label-ndp.pages"
    stop_bg "sub-$label" INT
    stop_bg "pub-$label"
done
