#!/bin/bash
# tests/bench/upstream.sh BUILD_DIR: build the newest libsepol and libselinux that Debian's
# source archive serves, and setfiles-driver (setfiles -F -T N's library calls) against them,
# into BUILD_DIR/bench-upstream, once. Prints "VERSION DRIVER" on its last line.
#
# The archive's index (sid) lists the releases; its pool serves only some of their upstream
# tarballs (2026-12-04: libselinux 3.9 and libsepol 3.8.1 download; 3.10 and 3.11 and every
# policycoreutils tarball answer 404), so each package takes the newest version that downloads.
# Only apt's own clients touch the network: apt-get with a private configuration (a deb-src
# line for sid) and apt-helper, which checks each tarball against the index's SHA-256.
set -euo pipefail
B=$(realpath -m "${1:?usage: upstream.sh BUILD_DIR}")/bench-upstream
SRC=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$B"
driver() {
        if [ ! -x "$B/setfiles-driver" ] || [ "$SRC/setfiles-driver.c" -nt "$B/setfiles-driver" ]; then
                # shellcheck disable=SC2046 # pkg-config prints several words
                ${CC:-cc} -O2 -g -Wall -Wextra -Werror -I"$B/inst/usr/include" \
                        -o "$B/setfiles-driver" "$SRC/setfiles-driver.c" \
                        "$B/inst/usr/lib/libselinux.a" $(pkg-config --libs libpcre2-8) -lpthread ||
                        exit 3
        fi
        echo "$(cat "$B/version") $B/setfiles-driver"
}
# the libraries once; the driver whenever its source changed
if [ -s "$B/version" ] && [ -s "$B/inst/usr/lib/libselinux.a" ]; then
        driver
        exit 0
fi

A=$B/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/src" "$A/sources.parts"
echo 'deb-src [trusted=yes] http://deb.debian.org/debian sid main' >"$A/sources.list"
APT=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts="$A/sources.parts"
        -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Debug::NoLocking=1)
if [ ! -s "$A/updated" ]; then
        apt-get "${APT[@]}" -q update >&2
        date -u >"$A/updated"
fi

# The SELinux userspace releases in lockstep, so the candidate versions are every upstream
# version the index lists for any of its packages (libsepol's entry may name only a newer one).
VERSIONS=$(for p in libsepol libselinux policycoreutils; do
        apt-cache "${APT[@]}" showsrc "$p" | sed -n 's/^Version: \([0-9.]*\)-.*/\1/p'
done | sort -u -V -r)

# newest orig tarball of source package $1 that the pool serves: "version file"; checked
# against the index's SHA-256 where the index lists that version
fetch() {
        local pkg=$1 dir ver file sha
        dir=pool/main/$(case $pkg in lib*) echo "libs/$pkg" ;; *) echo "${pkg:0:1}/$pkg" ;; esac)
        for ver in $VERSIONS; do
                file=${pkg}_$ver.orig.tar.gz
                # awk reads to the end: leaving early would end apt-cache with SIGPIPE,
                # which pipefail and set -e turn into the end of this script
                sha=$(apt-cache "${APT[@]}" showsrc "$pkg" |
                        awk -v f="$file" '/^Checksums-Sha256:/{c=1; next} /^[^ ]/{c=0}
                                          c && $3 == f && !s {s = "SHA256:" $1}
                                          END {if (s) print s}')
                if [ -s "$A/src/$file" ] ||
                        /usr/lib/apt/apt-helper download-file \
                                "http://deb.debian.org/debian/$dir/$file" "$A/src/$file" ${sha:+"$sha"} \
                                </dev/null >/dev/null 2>&1; then
                        echo "$ver $file"
                        return 0
                fi
                echo "  $pkg $ver: the archive does not serve $file" >&2
        done
}
read -r SEPOL_V SEPOL_F < <(fetch libsepol)
read -r SELINUX_V SELINUX_F < <(fetch libselinux)
if [ -z "${SEPOL_V:-}" ] || [ -z "${SELINUX_V:-}" ]; then
        echo "upstream.sh: no libsepol/libselinux tarball downloads from the archive" >&2
        exit 3
fi
echo "building libsepol $SEPOL_V and libselinux $SELINUX_V into $B (once)..." >&2
rm -rf "$B/build" "$B/inst"
mkdir -p "$B/build"
tar -C "$B/build" -xf "$A/src/$SEPOL_F"
tar -C "$B/build" -xf "$A/src/$SELINUX_F"
make -C "$B/build/libsepol-$SEPOL_V" -j2 -s DESTDIR="$B/inst" PREFIX=/usr \
        CFLAGS="-O2 -g" install >"$B/build.log" 2>&1 ||
        { tail -20 "$B/build.log" >&2; exit 3; }
make -C "$B/build/libselinux-$SELINUX_V" -j2 -s DESTDIR="$B/inst" PREFIX=/usr \
        CFLAGS="-O2 -g" CPPFLAGS="-I$B/inst/usr/include" LDFLAGS="-L$B/inst/usr/lib" \
        install >>"$B/build.log" 2>&1 || { tail -20 "$B/build.log" >&2; exit 3; }
echo "libselinux-$SELINUX_V+libsepol-$SEPOL_V" >"$B/version"
driver
