#!/bin/bash
# make check works from a clone anywhere: a copy of the tree (the files git tracks, as a clone
# has them) under /tmp in a directory whose name has a blank, built there with the project's
# own flags (make WERROR=-Werror tests), runs a representative set of tests with its own runner
# from there, with an empty QEMU cache: a unit test, the fuzz replays, a planned-layout check
# on real images, the first-boot screen in tmux and the translation template (make pot), and
# sandbox-lvm-raid.sh, which reruns itself in QEMU on Debian's kernel
# where this kernel lacks the device mapper (the guest used to hide /tmp, exit 127). Every one
# passes or says SKIPPED with its reason; none fails. (make install from such a path:
# install-no-bytecode.sh.)
. "$(dirname "$0")/../lib.sh"
git_checkout || skip "no git checkout (or no git): no list of tracked files to copy"

d=$(TMPDIR=/tmp scratch_dir)
src="$d/se install"
mkdir -p "$src"
(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$src") || fail "copying the tree to '$src'"
echo "ok: $(cd "$src" && find . -type f | wc -l) tracked files copied to '$src'"
start=$(date +%s)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$src" -j2 WERROR=-Werror \
        tests >"$d/build.log" 2>&1 ||
        fail "make tests in '$src': $(tail -n 20 "$d/build.log")"
echo "ok: make WERROR=-Werror tests in '$src' ($(($(date +%s) - start))s)"

tests=(build/tests/unit/test-bootcmd tests/fuzz/replay-all.sh tests/integration/check-plan.sh
        tests/integration/firstboot-screen.sh tests/integration/firstboot-pot.sh
        tests/integration/sandbox-lvm-raid.sh)
mkdir -p "$d/e2e-cache"
(cd "$src" && SEINSTALL_BUILD=build SEINSTALL_E2E_CACHE="$d/e2e-cache" TEST_LOGDIR="$d/logs" \
        tests/run-tests.sh "${tests[@]}") >"$d/run.out" 2>&1
rc=$?
cat "$d/run.out"
summary=$(tail -n 1 "$d/run.out")
[ "$rc" = 0 ] || fail "the tests from '$src' failed (exit $rc): $summary"
assert_contains "the summary" "$summary" " 0 failed"
passed=${summary%% passed*}
[ "$passed" -ge 4 ] || fail "only $passed of ${#tests[@]} tests ran from '$src': $summary"
echo "ok: from '$src': $summary"
