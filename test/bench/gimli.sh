#!/bin/sh
# test/bench/gimli.sh: gimli (Debian's librust-gimli-dev 0.27) on the
# benchmark corpus with the same mock target as dwexpr-bench
# (test/bench/gimli/), built offline with cargo into BUILD_DIR/gimli-bench.
#   test/bench/gimli.sh BUILD_DIR compare [CORPUS]
#       every corpus result of dwexpr and of gimli, compared
#       (test/bench/gimli-compare.py; TAP; meson test gimli-compare)
#   test/bench/gimli.sh BUILD_DIR random [SEED [COUNT]]
#       the same on COUNT (20000) random DWARF 5 expressions of SEED (1)
#       (test/bench/gimli-random.py; meson test gimli-random)
#   test/bench/gimli.sh BUILD_DIR callgrind [CORPUS]
#       gimli's instructions per evaluation, as test/bench/callgrind.sh
#       measures dwexpr's: gimli-stack (its allocation-free storage, the
#       reference of issue 8) and gimli-heap (its default storage)
#   test/bench/gimli.sh BUILD_DIR time [CORPUS]
#       ns per evaluation, median of 5 runs (BENCH_SECONDS each, default 2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
mode=$2
if [ "$mode" = random ]; then
    corpus=
else
    corpus=${3:-$here/../../../shared/bench/corpus.txt}
fi
dir=$build/gimli-bench

# A copy of the project (cargo writes Cargo.lock next to Cargo.toml and
# reads .cargo/config.toml from the directory it runs in), then the build.
mkdir -p "$dir"
cp -R "$here/gimli/Cargo.toml" "$here/gimli/src" "$here/gimli/.cargo" "$dir/"
(cd "$dir" && cargo build --release --quiet) >&2
gimli=$dir/target/release/gimli-bench

case $mode in
compare | random)
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    if [ "$mode" = random ]; then
        corpus=$out/random.txt
        python3 "$here/gimli-random.py" "${3:-1}" "${4:-20000}" >"$corpus"
    fi
    "$build/test/bench/dwexpr-bench" "$corpus" dump >"$out/dwexpr"
    "$gimli" "$corpus" dump >"$out/gimli"
    python3 "$here/gimli-compare.py" "$corpus" "$out/dwexpr" "$out/gimli"
    ;;
callgrind)
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    total() {
        valgrind --tool=callgrind --callgrind-out-file="$out" "$gimli" "$corpus" "$1" >/dev/null 2>&1
        awk '/^(summary|totals):/ {print $2; exit}' "$out"
    }
    n=$(grep -c '^[0-9]' "$corpus")
    for kind in stack heap; do
        one=$(total "${kind}1")
        three=$(total "${kind}3")
        awk -v a="$one" -v b="$three" -v k="$kind" -v p="$n" \
            'BEGIN { printf "gimli-%s instructions_per_eval=%.1f\n", k, (b - a) / (2 * p) }'
    done
    ;;
time)
    "$gimli" "$corpus" time
    ;;
*)
    echo "usage: $0 BUILD_DIR compare|callgrind|time [CORPUS] | random [SEED [COUNT]]" >&2
    exit 2
    ;;
esac
