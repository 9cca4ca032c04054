#!/bin/bash
# The relabel unit test (tests/unit/test-relabel.c) under ThreadSanitizer: the walk's threads,
# its queue and the messages they hand to the caller's thread must show no data race. First a
# canary with a deliberate race must be reported, so that a sanitizer that is off or broken
# cannot make this pass. `make check-tsan` builds both under build/tsan.
. "$(dirname "$0")/../lib.sh"
B=$TOP/${TSAN_BUILD:-build/tsan}
for f in canary tests/unit/test-relabel; do
        [ -x "$B/$f" ] || fail "$B/$f not built (make check-tsan builds it)"
done
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

out=$("$B/canary" 2>&1)
rc=$?
if grep -q 'FATAL: ThreadSanitizer' <<<"$out"; then
        skip "ThreadSanitizer cannot run on this kernel: $(grep -m1 FATAL <<<"$out")"
fi
if [ "$rc" != 66 ] || ! grep -q 'WARNING: ThreadSanitizer: data race' <<<"$out"; then
        fail "ThreadSanitizer did not report the canary's deliberate race (exit $rc): $out"
fi
echo "ok: ThreadSanitizer reports the canary's race"

"$B/tests/unit/test-relabel"
rc=$?
case $rc in
0) echo "ok: the relabel tests ran under ThreadSanitizer without a report" ;;
77) skip "the relabel unit test cannot run here (see above)" ;;
*) fail "the relabel tests failed under ThreadSanitizer (exit $rc; a report above names the race)" ;;
esac
