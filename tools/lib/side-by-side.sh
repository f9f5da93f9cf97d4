# Side-by-side tables: waware beside the reference stack (wpa_supplicant 2.12) measured in the same boot, the
# one row printer of tools/discovery-bench, tools/pairing-bench and tools/datapath-bench --with-reference
# (sourced after common.sh, whose stats.sh gives `percentiles`).
#
#   side_by_side_meta META_TSV      the block every table goes with: date, commit, build, reference binary,
#                                   regulatory domain, host load at the start and the end (keys date_utc, commit,
#                                   configuration, binary, binary_sha256, reference, regulatory_domain,
#                                   load_start, load_end; a missing one shows as "?")
#   side_by_side_header             the table's two header lines
#   side_by_side_row SAMPLES METRIC WAWARE_KIND REFERENCE_KIND [UNIT]
#                                   one row from the `kind<TAB>value` lines of SAMPLES: runs of each, p50 / p95 of
#                                   each (nearest rank), and the ratio waware p50 / reference p50. UNIT "s"
#                                   (default) also shows DW periods (0.524288 s); "ms" shows samples in
#                                   seconds as milliseconds, without DWs (USD has none); any other unit
#                                   (Mbit/s) is shown as it is. Fails when either kind has no sample.

side_by_side_meta() {
    awk -F'\t' '{ v[$1] = $2 }
        function g(k) { return (k in v && v[k] != "") ? v[k] : "?" }
        END {
            printf "- measured: %s (UTC), commit %s\n", g("date_utc"), g("commit")
            printf "- waware: %s build, %s (sha256 %s)\n", g("configuration"), g("binary"), substr(g("binary_sha256"), 1, 16) "..."
            printf "- reference: %s\n", g("reference")
            printf "- regulatory domain: %s\n", g("regulatory_domain") (g("regulatory_domain") == "00" ? " (world: 2.4 GHz DWs only)" : "")
            printf "- host load (1, 5, 15 min): %s at the start, %s at the end\n", g("load_start"), g("load_end")
        }' "$1"
}

side_by_side_header() {
    echo "| metric | runs (reference / waware) | reference p50 / p95 | waware p50 / p95 | ratio (waware p50 / reference p50) |"
    echo "|---|---|---|---|---|"
}

side_by_side_row() {
    local samples=$1 metric=$2 unit=${5:-s} w r
    w=$(grep "^$3	" "$samples" | cut -f2 | percentiles) || die "no $3 samples in $samples"
    r=$(grep "^$4	" "$samples" | cut -f2 | percentiles) || die "no $4 samples in $samples"
    awk -v metric="$metric" -v unit="$unit" -v w="$w" -v r="$r" '
        function cell(p50, p95) {
            if (unit == "s") return sprintf("%.3f / %.3f s (%.2f / %.2f DW)", p50, p95, p50 / 0.524288, p95 / 0.524288)
            if (unit == "ms") return sprintf("%.0f / %.0f ms", p50 * 1000, p95 * 1000)
            return sprintf("%.1f / %.1f %s", p50, p95, unit)
        }
        BEGIN {
            split(w, a, " "); split(r, b, " ")
            printf "| %s | %d / %d | %s | %s | %s |\n", metric, b[1], a[1], cell(b[2], b[3]), cell(a[2], a[3]),
                (b[2] > 0 ? sprintf("%.2f", a[2] / b[2]) : "-")
        }'
}
