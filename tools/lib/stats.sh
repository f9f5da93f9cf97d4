# The bench scripts' statistics, sourced by tools/lib/common.sh on the host and tools/vm/guest/lib.sh in
# the VM, so every figure is computed by one rule.

# percentiles: reads numbers, one per line, and prints `N P50 P95 MIN MAX MEAN`, the percentiles by nearest
# rank (the value at rank ceil(p * N) once sorted): the one percentile rule of every bench script.
# Fails (status 1, nothing printed) when there is no number.
percentiles() {
    sort -g | awk '
        function rank(p,   r) { r = int(p * NR + 0.999999); return r < 1 ? 1 : (r > NR ? NR : r) }
        { v[NR] = $1; sum += $1 }
        END {
            if (NR == 0) exit 1
            printf "%d %s %s %s %s %.12g\n", NR, v[rank(0.50)], v[rank(0.95)], v[1], v[NR], sum / NR
        }'
}

# in_dw SECONDS: SECONDS in DW periods (512 TU, 0.524288 s), two decimals.
in_dw() { awk -v s="$1" 'BEGIN { printf "%.2f", s / 0.524288 }'; }
