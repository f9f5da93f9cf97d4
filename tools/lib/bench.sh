# What every benchmark in tools/ records beside its samples and checks before it prints a figure: the commit
# it measured, when, and how busy the host was (the VM is software-emulated, so its figures follow what else
# the 2-core machine is doing). Sourced after common.sh by tools/discovery-bench, pairing-bench,
# datapath-bench and interop-bench.
#
#   bench_commit REPO                the commit of REPO, with "+uncommitted-changes" when tracked files differ
#   bench_load                       the host's 1, 5 and 15 min load now
#   bench_run_meta COMMIT LOAD_START [NOTE]
#                                    the meta.tsv lines of a run that just ended: commit, date_utc, host (cpus,
#                                    load at the start and the end, then NOTE), load_start, load_end
#   bench_open DIR                   checks DIR has samples.tsv and meta.tsv; afterwards `meta KEY` prints KEY's
#                                    value from DIR/meta.tsv
#   bench_require_meta KEY...        fails unless meta.tsv has each KEY
#   bench_numeric_samples            fails unless every line of samples.tsv is `kind<TAB>number`
#   bench_require_runs RUNS KIND...  fails unless each KIND has exactly RUNS samples

bench_commit() {
    local commit
    commit=$(git -C "$1" rev-parse HEAD) || die "not a git checkout: $1"
    [ -z "$(git -C "$1" status --porcelain --untracked-files=no)" ] || commit="$commit+uncommitted-changes"
    echo "$commit"
}

bench_load() { cut -d' ' -f1-3 /proc/loadavg; }

bench_run_meta() {
    local end
    end=$(bench_load)
    printf 'commit\t%s\n' "$1"
    printf 'date_utc\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'host\t%s cpus, load %s at the start, %s at the end%s\n' "$(nproc)" "$2" "$end" "${3:+, $3}"
    printf 'load_start\t%s\n' "$2"
    printf 'load_end\t%s\n' "$end"
}

bench_open() {
    bench_dir=$1
    [ -s "$bench_dir/samples.tsv" ] || die "no samples in $bench_dir/samples.tsv"
    [ -s "$bench_dir/meta.tsv" ] || die "no meta.tsv in $bench_dir: the figures would not say what they were measured with"
}

meta() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$bench_dir/meta.tsv"; }

bench_require_meta() {
    local key
    for key in "$@"; do
        [ -n "$(meta "$key")" ] || die "meta.tsv has no $key: the figures would not say what they were measured with"
    done
}

bench_numeric_samples() {
    local bad
    bad=$(awk -F'\t' 'NF != 2 || $2 !~ /^[0-9]+(\.[0-9]+)?$/ { print NR ": " $0 }' "$bench_dir/samples.tsv")
    [ -z "$bad" ] || die "malformed samples in $bench_dir/samples.tsv (line: text): $bad"
}

bench_require_runs() {
    local runs=$1 kind n
    shift
    for kind in "$@"; do
        n=$(grep -c "^$kind	" "$bench_dir/samples.tsv")
        [ "$n" = "$runs" ] || die "$kind has $n samples, expected $runs (a missing sample is not a 0)"
    done
}
