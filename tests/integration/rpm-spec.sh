#!/bin/bash
# The RPM spec (packaging/rpm/seinstall.spec): rpmspec -P parses it, with the Makefile's
# VERSION and Fedora's package names for what the build needs and bubblewrap at run time;
# rpmlint accepts it (no error; its two filters, in seinstall.rpmlintrc, say why); and
# rpmbuild builds it from `make dist`'s tarball. That build runs here against Debian's
# libraries with --nodeps: Fedora's -devel packages are not rpm-installed on a Debian machine,
# the same upstream libraries are (dpkg). Debian's rpm has no systemd-rpm-macros, so the
# scriptlet macros are defined empty for it, and %check (make test) is left to the Debian
# package build's test step (deb-package.sh), as here it would run as root and start QEMU.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool rpmspec rpm
require_tool rpmlint rpmlint
spec=$TOP/packaging/rpm/seinstall.spec

parsed=$(rpmspec -P "$spec" 2>&1) || fail "rpmspec -P $spec: $parsed"
echo "ok: rpmspec -P parses the spec"
version=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^VERSION := //p' | head -n 1)
assert_eq "the spec's Version (the Makefile's VERSION)" "$version" \
        "$(rpmspec -q --srpm --qf '%{VERSION}' "$spec" 2>/dev/null)"
breq=$(rpmspec -q --buildrequires "$spec" 2>/dev/null | tr '\n' ' ')
for p in libselinux-devel libsepol-devel libsemanage-devel libblkid-devel libmount-devel \
        pcre2-devel libseccomp-devel newt-devel check-devel bzip2-devel gettext; do
        case " $breq " in *" $p "*) ;; *) fail "the spec does not BuildRequires $p: $breq" ;; esac
done
echo "ok: BuildRequires (Fedora's names): $breq"
assert_contains "the spec's Requires" "$(rpmspec -q --requires "$spec" 2>/dev/null | tr '\n' ' ')" bubblewrap

lint=$(rpmlint -r "$TOP/packaging/rpm/seinstall.rpmlintrc" "$spec" 2>&1) && rc=0 || rc=$?
printf '%s\n' "$lint" | sed 's/^/  | /'
[ "$rc" = 0 ] || fail "rpmlint rejects the spec (exit $rc)"
grep -q ' 0 errors' <<<"$lint" || fail "rpmlint reports errors"
echo "ok: rpmlint accepts the spec"

require_tool rpmbuild rpm
git_checkout || skip "no git checkout (or no git): make dist needs one for rpmbuild"
d=$(scratch_dir)
run_make dist >"$d/dist.log" 2>&1 || fail "make dist failed: $(cat "$d/dist.log")"
mkdir -p "$d/rpm/SOURCES"
cp "$TOP/build/seinstall-$version.tar.gz" "$d/rpm/SOURCES/"
start=$(date +%s)
rpmbuild -bb --nodeps --nocheck --define "_topdir $d/rpm" \
        --define 'systemd_post() %{nil}' --define 'systemd_preun() %{nil}' \
        --define 'systemd_postun() %{nil}' --define 'systemd_requires %{nil}' \
        --define '_smp_mflags -j2' "$spec" >"$d/rpmbuild.log" 2>&1 ||
        fail "rpmbuild failed: $(tail -n 40 "$d/rpmbuild.log")"
rpms=$(find "$d/rpm/RPMS" -name '*.rpm' | sort)
echo "ok: rpmbuild built in $(($(date +%s) - start))s: $(for r in $rpms; do printf '%s ' "${r##*/}"; done)"
arch=$(rpm --eval '%{_arch}')
rpmfile() { ls "$d/rpm/RPMS/$arch/$1-$version-1."*"$arch.rpm" 2>/dev/null | head -n 1; }
for p in seinstall seinstall-libs seinstall-devel; do
        [ -n "$(rpmfile "$p")" ] || fail "rpmbuild made no $p: $rpms"
done
libdir=$(rpm --eval '%{_libdir}')
unitdir=$(rpm --eval '%{_prefix}')/lib/systemd/system
list=$(rpm -qpl "$(rpmfile seinstall)")
for f in /usr/sbin/seinstall /usr/sbin/seinstall-firstboot "$unitdir/seinstall-relabel.service" \
        /usr/share/man/man8/seinstall.8 /usr/share/seinstall/profiles/trial.ks; do
        # man pages compressed as this rpm's brp-compress does (.gz, .bz2...)
        grep -qE "^$f(\.[a-z0-9]+)?$" <<<"$list" || fail "the seinstall rpm lacks $f: $list"
done
libs=$(rpm -qpl "$(rpmfile seinstall-libs)")
# the library's own catalogs travel with the library, as in the deb
for f in "$libdir/libseinstall.so.0" /usr/share/locale/de/LC_MESSAGES/libseinstall.mo; do
        grep -qx "$f" <<<"$libs" || fail "seinstall-libs lacks $f: $libs"
done
grep -qx "$libdir/pkgconfig/seinstall.pc" <<<"$(rpm -qpl "$(rpmfile seinstall-devel)")" ||
        fail "seinstall-devel lacks $libdir/pkgconfig/seinstall.pc"
assert_contains "the seinstall rpm's Requires" "$(rpm -qp --requires "$(rpmfile seinstall)")" bubblewrap
assert_contains "seinstall-libs' Provides" "$(rpm -qp --provides "$(rpmfile seinstall-libs)")" "libseinstall.so.0"
echo "ok: the rpms hold the commands, units and pages, the library and its catalogs, and the development files"
