#!/bin/bash
# The Debian packages, built as Debian's buildds build them: the source package made from
# `make dist`'s tarball (seinstall_VERSION.orig.tar.gz, format 3.0 (quilt)), then in a fresh
# `mmdebstrap --variant=buildd` chroot (tests/integration/lib/buildd.sh) holding only what
# `apt-get build-dep` installs from debian/control's Build-Depends (no build profile), built by
# dpkg-buildpackage -us -uc as an unprivileged user without a network (unshare -n): every binary
# package, and the test step (`make test`) passes with what cannot run there SKIPPED. Then:
# - lintian --pedantic on the .changes (source and binaries): no error, no warning; every
#   override in debian/ carries its reason in a comment;
# - debian/changelog carries the Makefile's VERSION as its upstream version, every package it;
# - each package holds what it should (dpkg-deb -c) and depends on what it should (-I):
#   seinstall the commands (the library linked in: no libseinstall0 dependency), units, pages,
#   completion, profiles and adapters, and bubblewrap (the sandbox); libseinstall0 the library;
#   libseinstall-dev the header, link and .pc; seinstall-udeb the command, the two hooks and
#   po-debconf templates, depending on the library udebs that exist and linking the others
#   statically (NEEDED), with Built-Using naming the chroot's sources of those archives and
#   debian/copyright their licences; calamares-module-seinstall the module where Calamares
#   3.2.61 loads modules from; calamares-module-seinstallcheck the page beside it, its plugin
#   linking libcalamares.so.V and depending on exactly that upstream version V;
# - libseinstall-dev installed alone into a fresh buildd chroot: pkg-config --cflags --libs
#   seinstall (and --static) resolve, and a program builds and links against the library;
# - seinstall unpacked alone into a scratch root (dpkg -x) runs: seinstall --version;
# - with the build profile pkg.seinstall.nocalamares (make deb on this host) no Build-Depends of
#   the Qt stack is needed and the build makes every package but the page's.
# The tarball is what git tracks at HEAD: uncommitted changes are not in it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root
for t in dpkg-buildpackage dpkg-source dh po2debconf lintian dpkg-parsechangelog; do
        command -v $t >/dev/null || skip "no $t (make deps installs debhelper, po-debconf, lintian)"
done
require_tool mmdebstrap mmdebstrap
require_tool unshare util-linux
git_checkout || skip "no git checkout (or no git): make dist needs one"
. "$(dirname "$0")/lib/buildd.sh"

upstream=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^VERSION := //p' | head -n 1)
[ -n "$upstream" ] || fail "cannot read VERSION from the Makefile"
version=$(cd "$TOP" && dpkg-parsechangelog -S Version)
assert_eq "debian/changelog's upstream version (the Makefile's VERSION)" "$upstream" "${version%-*}"
assert_eq "the source format" "3.0 (quilt)" "$(cat "$TOP/debian/source/format")"
[ -f "$TOP/COPYING" ] || fail "no licence file (COPYING) at the top"
for f in "$TOP"/debian/*lintian-overrides "$TOP"/debian/source/lintian-overrides; do
        grep -q '^#' "$f" || fail "${f##*/} gives no reason (a comment) for its overrides"
done

d=$(scratch_dir)
start=$(date +%s)
step=$(cd "$TOP" && make -s -n -f debian/rules override_dh_auto_test 2>/dev/null)
assert_contains "debian/rules' test step" "$step" " test"

# The source package, from the release tarball.
run_make dist >"$d/dist.log" 2>&1 || fail "make dist failed: $(cat "$d/dist.log")"
mkdir -p "$d/src"
cp "$TOP/build/seinstall-$upstream.tar.gz" "$d/src/seinstall_$upstream.orig.tar.gz"
tar -C "$d/src" -xzf "$d/src/seinstall_$upstream.orig.tar.gz" || fail "cannot unpack the tarball"
(cd "$d/src" && dpkg-source -b "seinstall-$upstream") >"$d/source.log" 2>&1 ||
        fail "dpkg-source -b failed: $(cat "$d/source.log")"
dsc=seinstall_$version.dsc
echo "ok: the source package $dsc from seinstall-$upstream.tar.gz"

# The buildd chroot, the Build-Depends only, an unprivileged user.
broot=$d/buildd
buildd_root "$broot"
mkdir -p "$broot/build"
cp "$d/src/$dsc" "$d/src/seinstall_$upstream.orig.tar.gz" "$d"/src/seinstall_"$version".debian.tar.* "$broot/build/"
echo 'builder:x:1000:1000:package builder:/build:/bin/sh' >>"$broot/etc/passwd"
echo 'builder:x:1000:' >>"$broot/etc/group"
chown -R 1000:1000 "$broot/build"
as_builder() { # CMD: CMD in the chroot as the build user, in /build
        chroot "$broot" setpriv --reuid=1000 --regid=1000 --clear-groups \
                env -i PATH=/usr/bin:/bin HOME=/build LC_ALL=C.UTF-8 sh -c "cd /build && $1"
}
as_builder "dpkg-source -x $dsc" >"$d/extract.log" 2>&1 || fail "dpkg-source -x: $(cat "$d/extract.log")"
buildd_apt "$broot" update >"$d/apt.log" 2>&1 || fail "apt-get update in the chroot: $(tail "$d/apt.log")"
buildd_apt "$broot" build-dep "/build/seinstall-$upstream" >>"$d/apt.log" 2>&1 ||
        fail "apt-get build-dep in the chroot: $(tail -n 20 "$d/apt.log")"
echo "ok: apt-get build-dep installed $(grep -c '^Setting up' "$d/apt.log") packages"
echo "== dpkg-buildpackage -us -uc as builder, offline"
unshare -n chroot "$broot" setpriv --reuid=1000 --regid=1000 --clear-groups \
        env -i PATH=/usr/bin:/bin HOME=/build LC_ALL=C.UTF-8 DEB_BUILD_OPTIONS=parallel=2 \
        sh -c "cd /build/seinstall-$upstream && dpkg-buildpackage -us -uc" >"$d/build.log" 2>&1 && rc=0 || rc=$?
grep -E '^(PASS|FAIL|SKIPPED) ' "$d/build.log" | sed 's/^/  /'
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$d/build.log" | tail -n 1)
[ "$rc" = 0 ] || fail "dpkg-buildpackage in the buildd chroot exited $rc: $(grep -A3 '^FAIL' "$d/build.log" | head -n 40; tail -n 30 "$d/build.log")"
[ -n "$summary" ] || fail "the test step printed no summary: it did not run"
echo "ok: built in $(($(date +%s) - start))s; the test step: $summary"
mkdir -p "$d/deb"
cp "$broot"/build/*.deb "$broot"/build/*.udeb "$broot"/build/*.changes "$broot"/build/*.buildinfo \
        "$broot"/build/*.dsc "$broot"/build/*.tar.* "$d/deb/" || fail "the build left no packages"

arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
pkg() { # NAME [EXT]: the file of package NAME
        local f=$d/deb/${1}_${version}_$arch.${2:-deb}
        [ -f "$f" ] || fail "the package build made no $1: $(ls "$d/deb")"
        echo "$f"
}
files() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
has() { # PACKAGE-FILE PATH...: each PATH is in the package
        local f=$1 list p
        shift
        list=$(files "$f")
        for p in "$@"; do
                grep -qx "$p" <<<"$list" || fail "${f##*/} lacks $p; it holds: $list"
        done
}
field() { dpkg-deb -f "$1" "$2"; }

for p in seinstall libseinstall0 libseinstall-dev calamares-module-seinstall calamares-module-seinstallcheck; do
        assert_eq "$p's version" "$version" "$(field "$(pkg $p)" Version)"
done

s=$(pkg seinstall)
has "$s" /usr/sbin/seinstall /usr/sbin/seinstall-firstboot /usr/share/man/man8/seinstall.8.gz \
        /usr/share/man/man5/seinstall.ks.5.gz /usr/share/bash-completion/completions/seinstall \
        /lib/systemd/system/seinstall-relabel.service /lib/systemd/system/seinstall-firstboot.service \
        /lib/systemd/system/selinux-autorelabel.service.d/seinstall.conf \
        /usr/share/seinstall/adapters/debian-installer/partman/check.d/60seinstall
files "$s" | grep -q '^/usr/share/seinstall/profiles/.*\.ks$' || fail "seinstall has no profiles"
# The commands carry the library inside (they use calls libseinstall.so.0 does not export).
case $(field "$s" Depends) in *libseinstall0*) fail "seinstall depends on libseinstall0: $(field "$s" Depends)" ;; esac
assert_contains "seinstall's dependencies" "$(field "$s" Depends)" "libnewt0.52"
# The sandbox the policy build and update-grub run in (/usr/bin/bwrap).
assert_contains "seinstall's dependencies" "$(field "$s" Depends)" "bubblewrap"
assert_contains "seinstall's maintainer scripts enable the units" \
        "$(dpkg-deb --ctrl-tarfile "$s" | tar -xO ./postinst)" "seinstall-relabel.service"

l=$(pkg libseinstall0)
has "$l" "/usr/lib/$multiarch/libseinstall.so.0"
assert_eq "libseinstall0's section" libs "$(field "$l" Section)"
assert_eq "libseinstall0's Multi-Arch" same "$(field "$l" Multi-Arch)"
for lib in libmount1 libselinux1 libsepol2 libblkid1 libpcre2-8-0; do
        assert_contains "libseinstall0's dependencies" "$(field "$l" Depends)" "$lib "
done
# libsemanage is the policy build's helper's (in seinstall), not the library's.
assert_contains "seinstall's dependencies: the policy build's helper" "$(field "$s" Depends)" \
        "libsemanage2"
has "$s" /usr/libexec/seinstall/seinstall-policy-build
symbols=$(dpkg-deb --ctrl-tarfile "$l" | tar -xO ./symbols)
assert_contains "libseinstall0's symbols file" "$symbols" " seinstall_new@SEINSTALL_1.0 $upstream"
assert_contains "libseinstall0's shlibs file" "$(dpkg-deb --ctrl-tarfile "$l" | tar -xO ./shlibs)" \
        "libseinstall 0 libseinstall0"

dev=$(pkg libseinstall-dev)
has "$dev" /usr/include/seinstall.h /usr/include/seinstall-version.h "/usr/lib/$multiarch/libseinstall.so" \
        "/usr/lib/$multiarch/pkgconfig/seinstall.pc"
assert_contains "libseinstall-dev's dependencies" "$(field "$dev" Depends)" "libseinstall0 (= $version)"
# Every package seinstall.pc's Requires.private names has its .pc in a -dev package, a
# dependency; the pkg-config run in a clean chroot below shows they suffice.
for p in libblkid-dev libmount-dev libselinux1-dev libsepol-dev libsemanage-dev libpcre2-dev \
        libseccomp-dev libbz2-dev; do
        assert_contains "libseinstall-dev's dependencies" "$(field "$dev" Depends)" "$p"
done

u=$(pkg seinstall-udeb udeb)
assert_eq "the udeb's section" debian-installer "$(field "$u" Section)"
has "$u" /usr/sbin/seinstall /lib/partman/check.d/60seinstall \
        /usr/lib/finish-install.d/95seinstall
deps=$(field "$u" Depends)
for dep in libmount1-udeb libselinux1-udeb libblkid1-udeb libpcre2-8-0-udeb libc6-udeb cdebconf-udeb; do
        assert_contains "the udeb's dependencies" "$deps" "$dep"
done
case $deps in *"libseinstall0"* | *"libmount1 "* | *"libmount1,"*) fail "the udeb depends on a .deb: $deps" ;; esac
! files "$u" | grep -E '\.so(\.|$)' || fail "the udeb carries a shared library"
# What has no udeb is linked in statically; the rest is loaded from the library udebs.
dpkg -x "$u" "$d/udeb" || fail "dpkg -x ${u##*/} failed"
needed=$(readelf -d "$d/udeb/usr/sbin/seinstall" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | sort | tr '\n' ' ')
for lib in $needed; do
        case $lib in
        libc.so.6 | ld-linux*.so.* | libselinux.so.1 | libblkid.so.1 | libmount.so.1 | libpcre2-8.so.0) ;;
        *) fail "the udeb's seinstall loads $lib, which has no udeb: $needed" ;;
        esac
done
echo "ok: the udeb's seinstall loads only libraries with a udeb: $needed"
# Built-Using: the source and version of each static archive, as the chroot built them.
bu=$(field "$u" Built-Using)
for a in libsepol libsemanage libaudit libcap-ng libbz2 libseccomp; do
        f=$(chroot "$broot" sh -c "readlink -f \$(cc -print-file-name=$a.a)")
        pkgname=$(chroot "$broot" dpkg-query -S "$f" | sed 's/:.*//')
        src=$(chroot "$broot" dpkg-query -W -f='${source:Package} (= ${source:Version})' "$pkgname")
        [ -n "$pkgname" ] && [ -n "$src" ] || fail "no package in the chroot holds $a.a ($f)"
        assert_contains "the udeb's Built-Using ($a.a of $pkgname)" "$bu" "$src"
done
# debian/copyright: the licence of each (their stand-alone License paragraphs).
for lib in libsepol libsemanage libaudit libcap-ng libbz2 libseccomp; do
        grep -q "$lib" "$TOP/debian/copyright" || fail "debian/copyright does not cover the udeb's $lib"
done
for lic in LGPL-2.1 bzip2-1.0.6; do
        grep -qx "License: $lic" "$TOP/debian/copyright" || fail "debian/copyright has no License: $lic paragraph"
done
! files "$u" | grep -E '/libseinstall' || fail "the udeb carries libseinstall: seinstall has it inside"
! files "$u" | grep -E '^/usr/share/(doc|man)/' || fail "the udeb carries documentation"
templates=$(dpkg-deb --ctrl-tarfile "$u" | tar -xO ./templates)
assert_contains "the udeb's templates" "$templates" "Template: seinstall/refused"
assert_contains "the udeb's templates (po2debconf)" "$templates" "Description: SELinux cannot label the file systems chosen"
echo "ok: the udeb holds seinstall and both hooks, and depends on: $deps"

c=$(pkg calamares-module-seinstall)
# Where Debian's calamares keeps its own modules, if it is installed.
if dpkg -L calamares >/dev/null 2>&1; then
        dpkg -L calamares | grep -qx "/usr/lib/$multiarch/calamares/modules/dummypython/module.desc" ||
                fail "Debian's calamares keeps its modules elsewhere than /usr/lib/$multiarch/calamares/modules"
fi
has "$c" "/usr/lib/$multiarch/calamares/modules/seinstall/module.desc" \
        "/usr/lib/$multiarch/calamares/modules/seinstall/main.py" \
        /usr/share/calamares/modules/seinstall-check.conf /usr/share/calamares/modules/seinstall-install.conf \
        /usr/share/seinstall/adapters/calamares/seinstall-fstypes \
        /usr/share/locale/de/LC_MESSAGES/seinstall-calamares.mo \
        /usr/share/locale/fr/LC_MESSAGES/seinstall-calamares.mo
dpkg-deb -c "$(pkg seinstall)" | grep -q 'adapters/calamares' &&
        fail "seinstall carries the Calamares adapter (python3): it is calamares-module-seinstall's"
assert_contains "the Calamares module's dependencies" "$(field "$c" Depends)" "seinstall (>= $version)"
assert_contains "the Calamares module's recommendations" "$(field "$c" Recommends)" "calamares-module-seinstallcheck"

# The page: its plugin and module.desc beside the job module, linking Calamares' libraries.
cp=$(pkg calamares-module-seinstallcheck)
moddir=/usr/lib/$multiarch/calamares/modules/seinstallcheck
so=$moddir/libcalamares_viewmodule_seinstallcheck.so
has "$cp" "$moddir/module.desc" "$so" /usr/share/calamares/modules/seinstallcheck.conf
dpkg -x "$cp" "$d/page" || fail "dpkg -x ${cp##*/} failed"
desc=$(cat "$d/page$moddir/module.desc")
assert_contains "the page's module.desc" "$desc" 'interface: "qtplugin"'
assert_contains "the page's module.desc" "$desc" "load: \"${so##*/}\""
needed=$(readelf -d "$d/page$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
for lib in libcalamares.so libcalamaresui.so; do
        grep -q "^$lib\.[0-9]" <<<"$needed" || fail "the page's plugin does not link $lib: $needed"
done
readelf -d "$d/page$so" | grep -q 'R\(UN\)\?PATH' && fail "the page's plugin carries an rpath"
deps=$(field "$cp" Depends)
for dep in "seinstall (>= $version)" libqt5widgets5; do
        assert_contains "the page's dependencies" "$deps" "$dep"
done
# Calamares: the plugin links libcalamares.so.V, a SONAME carrying the whole upstream version
# V, which only calamares V ships. Each calamares relation of Depends must hold for V's Debian
# revisions and repacks, and fail for every other upstream version.
v=$(sed -n 's/^libcalamares\.so\.//p' <<<"$needed")
[ -n "$v" ] || fail "no libcalamares.so.V in the plugin's NEEDED: $needed"
rels=$(tr ',' '\n' <<<"$deps" | sed -n 's/^ *calamares (\(.*\))$/\1/p')
[ -n "$rels" ] || fail "the page does not depend on calamares with a version: $deps"
next=$(awk -F. -v OFS=. '{$NF = $NF + 1; print}' <<<"$v")
minor=$(awk -F. -v OFS=. '{$2 = $2 + 1; $3 = 0; print}' <<<"$v")
holds() { # VERSION: every calamares relation holds for VERSION
        while read -r op ver; do
                dpkg --compare-versions "$1" "$op" "$ver" || return 1
        done <<<"$rels"
}
for ok in "$v-1" "$v-1+b1" "$v+dfsg-2"; do
        holds "$ok" || fail "the page's calamares dependency ($rels) refuses calamares $ok, which ships libcalamares.so.$v"
done
for bad in "$next-1" "$v.1-1" "$minor-1" "$v~rc1-1"; do
        holds "$bad" && fail "the page's calamares dependency ($rels) accepts calamares $bad, which has no libcalamares.so.$v"
done
echo "ok: the page's calamares dependency ($(echo $rels | tr '\n' ' ')) is exactly upstream $v, the SONAME it links"
echo "ok: the page's plugin links $(echo $needed | tr ' ' ','); depends on: $deps"

# Nothing Python leaves behind in any package (lintian's package-installs-python-pycache-dir).
for f in "$d"/deb/*.deb "$d"/deb/*.udeb; do
        ! files "$f" | grep -E '__pycache__|\.py[co]$' || fail "${f##*/} carries Python bytecode"
done

# lintian --pedantic, on the .changes of the whole build (source and binaries).
changes=$d/deb/seinstall_${version}_$arch.changes
[ -f "$changes" ] || fail "no .changes file in $d/deb"
grep -q "seinstall_$version.dsc" "$changes" || fail "the .changes lists no source package"
lint=$(lintian --pedantic --fail-on error,warning "$changes" 2>&1)
rc=$?
printf '%s\n' "$lint" | sed 's/^/  | /'
[ $rc = 0 ] || fail "lintian --pedantic found errors or warnings (exit $rc)"
echo "ok: lintian --pedantic finds no error and no warning"

# libseinstall-dev alone in a fresh buildd chroot (with pkg-config): its .pc resolves, shared
# and static, and a program builds and links against the library.
droot=$d/devroot
buildd_root "$droot"
cp "$dev" "$l" "$droot/tmp/"
buildd_apt "$droot" update >"$d/dev-apt.log" 2>&1 || fail "apt-get update: $(tail "$d/dev-apt.log")"
buildd_apt "$droot" install pkg-config "/tmp/${dev##*/}" "/tmp/${l##*/}" >>"$d/dev-apt.log" 2>&1 ||
        fail "installing libseinstall-dev in a clean chroot: $(tail -n 20 "$d/dev-apt.log")"
printf '#include <seinstall.h>\n#include <stdio.h>\nint main(void) { puts(SEINSTALL_VERSION); return 0; }\n' \
        >"$droot/tmp/t.c"
out=$(chroot "$droot" sh -ec 'pkg-config --cflags --libs seinstall; pkg-config --static --libs seinstall >/dev/null
        cc -o /tmp/t /tmp/t.c $(pkg-config --cflags --libs seinstall); /tmp/t' 2>&1) ||
        fail "pkg-config or the build against libseinstall-dev in a clean chroot: $out"
echo "ok: in a clean chroot with libseinstall-dev: $(echo $out)"

# The command from its package alone, in a scratch root: no rpath, no libseinstall.so.0
# needed, nothing from the build tree.
root=$d/root
dpkg -x "$s" "$root" || fail "dpkg -x failed"
readelf -d "$root/usr/sbin/seinstall" | grep -q 'R\(UN\)\?PATH' && fail "the packaged seinstall carries an rpath"
readelf -d "$root/usr/sbin/seinstall" | grep NEEDED | grep -q libseinstall &&
        fail "the packaged seinstall needs libseinstall: $(readelf -d "$root/usr/sbin/seinstall" | grep NEEDED)"
out=$(env -u LD_LIBRARY_PATH "$root/usr/sbin/seinstall" --version) ||
        fail "the packaged seinstall --version failed"
assert_eq "the packaged seinstall --version" "seinstall $upstream" "$out"
echo "ok: seinstall $upstream runs from its package alone"

# Without the Qt stack: under pkg.seinstall.nocalamares no Build-Depends of the page remains
# (dpkg's own reduction of the field), and the build makes every package but the page's.
qt=$(cd "$TOP" && perl -MDpkg::Control::Info -MDpkg::Deps -e '
        my $bd = Dpkg::Control::Info->new("debian/control")->get_source()->{"Build-Depends"};
        my $deps = deps_parse($bd, build_dep => 1, reduce_profiles => 1,
                              build_profiles => ["pkg.seinstall.nocalamares"]);
        print join(" ", map { $_->{package} } grep { $_->{package} } $deps->get_deps()), "\n";')
[ -n "$qt" ] || fail "Dpkg::Deps read no Build-Depends from debian/control"
for p in calamares cmake qtbase5-dev libkf5coreaddons-dev extra-cmake-modules libyaml-cpp-dev; do
        case " $qt " in *" $p "*) fail "Build-Depends keeps $p under pkg.seinstall.nocalamares: $qt" ;; esac
done
DEB_BUILD_PROFILES=pkg.seinstall.nocalamares DEB_BUILD_OPTIONS="parallel=2 nocheck" \
        run_make deb DEB="$d/deb-noqt" >"$d/deb-noqt.log" 2>&1 ||
        fail "make deb with pkg.seinstall.nocalamares failed: $(tail -n 40 "$d/deb-noqt.log")"
built=$(cd "$d/deb-noqt" && echo *.deb *.udeb)
case $built in *seinstallcheck*) fail "pkg.seinstall.nocalamares built the page: $built" ;; esac
for p in seinstall libseinstall0 libseinstall-dev calamares-module-seinstall; do
        [ -f "$d/deb-noqt/${p}_${version}_$arch.deb" ] || fail "pkg.seinstall.nocalamares built no $p: $built"
done
echo "ok: with pkg.seinstall.nocalamares the Build-Depends are $qt; built: $built"
