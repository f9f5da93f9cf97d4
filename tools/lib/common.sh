# Shared helpers for the scripts under tools/ (sourced, not run).
#
# Every message names its script (`say`), failures name the missing piece and stop (`die`).
# The download cache lives in WAWARE_CACHE (default ~/.cache/waware).

WAWARE_REPO=${WAWARE_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WAWARE_CACHE=${WAWARE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/waware}
WAWARE_TOOL=${WAWARE_TOOL:-$(basename "$0")}

say() { printf '%s: %s\n' "$WAWARE_TOOL" "$*" >&2; }

die() {
    printf '%s: error: %s\n' "$WAWARE_TOOL" "$*" >&2
    exit 1
}

# Seconds since the epoch with a fractional part, for timings.
now() { date +%s.%N; }

# elapsed START -> "12.3" (seconds since START, one decimal).
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "need root for: $* (run as root or install sudo)"
    fi
}

# scenario_config NAME...: writes the named variables that are set here to a new file under results/, as
# `NAME<TAB>VALUE` lines, and prints its path; pass it to tools/vm/run as WAWARE_VM_SCENARIO_CONFIG, where the
# scenario reads it with load_settings (the guest does not see this environment). The caller removes it.
scenario_config() {
    local file name
    mkdir -p "$WAWARE_REPO/results" && file=$(mktemp "$WAWARE_REPO/results/scenario-config.XXXXXX") || die "cannot write a settings file under results/"
    for name in "$@"; do
        [ -n "${!name+set}" ] && printf '%s\t%s\n' "$name" "${!name}" >>"$file"
    done
    printf '%s\n' "$file"
}

# need_packages PKG... installs the Debian packages that are not installed yet
# (`apt-get update` runs at most once per process, before the first install). Another apt or dpkg run
# holding the lock (a second tools/ script, unattended upgrades) is waited for, up to 10 minutes.
_waware_apt_updated=
need_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || die "missing packages ${missing[*]} and no apt-get to install them"
    say "installing ${missing[*]}"
    if [ -z "$_waware_apt_updated" ]; then
        as_root apt-get -o DPkg::Lock::Timeout=600 update -qq || die "apt-get update failed (no network to the package archive?)"
        _waware_apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive as_root apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "could not install ${missing[*]}"
}

# need_vng installs virtme-ng (the `vng` command) with pip when it is missing.
need_vng() {
    command -v vng >/dev/null && return 0
    local pip
    pip=$(command -v pip3 || command -v pip) || { need_packages python3-pip; pip=$(command -v pip3); }
    say "installing virtme-ng with $pip"
    "$pip" install -q virtme-ng 2>/dev/null || "$pip" install -q --break-system-packages virtme-ng \
        || die "could not install virtme-ng (pip install virtme-ng)"
    hash -r
    command -v vng >/dev/null || die "virtme-ng installed but 'vng' is not on PATH ($PATH)"
}

# need_vm_packages installs everything the VM bench runs on the host and in the guest (the guest's root is
# the host's): QEMU, the initramfs tools virtme-ng uses (a static busybox, cpio), module and firmware
# tools, the scenarios' programs (iw, ip, python3, timeout, awk, hostapd, ...) and wireless-regdb, without whose
# /lib/firmware/regulatory.db `iw reg set US` silently leaves the world domain, and the libraries of the peer
# stack the interop scenarios run (wpa_supplicant 2.12 needs libnl-route-3-200 beside libnl-genl). Then virtme-ng.
# docs/testing.md lists every program and its package.
need_vm_packages() {
    need_packages qemu-system-x86 busybox-static cpio kmod xz-utils zstd binutils file iw iproute2 python3 \
        wireless-regdb coreutils mawk procps tar util-linux sed grep findutils libc-bin iperf3 \
        libnl-route-3-200 iputils-ping jq hostapd
    need_vng
}

# need_build_deps installs what `swift build` needs from Debian.
need_build_deps() {
    command -v swift >/dev/null || die "swift is not installed (need a Swift 6 toolchain on PATH)"
    need_packages libnl-3-dev libnl-genl-3-dev libssl-dev pkg-config libngtcp2-dev libngtcp2-crypto-gnutls-dev libgnutls28-dev
}

# need_test_deps installs what `swift test` runs besides the package: the shells whose syntax the generated
# completion scripts are checked with, and groff, which formats the generated manual page.
need_test_deps() {
    need_packages bash zsh fish groff-base
}

# percentiles and in_dw: tools/lib/stats.sh (the guest scenarios use them too).
source "$(dirname "${BASH_SOURCE[0]}")/stats.sh"
