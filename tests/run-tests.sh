#!/bin/bash
# Run tests and count them honestly. Each argument is a test program or script.
# Exit status of a test: 0 passed, 77 SKIPPED (its last line of output gives the reason),
# anything else failed. A Check unit test counts as one test here and prints its own details.
# Prints one line per test and a closing summary; exits 1 when anything failed.
# SEINSTALL_TEST_SHUFFLE=SEED runs them in an order shuffled by SEED (a number), printed so
# that the same order can be run again: no test may depend on another having run first.
set -u

if [ -n "${SEINSTALL_TEST_SHUFFLE:-}" ] && [ $# -gt 1 ]; then
        seed=$SEINSTALL_TEST_SHUFFLE
        [[ $seed =~ ^[0-9]+$ ]] || { echo "run-tests.sh: SEINSTALL_TEST_SHUFFLE must be a number, not '$seed'" >&2; exit 2; }
        mapfile -t order < <(printf '%s\n' "$@" | shuf --random-source=<(yes "$seed"))
        set -- "${order[@]}"
        echo "order: shuffled with seed $seed (SEINSTALL_TEST_SHUFFLE=$seed runs it again)"
fi

passed=0 failed=0 skipped=0
failed_names=() skipped_names=()
logdir=${TEST_LOGDIR:-build/test-logs}
mkdir -p "$logdir"

for t in "$@"; do
        name=${t#./}
        log="$logdir/$(echo "$name" | tr '/' '_').log"
        start=$(date +%s)
        if [[ $t == *.sh ]]; then
                bash "$t" >"$log" 2>&1
        else
                "$t" >"$log" 2>&1
        fi
        rc=$?
        secs=$(($(date +%s) - start))
        case $rc in
        0)
                passed=$((passed + 1))
                printf 'PASS     %-50s %4ss\n' "$name" "$secs"
                ;;
        77)
                skipped=$((skipped + 1))
                reason=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
                skipped_names+=("$name: ${reason:-no reason given}")
                printf 'SKIPPED  %-50s %s\n' "$name" "${reason:-no reason given}"
                ;;
        *)
                failed=$((failed + 1))
                failed_names+=("$name")
                printf 'FAIL     %-50s exit %s (log: %s)\n' "$name" "$rc" "$log"
                tail -n 40 "$log" | sed 's/^/    | /'
                ;;
        esac
done

echo
if ((skipped > 0)); then
        echo "SKIPPED tests (not run, not counted as passed):"
        printf '  %s\n' "${skipped_names[@]}"
fi
if ((failed > 0)); then
        echo "FAILED tests:"
        printf '  %s\n' "${failed_names[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
