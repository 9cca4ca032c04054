#!/bin/bash
# The autopkgtests (debian/tests) on the packages as `make deb` builds them, through
# autopkgtest's own runner: its chroot virtualisation server (autopkgtest-virt-chroot, as root)
# in a throwaway Debian 12 buildd chroot made with mmdebstrap (the tarball is kept in
# $SEINSTALL_HOSTS_CACHE/buildd, made afresh when the cache is empty), into which autopkgtest
# installs the built packages and each test's Depends from Debian's archive. The tests: the
# seed's layouts refused and accepted (seinstall check --plan, libblkid probing images made by
# the real mkfs), a relabel and verify of a small tree with selinux-policy-default, the
# first-boot choice applied without a screen, and a program built against libseinstall-dev.
# Why chroot: autopkgtest-virt-unshare runs the tests as root of a user namespace, where the
# kernel refuses to set security.selinux on the host's filesystem (relabel-verify needs it).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root
require_tool autopkgtest autopkgtest
require_tool mmdebstrap mmdebstrap
for t in dpkg-buildpackage dh po2debconf; do
        command -v $t >/dev/null || skip "no $t (make deps installs debhelper, po-debconf)"
done
unmet=$(cd "$TOP" && dpkg-checkbuilddeps 2>&1) ||
        skip "the package build's Build-Depends are missing (make deps installs them): ${unmet##*dependencies: }"
. "$(dirname "$0")/lib/buildd.sh"

d=$(scratch_dir)
DEB_BUILD_OPTIONS="parallel=2 nocheck" run_make deb DEB="$d/deb" >"$d/deb.log" 2>&1 ||
        fail "make deb failed: $(tail -n 40 "$d/deb.log")"
echo "ok: make deb built $(cd "$d/deb" && echo *.deb)"

# The source's debian/ (autopkgtest reads debian/control and debian/tests from it).
mkdir -p "$d/src"
cp -a "$TOP/debian" "$d/src/"

root=$d/testbed
buildd_root "$root"
# What autopkgtest needs in its testbed: apt's lists, apt-ftparchive (apt-utils) for the local
# repository of the built packages.
buildd_apt "$root" update >"$d/apt.log" 2>&1 && buildd_apt "$root" install apt-utils >>"$d/apt.log" 2>&1 ||
        fail "preparing the testbed: $(tail -n 20 "$d/apt.log")"
# The chroot server makes its directories in the testbed with mktemp --tmpdir, that is below
# our TMPDIR (the test runner gives each test one of its own): that path must exist in there.
mkdir -p "$root${TMPDIR:-/tmp}"
echo "== autopkgtest, virt-chroot in $root"
debs=()
for f in "$d"/deb/*.deb; do
        case $f in *-dbgsym_*) ;; *) debs+=("$f") ;; esac
done
autopkgtest --output-dir "$d/out" --no-built-binaries "${debs[@]}" "$d/src/" -- chroot "$root" \
        >"$d/autopkgtest.log" 2>&1 && rc=0 || rc=$?
sed 's/^/  | /' "$d/autopkgtest.log" | tail -n 60
summary=$(cat "$d/out/summary" 2>/dev/null)
echo "summary:"
printf '%s\n' "$summary" | sed 's/^/  /'
if [ "$rc" != 0 ]; then
        for f in "$d"/out/*-stdout "$d"/out/*-stderr; do
                [ -s "$f" ] && { echo "-- ${f##*/}"; tail -n 30 "$f"; }
        done
        fail "autopkgtest exited $rc (0: all passed)"
fi
for t in check-plan relabel-verify firstboot-yes pkg-config; do
        grep -Eq "^$t +PASS" <<<"$summary" || fail "autopkgtest's $t did not pass: $summary"
done
echo "ok: every autopkgtest passed on the built packages"
