#!/usr/bin/env bash
# fuzz/campaign.sh: a long libFuzzer campaign, one harness after another,
# each for MINUTES contiguous minutes, keeping a growing working corpus per
# harness in WORK/<harness> (seeded from fuzz/corpus and fuzz/regressions).
# Prints one line per harness with its executions, coverage (edges), features
# and findings; a finding's input and log stay in WORK/findings/.
#
#   FUZZ_BUILD_DIR=build-fuzz MINUTES=30 WORK=/var/tmp/dwexpr-fuzz \
#       fuzz/campaign.sh [HARNESS...]
#
# The fuzzers are built by fuzz/ci.sh (FUZZ_SECONDS=1 FUZZ_BUILD_DIR=...)
# or as fuzz/README.md shows. Runs under `nice` so other work keeps a core.
set -uo pipefail
cd "$(dirname "$0")/.."

build=${FUZZ_BUILD_DIR:-build-fuzz}
minutes=${MINUTES:-30}
work=${WORK:-/var/tmp/dwexpr-fuzz}
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_decode fuzz_eval fuzz_asm fuzz_context fuzz_cfi fuzz_elf fuzz_libdwarf fuzz_repl
                                          fuzz_diexpr fuzz_spirv fuzz_funcname)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$work/findings"
status=0
for h in "${harnesses[@]}"; do
    exe="$build/fuzz/$h"
    if [ ! -x "$exe" ]; then
        echo "$h: not built in $build, skipped"
        continue
    fi
    dict=()
    case $h in
        fuzz_context) dict=(-dict=fuzz/context.dict) ;;
        fuzz_repl) dict=(-dict=fuzz/repl.dict) ;;
        fuzz_diexpr) dict=(-dict=fuzz/diexpr.dict) ;;
        fuzz_spirv) dict=(-dict=fuzz/spirv.dict) ;;
        fuzz_elf|fuzz_libdwarf) dict=() ;;
        *) dict=(-dict=fuzz/dwarf.dict) ;;
    esac
    mkdir -p "$work/$h"
    log="$work/$h.log"
    start=$(date +%s)
    nice -n 10 "$exe" -max_total_time=$((minutes * 60)) -timeout=30 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -print_final_stats=1 ${dict[@]+"${dict[@]}"} \
        -artifact_prefix="$work/findings/$h-" \
        "$work/$h" "fuzz/corpus/$h" "fuzz/regressions/$h" >"$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(find "$work/$h" -type f | wc -l)
    if [ $rc -ne 0 ]; then
        status=1
        echo "$h: FINDING (exit $rc) after ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, ${took} s; log $log"
        grep -E 'ERROR|invariant failed|SUMMARY' "$log" | head -n 5 | sed 's/^/    /'
    else
        echo "$h: ${took} s, ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp}, no finding"
    fi
done
exit $status
