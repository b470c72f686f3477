#!/usr/bin/env bash
# fuzz/ci.sh: build the fuzz harnesses with clang (libFuzzer + ASan + UBSan)
# and run each for FUZZ_SECONDS (default 60) from its committed corpus and
# regressions. Prints one summary line per harness; exits non-zero on any
# finding (crash, invariant failure, leak, timeout, OOM) or build failure.
# Without clang it says so and exits 0.
#
#   FUZZ_SECONDS=60 FUZZ_BUILD_DIR=build-fuzz-ci fuzz/ci.sh [HARNESS...]
#
# Findings are kept in $FUZZ_BUILD_DIR/fuzz-findings/ (see fuzz/README.md,
# "Findings become regression tests").
set -uo pipefail
cd "$(dirname "$0")/.."

secs=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz-ci}
harnesses=("$@")
# fuzz_libdwarf is not in the CI list: libdwarf 20210528 (Debian 12) frees
# memory twice on an error path of dwarf_load_rnglists that a fuzzer reaches
# in minutes (fuzz/dependency-findings/), and CI must fail on dwexpr's own
# findings only. Its corpus and regressions replay in the test suite (suite
# fuzz); fuzz/campaign.sh runs it.
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_decode fuzz_eval fuzz_asm fuzz_context fuzz_cfi fuzz_elf
                                          fuzz_repl fuzz_diexpr fuzz_spirv fuzz_funcname)

if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: clang not found, fuzzers not built (skipped)"
    exit 0
fi

opts=(-Dfuzzing_engine=libfuzzer -Db_sanitize=address,undefined -Db_lundef=false
      -Dtests=false -Dc_args=-fno-sanitize-recover=all)
log=$(mktemp "${TMPDIR:-/tmp}/dwexpr-fuzz-build.XXXXXX")
if [ -d "$build/meson-private" ]; then
    meson setup --reconfigure "$build" "${opts[@]}" >"$log" 2>&1
else
    CC=clang meson setup "$build" "${opts[@]}" >"$log" 2>&1
fi
if [ $? -ne 0 ] || ! meson compile -C "$build" >>"$log" 2>&1; then
    echo "fuzz: the fuzzers did not build:" >&2
    tail -n 30 "$log" >&2
    rm -f "$log"
    exit 1
fi
rm -f "$log"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# findings are kept across runs (each input is named by its content's
# hash, and the log by the harness and the time), so that a later run
# does not lose one; the exit status is this run's alone
findings="$build/fuzz-findings"
mkdir -p "$findings"
stamp=$(date +%Y%m%d-%H%M%S)
status=0

# run_one HARNESS: fuzz it, print its summary line (and, on a finding,
# where the input and log went); exit 1 on a finding.
run_one() {
    local h=$1
    local exe="$build/fuzz/$h"
    if [ ! -x "$exe" ]; then
        echo "$h: not built (fuzz_context needs jansson), skipped"
        return 0
    fi
    local dict=(-dict=fuzz/dwarf.dict)
    [ "$h" = fuzz_context ] && dict=(-dict=fuzz/context.dict)
    [ "$h" = fuzz_elf ] && dict=()   # ELF images: no dictionary
    [ "$h" = fuzz_libdwarf ] && dict=()
    [ "$h" = fuzz_repl ] && dict=(-dict=fuzz/repl.dict)
    [ "$h" = fuzz_diexpr ] && dict=(-dict=fuzz/diexpr.dict)
    [ "$h" = fuzz_spirv ] && dict=(-dict=fuzz/spirv.dict)
    local work start rc took execs last cov ft arts
    work=$(mktemp -d "${TMPDIR:-/tmp}/dwexpr-$h.XXXXXX")
    mkdir -p "$work/corpus"
    start=$(date +%s)
    "$exe" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -print_final_stats=1 ${dict[@]+"${dict[@]}"} -artifact_prefix="$work/" \
        "$work/corpus" "fuzz/corpus/$h" "fuzz/regressions/$h" >"$work/log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$work/log" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    arts=$(find "$work" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \
           -o -name 'slow-unit-*' \) | grep -v slow-unit || true)
    local failed=0
    if [ $rc -ne 0 ] || [ -n "$arts" ]; then
        failed=1
        echo "$h: FAILED (exit $rc) after ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, ${took} s"
        grep -E 'ERROR|invariant failed|SUMMARY' "$work/log" | head -n 5 | sed 's/^/    /'
        for a in $arts; do
            cp "$a" "$findings/$h-$(basename "$a")"
            echo "    input: $findings/$h-$(basename "$a")"
        done
        cp "$work/log" "$findings/$h-$stamp.log"
        echo "    log: $findings/$h-$stamp.log"
    else
        echo "$h: ok, ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, ${took} s"
    fi
    rm -rf "$work"
    return $failed
}

# FUZZ_JOBS harnesses at a time (default: one per core; each fuzzer is one
# process, so a pair on two cores takes the wall time of one); the
# summaries print in the list's order.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
outs=$(mktemp -d "${TMPDIR:-/tmp}/dwexpr-fuzz-out.XXXXXX")
for i in "${!harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    { run_one "${harnesses[$i]}"; echo $? >"$outs/$i.rc"; } >"$outs/$i" 2>&1 &
done
wait
for i in "${!harnesses[@]}"; do
    cat "$outs/$i"
    [ "$(cat "$outs/$i.rc" 2>/dev/null)" = 0 ] || status=1
done
rm -rf "$outs"
exit $status
