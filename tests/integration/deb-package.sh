#!/bin/bash
# The Debian packages: `make deb` runs dpkg-buildpackage -us -uc -b (debian/, debhelper) in a
# copy of the tree and leaves the source tree as it was. Then, on what it built:
# - debian/changelog carries the Makefile's VERSION, and so does every package;
# - each package holds what it should (dpkg-deb -c) and depends on what it should (-I):
#   seinstall the commands (the library linked in: no libseinstall0 dependency), units, pages,
#   completion, profiles and adapters; libseinstall0 the library; libseinstall-dev the header,
#   link and .pc; seinstall-udeb the command, the two hooks and po-debconf templates, depending
#   on libmount1-udeb and the other library udebs instead of carrying their libraries;
#   calamares-module-seinstall the module where Calamares 3.2.61 (Debian's calamares) loads
#   modules from; calamares-module-seinstallcheck the page (built with CMake in the package
#   build) beside it, its plugin linking libcalamares and libcalamaresui (readelf -d);
# - with the build profile pkg.seinstall.nocalamares no Build-Depends of the Qt stack is
#   needed and the build makes every package but the page's;
# - lintian finds no error (--fail-on error) and no warning;
# - seinstall unpacked alone into a scratch root (dpkg -x) runs: seinstall --version.
# The package build's test step is `make test` (debian/rules); this build, as root on a machine
# with everything installed, skips it (nocheck): package-test-step.sh runs that step where a
# package build runs it (unprivileged, offline, the Build-Depends only).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
for t in dpkg-buildpackage dh po2debconf lintian dpkg-parsechangelog; do
        command -v $t >/dev/null || skip "no $t (make deps installs debhelper, po-debconf, lintian)"
done

unmet=$(cd "$TOP" && dpkg-checkbuilddeps 2>&1) ||
        skip "the package build's Build-Depends are missing (make deps installs them): ${unmet##*dependencies: }"

version=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^VERSION := //p' | head -n 1)
[ -n "$version" ] || fail "cannot read VERSION from the Makefile"
assert_eq "debian/changelog's version (the Makefile's VERSION)" "$version" \
        "$(cd "$TOP" && dpkg-parsechangelog -S Version)"

d=$(scratch_dir)
start=$(date +%s)
step=$(cd "$TOP" && make -s -n -f debian/rules override_dh_auto_test 2>/dev/null)
assert_contains "debian/rules' test step" "$step" " test"
DEB_BUILD_OPTIONS="parallel=2 nocheck" run_make deb DEB="$d/deb" >"$d/deb.log" 2>&1 ||
        fail "make deb failed: $(tail -n 40 "$d/deb.log")"
echo "ok: make deb built in $(($(date +%s) - start))s: $(cd "$d/deb" && echo *.deb *.udeb)"
# What dpkg-buildpackage and debhelper leave in a tree they build in, and the packages they
# write next to it: none of it here.
for f in debian/files debian/.debhelper debian/debhelper-build-stamp debian/tmp debian/seinstall \
        debian/seinstall-udeb debian/libseinstall0 debian/seinstall.substvars; do
        [ ! -e "$TOP/$f" ] || fail "make deb left $f in the source tree"
done
for f in "$TOP"/../seinstall_*.changes "$TOP"/../seinstall_*.deb "$TOP"/../seinstall-udeb_*.udeb; do
        [ ! -e "$f" ] || fail "a package build wrote $f next to the source tree"
done
echo "ok: no build files in debian/, nothing written next to the tree"

arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
pkg() { # NAME [EXT]: the file of package NAME
        local f=$d/deb/${1}_${version}_$arch.${2:-deb}
        [ -f "$f" ] || fail "make deb built no $1: $(ls "$d/deb")"
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
assert_contains "seinstall's maintainer scripts enable the units" \
        "$(dpkg-deb --ctrl-tarfile "$s" | tar -xO ./postinst)" "seinstall-relabel.service"

l=$(pkg libseinstall0)
has "$l" "/usr/lib/$multiarch/libseinstall.so.0"
assert_eq "libseinstall0's section" libs "$(field "$l" Section)"
assert_eq "libseinstall0's Multi-Arch" same "$(field "$l" Multi-Arch)"
for lib in libmount1 libselinux1 libsepol2 libsemanage2 libblkid1 libpcre2-8-0; do
        assert_contains "libseinstall0's dependencies" "$(field "$l" Depends)" "$lib "
done
symbols=$(dpkg-deb --ctrl-tarfile "$l" | tar -xO ./symbols)
assert_contains "libseinstall0's symbols file" "$symbols" " seinstall_new@SEINSTALL_0.1 $version"
assert_contains "libseinstall0's shlibs file" "$(dpkg-deb --ctrl-tarfile "$l" | tar -xO ./shlibs)" \
        "libseinstall 0 libseinstall0"

dev=$(pkg libseinstall-dev)
has "$dev" /usr/include/seinstall.h /usr/include/seinstall-version.h "/usr/lib/$multiarch/libseinstall.so" \
        "/usr/lib/$multiarch/pkgconfig/seinstall.pc"
assert_contains "libseinstall-dev's dependencies" "$(field "$dev" Depends)" "libseinstall0 (= $version)"
assert_contains "libseinstall-dev's dependencies" "$(field "$dev" Depends)" "libsemanage-dev"

u=$(pkg seinstall-udeb udeb)
assert_eq "the udeb's section" debian-installer "$(field "$u" Section)"
has "$u" /usr/sbin/seinstall /lib/partman/check.d/60seinstall \
        /usr/lib/finish-install.d/95seinstall
deps=$(field "$u" Depends)
for dep in libmount1-udeb libselinux1-udeb libblkid1-udeb libpcre2-8-0-udeb libc6-udeb cdebconf-udeb; do
        assert_contains "the udeb's dependencies" "$deps" "$dep"
done
case $deps in *"libseinstall0"* | *"libmount1 "* | *"libmount1,"*) fail "the udeb depends on a .deb: $deps" ;; esac
! files "$u" | grep -E '/lib(mount|blkid|selinux|pcre2-8)\.so|/libc\.so' ||
        fail "the udeb carries a library that has its own udeb"
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
for dep in "seinstall (>= $version)" "calamares (>= 3.2.61)" libqt5widgets5; do
        assert_contains "the page's dependencies" "$deps" "$dep"
done
echo "ok: the page's plugin links $(echo $needed | tr ' ' ','); depends on: $deps"

# lintian, on the .changes of the whole build.
changes=$d/deb/seinstall_${version}_$arch.changes
[ -f "$changes" ] || fail "no .changes file in $d/deb"
lint=$(lintian --fail-on error,warning "$changes" 2>&1)
rc=$?
printf '%s\n' "$lint" | sed 's/^/  | /'
[ $rc = 0 ] || fail "lintian found errors or warnings (exit $rc)"
echo "ok: lintian finds no error and no warning"

# The command from its package alone, in a scratch root: no rpath, no libseinstall.so.0
# needed, nothing from the build tree.
root=$d/root
dpkg -x "$s" "$root" || fail "dpkg -x failed"
readelf -d "$root/usr/sbin/seinstall" | grep -q 'R\(UN\)\?PATH' && fail "the packaged seinstall carries an rpath"
readelf -d "$root/usr/sbin/seinstall" | grep NEEDED | grep -q libseinstall &&
        fail "the packaged seinstall needs libseinstall: $(readelf -d "$root/usr/sbin/seinstall" | grep NEEDED)"
out=$(env -u LD_LIBRARY_PATH "$root/usr/sbin/seinstall" --version) ||
        fail "the packaged seinstall --version failed"
assert_eq "the packaged seinstall --version" "seinstall $version" "$out"
echo "ok: seinstall $version runs from its package alone"

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
