#!/bin/bash
# The package build's test step (`make test`, which debian/rules and the RPM spec's %check
# run) stays within minutes wherever it runs, as root on a machine with QEMU too: it runs the
# unit tests, the fuzz replays and the integration tests, but not the tests that boot QEMU
# guests (the end-to-end test, sandbox-lvm-raid.sh), run the real installers (adapter-*.sh) or
# build packages themselves (deb-*.sh, package-test-step.sh, rpm-spec.sh: a package build
# inside the package build), and names what it leaves out; TEST_ALL=1 runs those too.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

# The runner's command line of `make test` (make -n: nothing is built or run).
run_line() { run_make -s -n test "$@" 2>/dev/null | grep 'tests/run-tests.sh'; }
line=$(run_line) || fail "make -n test prints no run-tests.sh line"
words=" $(tr -s ' ' <<<"$line") "
for t in qemu/e2e.sh tests/integration/sandbox-lvm-raid.sh tests/integration/adapter-mkosi.sh \
        tests/integration/adapter-debian-installer.sh tests/integration/deb-package.sh \
        tests/integration/deb-autopkgtest.sh tests/integration/package-test-step.sh \
        tests/integration/rpm-spec.sh; do
        [ -e "$TOP/$t" ] || fail "$t does not exist: this test names it"
        case $words in *" $t "*) fail "make test runs $t" ;; esac
done
echo "ok: make test leaves out the QEMU, installer and package-building tests"
# the unit tests of the tree make builds: build/, or build/san/ in a SANITIZE=1 run
unit=${SEINSTALL_BUILD_DIR#"$TOP"/}/tests/unit/test-
for t in tests/integration/check-plan.sh tests/integration/firstboot-units.sh \
        tests/integration/test-step-scope.sh "$unit"; do
        case $words in *" $TOP/$t"* | *" $t"*) ;; *) fail "make test does not run $t: $line" ;; esac
done
echo "ok: make test runs the unit tests and the other integration tests"
assert_contains "what make test says it leaves out" "$(run_make -s -n test 2>/dev/null | grep 'left out')" \
        "qemu/e2e.sh"
all=" $(run_line TEST_ALL=1 | tr -s ' ') "
for t in qemu/e2e.sh tests/integration/deb-package.sh tests/integration/adapter-mkosi.sh; do
        case $all in *" $t "*) ;; *) fail "make test TEST_ALL=1 does not run $t" ;; esac
done
echo "ok: TEST_ALL=1 runs them too"
step=$(sed -n '/^override_dh_auto_test:/,/^$/p' "$TOP/debian/rules")
assert_contains "debian/rules' test step" "$step" ") test"
case $step in *TEST_ALL*) fail "debian/rules' test step asks for everything: $step" ;; esac
assert_contains "the RPM spec's %check" "$(sed -n '/^%check/,/^%/p' "$TOP/packaging/rpm/seinstall.spec")" "make test"
