#!/bin/bash
# `make fuzz-build` links every libFuzzer target (tests/fuzz/fuzz-*.c, the library built with
# clang, ASan and UBSan, linked with the Makefile's own libraries), and each runs for a few
# seconds from its seed corpus without a crash, a leak or a timeout: what `make fuzz` does for
# FUZZ_SECONDS each. New inputs and crashes go to a scratch directory, not to the tree. The
# inputs come from a fixed seed (SEINSTALL_FUZZ_SEED, default 1), so that what one run finds
# the next finds again: a test of the suite is not a search for new inputs (`make fuzz` is).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool clang clang
secs=${SEINSTALL_FUZZ_SECONDS:-2}
seed=${SEINSTALL_FUZZ_SEED:-1}
d=$(scratch_dir)
echo 'int LLVMFuzzerTestOneInput(const unsigned char *p, unsigned long n) { return 0; }' >"$d/probe.c"
clang -fsanitize=fuzzer,address,undefined -o "$d/probe" "$d/probe.c" 2>"$d/probe.err" ||
        skip "clang cannot build a libFuzzer program here: $(head -n 3 "$d/probe.err")"

start=$(date +%s)
run_make -j2 fuzz-build >"$d/build.log" 2>&1 || fail "make fuzz-build: $(tail -n 30 "$d/build.log")"
echo "ok: make fuzz-build in $(($(date +%s) - start))s"
n=0
for src in "$TOP"/tests/fuzz/fuzz-*.c; do
        name=${src##*/fuzz-}
        name=${name%.c}
        bin=$TOP/build/fuzz/fuzz-$name
        [ -x "$bin" ] || fail "make fuzz-build made no $bin"
        [ -d "$TOP/tests/fuzz/corpus/$name" ] || fail "fuzz-$name has no seed corpus in tests/fuzz/corpus/$name"
        mkdir -p "$d/corpus/$name" "$d/crashes/$name"
        "$bin" -seed="$seed" -max_total_time="$secs" -max_len=65536 -timeout=10 -artifact_prefix="$d/crashes/$name/" \
                "$d/corpus/$name" "$TOP/tests/fuzz/corpus/$name" >"$d/$name.log" 2>&1 && rc=0 || rc=$?
        runs=$(grep -o 'Done [0-9]* runs' "$d/$name.log" | tail -n 1)
        [ "$rc" = 0 ] || fail "fuzz-$name exited $rc: $(grep -m1 -A12 'ERROR\|SUMMARY\|==ERROR' "$d/$name.log" || tail -n 20 "$d/$name.log")"
        [ -z "$(ls -A "$d/crashes/$name")" ] || fail "fuzz-$name left $(ls "$d/crashes/$name")"
        [ -n "$runs" ] || fail "fuzz-$name did not say how many inputs it ran: $(tail -n 5 "$d/$name.log")"
        echo "ok: fuzz-$name ran ${secs}s without a crash (${runs#Done })"
        n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no fuzz target in tests/fuzz"
echo "ok: $n fuzz targets built and ran"
