#!/bin/bash
# The Calamares adapter in the Calamares Debian 13 (trixie) ships: 3.3, built with Qt 6, whose
# libcalamares moved its helpers from namespace CalamaresUtils to Calamares. A trixie chroot
# (mmdebstrap: calamares, the Qt 6 and KF6 development packages its CMake config asks for,
# cmake, xvfb, xdotool, the policy and the file system tools) runs adapter-calamares.sh itself,
# unchanged: the seinstallcheck page and the stand-in partition page built there against
# Calamares 3.3's headers, the job module and the page in the real calamares binary, the page
# in German and French. seinstall is this tree's build, run on trixie's libraries.
# The chroot (~1.4 GB, a few minutes to build) is kept as a tarball in $SEINSTALL_HOSTS_CACHE,
# keyed by its package list, and built again when the cache is empty.
. "$(dirname "$0")/../lib.sh"
require_root
require_loop
require_tool mmdebstrap mmdebstrap
require_tool unshare util-linux
[ -x "$SEINSTALL" ] || fail "no $SEINSTALL: build the tree first (make)"

pkgs="calamares,cmake,g++,make,qt6-base-dev,qt6-tools-dev,qt6-l10n-tools,qt6-svg-dev"
pkgs+=",qt6-declarative-dev,libkf6coreaddons-dev,extra-cmake-modules,libyaml-cpp-dev"
pkgs+=",xvfb,xdotool,imagemagick,python3,python3-yaml,gettext,dosfstools,e2fsprogs"
pkgs+=",xfsprogs,btrfs-progs,reiserfsprogs,attr,policycoreutils,selinux-policy-default"
pkgs+=",fonts-dejavu-core"
# What this tree's seinstall links (ldd on the host's build names the same libraries).
pkgs+=",libselinux1,libsepol2,libsemanage2,libmount1,libblkid1,libseccomp2,libaudit1"
pkgs+=",libcap-ng0,libbz2-1.0,libpcre2-8-0"

cache=$HOSTS_CACHE/calamares-trixie
cache_dir "$cache"
exec 9>"$cache/.lock"
flock 9
key=$(printf 'trixie %s v1' "$pkgs" | sha256sum | cut -c1-12)
tarball=$cache/root-$key.tar
if [ ! -s "$tarball" ]; then
        echo "building the trixie chroot with mmdebstrap into $tarball (a few minutes)"
        nice mmdebstrap --quiet --variant=apt --format=tar --include="$pkgs" trixie "$tarball.tmp" ||
                fail "mmdebstrap could not build the trixie chroot"
        mv "$tarball.tmp" "$tarball"
fi
exec 9>&-

d=$(scratch_dir)
root=$d/root
mkdir -p "$root" && tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
echo "trixie: calamares $(chroot "$root" dpkg-query -W -f='${Version}' calamares)," \
        "$(chroot "$root" dpkg-query -W -f='${Package} ${Version}' libqt6core6t64)"

# The tree at its own path inside the chroot, so the test's paths hold there too; everything is
# mounted in a mount namespace of its own, which takes its mounts (and the test's loop mounts)
# with it when it ends, however it ends.
out=$TOP/build/hosts/trixie
mkdir -p "$out" "$root$TOP"
# shellcheck disable=SC2016 # the inner shell expands its own arguments
unshare --mount --propagation private bash -c '
        root=$1 top=$2
        shift 2
        # The root a mount point, as / is: unshare --propagation (the test uses it) needs one.
        mount --bind "$root" "$root" &&
                mount --bind "$top" "$root$top" &&
                mount -t proc proc "$root/proc" &&
                mount -t sysfs sysfs "$root/sys" &&
                mount --rbind /dev "$root/dev" || exit 70
        exec chroot "$root" "$@"' _ "$root" "$TOP" \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        SEINSTALL_BUILD="$SEINSTALL_BUILD_DIR" SEINSTALL_CALAMARES_OUT="$out" \
        bash "$TOP/tests/integration/adapter-calamares.sh" >"$d/test.log" 2>&1 && rc=0 || rc=$?
cp "$d/test.log" "$out/adapter-calamares.log"
grep -E '^(ok|host|note|SKIPPED|FAIL)' "$d/test.log"
case $rc in
0) ;;
70) fail "could not mount the tree, /proc, /sys or /dev into the chroot" ;;
77) fail "adapter-calamares.sh skipped in the trixie chroot, which should have all it needs: $(tail -n 1 "$d/test.log")" ;;
*) fail "adapter-calamares.sh failed in the trixie chroot (exit $rc): $(tail -n 30 "$d/test.log")" ;;
esac
echo "ok: adapter-calamares.sh passed against Calamares 3.3 in Debian 13; its log and screenshots are in $out"
