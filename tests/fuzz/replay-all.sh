#!/bin/bash
# Replay every committed seed corpus and crash reproducer through its fuzz target, built as a
# plain program (replay-main.c). A reproducer that crashes again fails `make check`.
set -u
build=${SEINSTALL_BUILD:-build}
cd "$(dirname "$0")/../.."
rc=0 n=0
for src in tests/fuzz/fuzz-*.c; do
        [ -e "$src" ] || continue
        name=${src#tests/fuzz/fuzz-}
        name=${name%.c}
        bin=$build/tests/fuzz/replay-$name
        [ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
        inputs=()
        for d in tests/fuzz/corpus/$name tests/fuzz/crashes/$name; do
                [ -d "$d" ] && inputs+=("$d")
        done
        [ ${#inputs[@]} -gt 0 ] || { echo "FAIL: fuzz-$name has no seed corpus in tests/fuzz/corpus/$name"; rc=1; continue; }
        "$bin" "${inputs[@]}" || { echo "FAIL: replay of fuzz-$name"; rc=1; }
        n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "SKIPPED: no fuzz targets yet"; exit 77; }
exit $rc
