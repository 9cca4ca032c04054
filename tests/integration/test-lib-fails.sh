#!/bin/bash
# The test library makes a test fail where it must: a command the test runs that the shell
# cannot find (a misspelt helper) fails it at once, in the test's own shell and from a command
# substitution, with its cleanups run; a test that finds everything passes.
. "$(dirname "$0")/../lib.sh"
d=$(scratch_dir)
run_case() { # NAME BODY: a test of its own, run as run-tests.sh runs one
        printf '%s\n' ". \"$TOP/tests/lib.sh\"" "$2" >"$d/$1.sh"
        bash "$d/$1.sh" >"$d/$1.out" 2>&1 && rc=0 || rc=$?
}
run_case direct 'echo one; assert_nope x; echo after-direct'
assert_eq "a test calling a command that does not exist: exit status" 1 "$rc"
assert_contains "its message" "$(cat "$d/direct.out")" "FAIL: command not found: assert_nope"
case $(cat "$d/direct.out") in *after-direct*) fail "the test went on after the missing command" ;; esac
run_case subst 'x=$(assert_nope x); echo after-subst'
assert_eq "the same from a command substitution: exit status" 1 "$rc"
case $(cat "$d/subst.out") in *after-subst*) fail "the test went on after the missing command" ;; esac
run_case cleanup 's=$(scratch_dir); echo "$s" >"'"$d"'/kept"; assert_nope x'
[ -s "$d/kept" ] && [ ! -e "$(cat "$d/kept")" ] || fail "a failed test left its scratch directory"
run_case fine 'command -v assert_nope >/dev/null || echo none; assert_eq one 1 1'
assert_eq "a test that finds every command: exit status" 0 "$rc"
echo "ok: a missing command fails a test at once, its cleanups run; command -v does not"
