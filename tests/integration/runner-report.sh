#!/bin/bash
# What tests/run-tests.sh prints of a failed test shows what failed, even when the log is long
# and the failure came early: a QEMU scenario that fails first and nine that pass after it
# leave the "FAIL" line far above the log's last 40 lines. The runner's report of such a test
# must hold that line (and a Check unit test's ":F:" line), and a passing test's report none.
. "$(dirname "$0")/../lib.sh"

d=$(scratch_dir)
cat >"$d/early.sh" <<'EOF'
#!/bin/sh
echo "=== scenario one"
echo "  FAIL: the first scenario's check number 7"
i=0
while [ $i -lt 200 ]; do echo "  ok: a later check $i"; i=$((i + 1)); done
echo "test-x.c:12:F:core:test_thing:0: Assertion 'a == b' failed"
i=0
while [ $i -lt 100 ]; do echo "  ok: the last checks $i"; i=$((i + 1)); done
exit 1
EOF
cat >"$d/fine.sh" <<'EOF'
#!/bin/sh
i=0
while [ $i -lt 100 ]; do echo "  ok: check $i"; i=$((i + 1)); done
EOF
chmod +x "$d/early.sh" "$d/fine.sh"

out=$(TEST_LOGDIR=$d/logs bash "$TOP/tests/run-tests.sh" "$d/early.sh" "$d/fine.sh" 2>&1)
rc=$?
[ "$rc" = 1 ] || fail "the runner exited $rc for a failed test, not 1: $out"
grep -q "^FAIL .*early.sh" <<<"$out" || fail "no FAIL line for early.sh: $out"
grep -qF "FAIL: the first scenario's check number 7" <<<"$out" ||
        fail "the report of early.sh does not show its early FAIL line: $out"
grep -qF "test-x.c:12:F:core:test_thing" <<<"$out" ||
        fail "the report of early.sh does not show the Check failure line: $out"
grep -qF "ok: the last checks 99" <<<"$out" || fail "the report lost the log's tail: $out"
grep -q "^PASS .*fine.sh" <<<"$out" || fail "fine.sh is not reported as passed: $out"
grep -q "ok: check" <<<"$out" && fail "a passing test's log was printed: $out"
echo "runner report: the early FAIL line, the Check failure and the tail are all shown"
