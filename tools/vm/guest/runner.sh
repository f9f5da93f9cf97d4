#!/bin/bash
# Runs inside the VM (started by tools/vm/run): every selected scenario in turn, each with a fresh
# mac80211_hwsim (no radios), a timeout, and its own log.
#
#   runner.sh RESULTS_DIR SCENARIO...
#
# With WAWARE_VM_CLAIMS=DIR several VMs share one list: before a scenario each claims it by creating
# DIR/NAME (mkdir, atomic on the host's file system through 9p) and skips the ones another VM claimed.
# WAWARE_VM_PRIVATE=DIR (default RESULTS_DIR) takes this VM's own files: boot, done, modprobe.err, guest-error.
# For each scenario NAME it writes into RESULTS_DIR:
#   NAME.log     everything the scenario printed
#   NAME/        files the scenario kept (background process logs, fixtures)
#   NAME.dmesg   the kernel messages logged while it ran
#   NAME.status  "PASS|FAIL EXIT_CODE SECONDS" (exit code 124 means it timed out, 98 that the scenario passed
#                but the kernel logged a BUG, an oops or a WARNING not in kernel-warnings.allow)
# and finally done (in WAWARE_VM_PRIVATE). Lines starting with "waware-vm:" on the console report progress.
# WAWARE_VM_SCENARIO_DIR: where the scenarios are (default ../scenarios); WAWARE_VM_LIVE=1: also
# copy each scenario's output to the console, prefixed "waware-vm-live: ".
set -u

results=$1
shift
private=${WAWARE_VM_PRIVATE:-$results}
claims=${WAWARE_VM_CLAIMS:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scenarios=${WAWARE_VM_SCENARIO_DIR:-$(cd "$here/../scenarios" && pwd)}
export WAWARE_REPO=${WAWARE_REPO:-$(cd "$here/../../.." && pwd)}
# A plain system PATH: the host's may start with shims (pyenv) that cost seconds per call in the VM.
export PATH="$(dirname "${WAWARE:-/nonexistent/waware}"):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

report() { echo "waware-vm: $*"; }

report "guest up: kernel $(uname -r), $(nproc) cpus"
echo "booted $(uname -r) $(cut -d' ' -f1 /proc/uptime)" >"$private/boot"
if ! modprobe mac80211_hwsim radios=0 2>"$private/modprobe.err"; then
    report "cannot load mac80211_hwsim: $(cat "$private/modprobe.err")"
    echo "modprobe mac80211_hwsim failed: $(cat "$private/modprobe.err")" >"$private/guest-error"
    exit 1
fi
rmmod mac80211_hwsim
# The ciphers mac80211 asks the crypto API for at a data path's first key (CCMP, GCMP, BIP), loaded once
# here: the kernel loads them on demand through modprobe, which over 9p on a loaded host took 7-10 s inside
# NEW_KEY (seen 2026-12-03, both stacks' key installs stalled together), and the peer's 25 s NDL idle timer
# kept running meanwhile. A system that has ever joined a WPA2 network has them loaded already.
modprobe -a ccm gcm cmac 2>>"$private/modprobe.err" || report "could not preload the cipher modules: $(tail -n 1 "$private/modprobe.err")"

# kernel_complaints NAME DMESG: the kernel's complaints in DMESG that fail scenario NAME: every BUG, oops and
# panic, and each WARNING that kernel-warnings.allow does not name for NAME and that came before a
# "waware-vm-baseline:" line (mesh_join in lib.sh logs one when a scenario's NAN steps are over and its
# non-NAN baseline starts; that part's warnings are the mesh's, and the scenario's log lists them).
kernel_complaints() {
    local name=$1 file=$2 line scenarios warning allowed
    grep -E 'BUG: |kernel BUG|Oops|general protection fault|Kernel panic' "$file"
    while IFS= read -r line; do
        allowed=
        while IFS=$'\t' read -r scenarios warning; do
            case $scenarios in '' | '#'*) continue ;; esac
            [[ $name =~ ^($scenarios)$ ]] && [[ $line =~ $warning ]] && { allowed=1; break; }
        done <"$here/kernel-warnings.allow"
        [ -n "$allowed" ] || printf '%s\n' "$line"
    done < <(sed '/waware-vm-baseline:/,$d' "$file" | grep -E 'WARNING: ')
}

# Leaves nothing behind for the next scenario: processes in namespaces, namespaces, radios.
reset_guest() {
    local ns pid
    for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
        ip netns del "$ns" 2>/dev/null
    done
    rmmod mac80211_hwsim 2>/dev/null
    # A scenario may allow 5 GHz with `iw reg set US`; the next one starts from the world domain again.
    iw reg set 00 2>/dev/null
}

# user_pids: the user-space processes running now (kernel threads, children of kthreadd, left out), one per line.
user_pids() { ps -e -o pid=,ppid= | awk '$1 != 2 && $2 != 2 { print $1 }' | sort; }

# end_leftovers BEFORE: kills what a scenario left running outside its namespaces (a daemon in the root
# namespace, a helper that detached), so that the next scenario does not share the CPU with it, and names it.
# Without this, 50 scenarios in one VM can leave the last ones sharing the CPUs with what earlier ones forgot.
end_leftovers() {
    local pid ppid stat comm args names= now
    # Listed in one command substitution: its subshell (our child) and ps are the only new processes of ours.
    now=$(ps -e -o pid=,ppid=,stat=,comm=)
    while read -r pid ppid stat comm; do
        # Zombies take no CPU (the guest's init does not reap every orphan).
        [ "$ppid" = "$$" ] || [ "$comm" = ps ] || [[ $stat == Z* ]] && continue
        args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c 1-80)
        kill -9 "$pid" 2>/dev/null && names+=" ${args:-$comm}($pid)"
    done < <(printf '%s\n' "$now" | awk -v old="$1" 'BEGIN { n = split(old, o, "\n"); for (i = 1; i <= n; i++) seen[o[i]] = 1 }
        $2 != 2 && $1 != 2 && !($1 in seen)')
    [ -z "$names" ] || echo "note: the scenario left processes running, ended by the runner:$names"
}

for name in "$@"; do
    if [ -n "$claims" ] && ! mkdir "$claims/$name" 2>/dev/null; then
        continue
    fi
    script=$scenarios/$name.sh
    out=$results/$name
    mkdir -p "$out"
    limit=$(awk -F': *' '/^# timeout:/ { print $2; exit }' "$script")
    limit=${limit:-${WAWARE_VM_SCENARIO_TIMEOUT:-120}}
    # Scaled like every limit inside the scenarios (lib.sh): a loaded host slows emulation many times.
    limit=$(awk -v s="$limit" -v k="${WAWARE_VM_TIME_SCALE:-4}" 'BEGIN { printf "%d", s * k + 0.5 }')
    dmesg -C
    modprobe mac80211_hwsim radios=0
    before=$(user_pids)
    report "scenario $name: start (timeout ${limit}s)"
    start=$(date +%s.%N)
    if [ "${WAWARE_VM_LIVE:-0}" = 1 ]; then
        # Live: the host prints these lines as they come (tools/demo).
        SCENARIO_NAME=$name SCENARIO_OUT=$out timeout -k 5 "$limit" bash "$script" 2>&1 </dev/null \
            | tee "$results/$name.log" | sed -u 's/^/waware-vm-live: /'
        rc=${PIPESTATUS[0]}
    else
        SCENARIO_NAME=$name SCENARIO_OUT=$out timeout -k 5 "$limit" bash "$script" >"$results/$name.log" 2>&1 </dev/null
        rc=$?
    fi
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    [ $rc = 124 ] && echo "TIMEOUT: the scenario did not finish within ${limit}s" >>"$results/$name.log"
    reset_guest
    end_leftovers "$before" >>"$results/$name.log"
    dmesg >"$results/$name.dmesg"
    complaints=$(kernel_complaints "$name" "$results/$name.dmesg")
    if grep -q 'waware-vm-baseline:' "$results/$name.dmesg"; then
        baseline=$(sed -n '/waware-vm-baseline:/,$p' "$results/$name.dmesg" | grep -E 'WARNING: ' \
            | sed -E 's/^\[ *[0-9.]+\] //; s/\+0x[0-9a-f/x]+//; s/, CPU#.*//' | sort | uniq -c)
        [ -z "$baseline" ] || printf 'note: kernel warnings during the non-NAN baseline (not judged):\n%s\n' \
            "$baseline" >>"$results/$name.log"
    fi
    if [ -n "$complaints" ]; then
        {
            # The first complaint goes on the FAIL line: the host repeats that line where a shortened output
            # (CI's) still shows it.
            first=$(printf '%s\n' "$complaints" | head -n 1 | sed -E 's/^\[ *[0-9.]+\] //; s/, CPU#.*//')
            echo "FAIL: the kernel complained while the scenario ran ($first; the traces are in $name.dmesg;"
            echo "warnings known to be the simulated driver's own are listed in tools/vm/guest/kernel-warnings.allow):"
            printf '%s\n' "$complaints" | sed 's/^/    /'
        } >>"$results/$name.log"
        [ $rc = 0 ] && rc=98
    fi
    if [ $rc = 0 ]; then status=PASS; else status=FAIL; fi
    echo "$status $rc $seconds" >"$results/$name.status"
    report "scenario $name: $status (exit $rc, ${seconds}s)"
done
echo "finished $(cut -d' ' -f1 /proc/uptime)" >"$private/done"
report "all scenarios finished"
