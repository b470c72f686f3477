#!/bin/sh
# test/bench/cachegrind.sh: data-cache misses per evaluation, repeatable
# (valgrind's cache simulation, not the machine's counters). The corpus's
# pre-decoded programs (about 22 MiB) do not fit a 4 MiB cache, so a warm
# evaluation's time depends on how many cache lines it touches; this
# counts them. Like callgrind.sh it runs dwexpr-bench with one and with
# three passes of each kind and divides the difference by the evaluations
# of two passes (setup cancels out). The last level is simulated as
# 4 MiB, 16-way, 64-byte lines (this machine's L2; its L3 is shared).
#   test/bench/cachegrind.sh [BUILD_DIR [CORPUS]]
# prints: dwexpr-warm l1_misses_per_eval=... ll_misses_per_eval=...
# (and cold, warmb = bound, warmr = bound by reference). The benchmark's
# own loop reads one corpus entry per evaluation: about one miss of each
# figure is the harness's, not the library's.
set -eu
build=${1:-build}
corpus=${2:-../shared/bench/corpus.txt}
bench=$build/test/bench/dwexpr-bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT

misses() { # mode -> "L1 LL" misses (reads + writes) of the whole run
    valgrind --tool=cachegrind --cache-sim=yes --LL=4194304,16,64 \
        --cachegrind-out-file="$out" "$bench" "$corpus" "$1" >/dev/null 2>&1
    awk '/^events:/ { for (i = 2; i <= NF; i++) ev[i] = $i }
         /^summary:/ { for (i = 2; i <= NF; i++) v[ev[i]] = $i
                       print v["D1mr"] + v["D1mw"], v["DLmr"] + v["DLmw"] }' "$out"
}

n=$(grep -c '^[0-9]' "$corpus")
for kind in cold warm warmb warmr; do
    one=$(misses "${kind}1")
    three=$(misses "${kind}3")
    echo "$one $three" | awk -v k="$kind" -v n="$n" '{
        printf "dwexpr-%s l1_misses_per_eval=%.2f ll_misses_per_eval=%.2f\n",
               k, ($3 - $1) / (2 * n), ($4 - $2) / (2 * n) }'
done
