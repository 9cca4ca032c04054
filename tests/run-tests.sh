#!/bin/bash
# Run tests and count them honestly. Each argument is a test program or script.
# Exit status of a test: 0 passed, 77 SKIPPED (its last line of output gives the reason),
# anything else failed. A Check unit test counts as one test here and prints its own details.
# Prints one line per test and a closing summary; exits 1 when anything failed.
# SEINSTALL_TEST_SHUFFLE=SEED runs them in an order shuffled by SEED (a number), printed so
# that the same order can be run again: no test may depend on another having run first.
#
# Each test runs in a session of its own (setsid) with a TMPDIR of its own (short: a test
# of the first-boot screen shows its target's path on 80 columns). What a test leaves mounted or attached as a loop device there fails it (and is
# taken away). Stopped by TERM, INT or HUP (a time limit: `timeout` sends TERM), the runner
# ends the running test's session, QEMU guests included, and unmounts and detaches what is
# left below its TMPDIR (tests/reap.sh) before it exits; killed outright (SIGKILL), a watcher
# that outlives it does the same.
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
reap=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/reap.sh
run_dir=$(mktemp -d "${TMPDIR:-/tmp}/seinstall-run.XXXXXX") || exit 1
# The watcher reads a pipe whose writing end only this shell holds (tests get it closed).
exec {watch_fd}> >(exec setsid bash "$reap" watch "$run_dir" >>"$logdir/reap.log" 2>&1)
cur=
stopped() {
        trap '' TERM INT HUP
        echo "run-tests.sh: stopped by SIG$1${cur:+ during ${cur#*:}}: ending its processes, mounts and loop devices"
        [ -n "$cur" ] && bash "$reap" now "${cur%%:*}" "$tmp" && rm -rf --one-file-system "$tmp"
        exit $((128 + $2))
}
trap 'stopped TERM 15' TERM
trap 'stopped INT 2' INT
trap 'stopped HUP 1' HUP

for t in "$@"; do
        name=${t#./}
        log="$logdir/$(echo "$name" | tr '/' '_').log"
        start=$(date +%s)
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/si.XXXXXX") || exit 1
        # setsid does not fork here (a child of a shell without job control leads no process
        # group), so the test's pid is its session's id. wait returns when a trapped signal
        # comes in.
        if [[ $t == *.sh ]]; then
                TMPDIR=$tmp setsid bash "$t" >"$log" 2>&1 </dev/null {watch_fd}>&- &
        else
                TMPDIR=$tmp setsid "$t" >"$log" 2>&1 </dev/null {watch_fd}>&- &
        fi
        pid=$!
        cur=$pid:$name
        printf '%s\n%s\n' "$pid" "$tmp" >"$run_dir/.session"
        wait "$pid"
        rc=$?
        # What the test left: its processes, mounts and loop devices below its TMPDIR.
        left=$(bash "$reap" now "$pid" "$tmp" 3)
        cur=
        : >"$run_dir/.session"
        rm -rf --one-file-system "$tmp"
        if [ -n "$left" ] && { [ "$rc" = 0 ] || [ "$rc" = 77 ]; }; then
                printf '%s\n' "$left" | sed 's/^/LEFT BEHIND: /' >>"$log"
                rc=1
        fi
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
                # The lines that say what failed first: a long log's tail may not hold them,
                # and a reader of a cut copy (a CI page) sees its head and its end.
                grep -E '^[[:space:]]*(FAIL|not ok)|:[EF]:' "$log" | head -n 20 | sed 's/^/    ! /'
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
