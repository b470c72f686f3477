#!/bin/sh
# test/bench/callgrind.sh: instructions per evaluation, repeatable (unlike
# time on a shared machine). Runs dwexpr-bench under valgrind's callgrind
# with one and with three passes of each kind and divides the difference
# by the evaluations of two passes, so setup (reading the corpus,
# decoding the warm programs) cancels out.
#   test/bench/callgrind.sh [BUILD_DIR [CORPUS]]
# prints: dwexpr-cold instructions_per_eval=...  (and warm, aspace = warm on
# a target with address-space facts, lanes per lane, decode per
# dwexpr_program_decode + dwexpr_program_free; coldb, warmb, aspaceb: cold,
# warm and aspace through the bound API, dwexpr_ctx_bind once per pass;
# warmr: warmb by dwexpr_eval_bound_ref, the result not copied)
set -eu
build=${1:-build}
corpus=${2:-../shared/bench/corpus.txt}
bench=$build/test/bench/dwexpr-bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT

total() { # mode -> instructions of the whole run
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" "$corpus" "$1" >/dev/null 2>&1
    awk '/^(summary|totals):/ {print $2; exit}' "$out"
}

n=$(grep -c '^[0-9]' "$corpus")
for kind in cold warm aspace coldb warmb warmr aspaceb lanes decode; do
    one=$(total "${kind}1")
    three=$(total "${kind}3")
    per=$n
    [ "$kind" = lanes ] && per=64000 # one lanes pass: 1000 batches of 64 lanes
    awk -v a="$one" -v b="$three" -v k="$kind" -v p="$per" \
        'BEGIN { printf "dwexpr-%s instructions_per_eval=%.1f\n", k, (b - a) / (2 * p) }'
done
