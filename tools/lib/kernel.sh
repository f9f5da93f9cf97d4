# Debian unstable's newest kernel, fetched with a private apt state and cached (sourced, not run).
#
# kernel_ensure sets:
#   KERNEL_VERSION   e.g. 7.2.13+deb14-amd64
#   KERNEL_ROOT      the extracted packages: $WAWARE_CACHE/kernel/<ver>/root
#   KERNEL_IMAGE     $KERNEL_ROOT/usr/lib/modules/<ver>/vmlinuz
#   KERNEL_HEADER    $KERNEL_ROOT/usr/include/linux/nl80211.h (from linux-libc-dev)
#
# Cache layout (under WAWARE_CACHE, default ~/.cache/waware):
#   apt/sources.list   the one `deb ... sid main` line, mirror taken from this machine's apt config
#   apt/lists/         package lists of that private source (apt-get update)
#   apt/cache/         apt's binary caches for those lists
#   apt/dl/            the downloaded .deb files
#   kernel/<ver>/root/ the three packages extracted with dpkg-deb -x
#   kernel/<ver>/nan-ok  written once the hwsim module was checked for NAN support
#
# A kernel already in the cache is used without touching the network. WAWARE_KERNEL_REFRESH=1
# asks the archive for a newer one. The machine's apt sources and installed packages are never touched.

# The Debian mirror this machine already uses (no host name is ever written into the repository).
debian_mirror() {
    local mirror=${WAWARE_DEBIAN_MIRROR:-}
    if [ -z "$mirror" ] && [ -r /etc/apt/sources.list.d/debian.sources ]; then
        mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
    fi
    if [ -z "$mirror" ] && [ -r /etc/apt/sources.list ]; then
        mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
    fi
    [ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list (set WAWARE_DEBIAN_MIRROR)"
    printf '%s\n' "$mirror"
}

# The private apt options: our own sources file, lists and caches; nothing of the system's apt state.
_kernel_apt_options() {
    local apt=$WAWARE_CACHE/apt
    APT_OPTS=(-q -o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=- -o Dir::Etc::preferencesparts=-
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o APT::Get::List-Cleanup=0)
    [ "$(id -u)" = 0 ] && APT_OPTS+=(-o APT::Sandbox::User=root)
    return 0
}

# Prints the module file of mac80211_hwsim in ROOT/usr/lib/modules/VER, if any.
_kernel_hwsim_module() {
    find "$1/usr/lib/modules/$2" -name 'mac80211_hwsim.ko*' -print -quit 2>/dev/null
}

# Succeeds when the hwsim module in ROOT/usr/lib/modules/VER simulates NAN.
_kernel_hwsim_has_nan() {
    local module count
    module=$(_kernel_hwsim_module "$1" "$2")
    [ -n "$module" ] || return 1
    case $module in
        *.xz) count=$(xz -dc "$module" | strings | grep -c NL80211_CMD_NAN_SET_LOCAL_SCHED) ;;
        *.zst) count=$(zstd -qdc "$module" | strings | grep -c NL80211_CMD_NAN_SET_LOCAL_SCHED) ;;
        *) count=$(strings "$module" | grep -c NL80211_CMD_NAN_SET_LOCAL_SCHED) ;;
    esac
    [ "${count:-0}" -gt 0 ]
}

# Newest cached kernel that passed the NAN check (prints its version), if any.
_kernel_newest_cached() {
    local dir best=
    for dir in "$WAWARE_CACHE"/kernel/*/; do
        dir=${dir%/}
        [ -d "$dir/root" ] || continue
        local ver=${dir##*/}
        if [ ! -e "$dir/nan-ok" ]; then
            # A tree extracted earlier (for instance by hand) is fine once it passes the checks.
            [ -f "$dir/root/usr/lib/modules/$ver/vmlinuz" ] && _kernel_hwsim_has_nan "$dir/root" "$ver" || continue
            touch "$dir/nan-ok"
        fi
        best=$(printf '%s\n%s\n' "$best" "$ver" | sed '/^$/d' | sort -V | tail -n 1)
    done
    printf '%s' "$best"
}

# Downloads the newest kernel of Debian unstable into the cache, extracts and checks it.
_kernel_fetch() {
    local apt=$WAWARE_CACHE/apt mirror ver pkg debs=() start
    start=$(now)
    need_packages apt dpkg kmod xz-utils zstd binutils debian-archive-keyring
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
    mirror=$(debian_mirror) || exit 1
    printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s sid main\n' "$mirror" >"$apt/sources.list"
    _kernel_apt_options
    say "downloading the package lists of Debian unstable (private apt state in $apt)"
    # apt-get update exits 0 even when nothing could be fetched: look at what it says and what it got.
    apt-get "${APT_OPTS[@]}" update >"$apt/update.log" 2>&1
    local rc=$?
    if [ $rc != 0 ] || grep -qE '^(Err:|E: |W: Failed to fetch|W: Some index files failed)' "$apt/update.log"; then
        grep -E '^(Err|E:|W:)' "$apt/update.log" | sed 's/^/    | /' >&2
        if ls "$apt"/lists/*_dists_sid_main_binary-amd64_Packages* >/dev/null 2>&1; then
            say "warning: could not refresh the package lists from $mirror (above); using the ones from an earlier run"
        else
            die "cannot reach the Debian archive at $mirror (apt-get update of sid failed, above; no network?)"
        fi
    fi
    ver=$(apt-cache "${APT_OPTS[@]}" depends linux-image-amd64/sid 2>/dev/null \
        | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { sub(/^linux-image-/, "", $2); print $2; exit }')
    [ -n "$ver" ] || die "linux-image-amd64 in Debian unstable does not name a linux-image-<version> package"
    if [ -e "$WAWARE_CACHE/kernel/$ver/nan-ok" ]; then
        say "newest kernel of Debian unstable is $ver, already cached"
        printf '%s' "$ver" >"$WAWARE_CACHE/kernel/.resolved"
        return 0
    fi
    # Newer packaging splits the image into linux-binary-<ver> (vmlinuz) and linux-modules-<ver>;
    # older kernels ship both in linux-image-<ver> itself.
    local deps
    deps=$(apt-cache "${APT_OPTS[@]}" show "linux-image-$ver/sid" 2>/dev/null | awk '/^Depends:/ { print; exit }')
    if [[ $deps == *"linux-binary-$ver"* && $deps == *"linux-modules-$ver"* ]]; then
        debs=("linux-binary-$ver/sid" "linux-modules-$ver/sid")
    else
        debs=("linux-image-$ver/sid")
    fi
    debs+=(linux-libc-dev/sid)
    say "downloading kernel $ver: ${debs[*]%/sid}"
    (cd "$apt/dl" && rm -f ./*.deb && apt-get "${APT_OPTS[@]}" download "${debs[@]}") >"$apt/download.log" 2>&1 \
        || { cat "$apt/download.log" >&2; die "downloading ${debs[*]} from Debian unstable failed (see above)"; }
    local dir=$WAWARE_CACHE/kernel/$ver tmp
    tmp=$(mktemp -d "$WAWARE_CACHE/kernel/.extract.XXXXXX")
    for pkg in "$apt"/dl/*.deb; do
        dpkg-deb -x "$pkg" "$tmp/root" || die "cannot extract $pkg"
    done
    [ -f "$tmp/root/usr/lib/modules/$ver/vmlinuz" ] || die "the packages of $ver hold no usr/lib/modules/$ver/vmlinuz"
    depmod -a -b "$tmp/root/usr" "$ver" 2>/dev/null || depmod -a -b "$tmp/root" "$ver" \
        || die "depmod failed for $ver"
    _kernel_hwsim_has_nan "$tmp/root" "$ver" \
        || die "kernel $ver: mac80211_hwsim $( [ -n "$(_kernel_hwsim_module "$tmp/root" "$ver")" ] && echo 'has no NAN support' || echo 'module is missing')"
    touch "$tmp/nan-ok"
    rm -rf "$dir"
    mv "$tmp" "$dir"
    printf '%s' "$ver" >"$WAWARE_CACHE/kernel/.resolved"
    say "kernel $ver cached in $dir ($(du -sh "$apt/dl" | cut -f1) downloaded in $(elapsed "$start") s)"
}

# Links /usr/lib/modules/<ver> to the cached tree, so `vng -r <ver>` and modprobe find it.
# An existing valid link or directory is left alone (another cache may own it).
_kernel_link_modules() {
    local link=/usr/lib/modules/$KERNEL_VERSION target=$KERNEL_ROOT/usr/lib/modules/$KERNEL_VERSION
    if [ -e "$link/vmlinuz" ]; then
        return 0
    fi
    if [ -L "$link" ] || [ ! -e "$link" ]; then
        as_root mkdir -p /usr/lib/modules && as_root ln -sfn "$target" "$link" \
            && say "linked $link -> $target" \
            || say "warning: could not link $link (the bench boots from the cache path and does not need it)"
    fi
}

kernel_ensure() {
    mkdir -p "$WAWARE_CACHE/kernel" || die "cannot create the cache directory $WAWARE_CACHE"
    case $WAWARE_CACHE in
        /var/tmp/* | /var/cache/* | /var/log/* | /var/lib/apt/* | /run/*)
            die "WAWARE_CACHE=$WAWARE_CACHE is hidden inside the VM (virtme-ng mounts a tmpfs there); use another directory" ;;
    esac
    local ver=${WAWARE_KERNEL_VERSION:-}
    if [ -z "$ver" ] && [ "${WAWARE_KERNEL_REFRESH:-0}" != 1 ]; then
        ver=$(_kernel_newest_cached)
        [ -n "$ver" ] && say "kernel $ver from the cache $WAWARE_CACHE/kernel (no download; WAWARE_KERNEL_REFRESH=1 looks for a newer one)"
    fi
    if [ -z "$ver" ]; then
        _kernel_fetch
        ver=$(cat "$WAWARE_CACHE/kernel/.resolved")
    elif [ ! -e "$WAWARE_CACHE/kernel/$ver/nan-ok" ]; then
        [ -n "$(_kernel_newest_cached)" ] # validates trees extracted earlier
        [ -e "$WAWARE_CACHE/kernel/$ver/nan-ok" ] || die "kernel $ver is not in the cache $WAWARE_CACHE/kernel (unset WAWARE_KERNEL_VERSION to fetch the newest)"
    fi
    KERNEL_VERSION=$ver
    KERNEL_ROOT=$WAWARE_CACHE/kernel/$ver/root
    KERNEL_IMAGE=$KERNEL_ROOT/usr/lib/modules/$ver/vmlinuz
    KERNEL_HEADER=$KERNEL_ROOT/usr/include/linux/nl80211.h
    [ -f "$KERNEL_IMAGE" ] || die "cached kernel $ver has no $KERNEL_IMAGE (remove $WAWARE_CACHE/kernel/$ver to fetch it again)"
    [ -f "$KERNEL_HEADER" ] || die "cached kernel $ver has no nl80211.h from linux-libc-dev at $KERNEL_HEADER"
    _kernel_link_modules
}
