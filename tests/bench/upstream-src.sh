#!/bin/bash
# tests/bench/upstream-src.sh BUILD_DIR SOURCE: build policycoreutils' own setfiles from a
# SELinux userspace source (a `git archive` of SELinuxProject/selinux, as a directory or a
# tarball, holding libsepol/, libselinux/ and policycoreutils/setfiles/) into
# BUILD_DIR/bench-upstream-NAME, once (NAME: the tarball's or directory's name; the build is
# redone when the source's SHA-256 changes). Prints "NAME VERSION SETFILES" on its last line.
#
# As a distribution builds it, but private and static: `make install` of libsepol, then of
# libselinux, into a DESTDIR with PREFIX=/usr (the shared libraries are then removed from it,
# so setfiles links the static ones and runs without touching the system's libselinux), then
# `make setfiles AUDITH=n` in policycoreutils/setfiles against that prefix (no libaudit: the
# bench does not audit).
set -euo pipefail
BUILD=$(realpath -m "${1:?usage: upstream-src.sh BUILD_DIR SOURCE}")
SRC=$(realpath "${2:?usage: upstream-src.sh BUILD_DIR SOURCE}")
NAME=$(basename "$SRC")
NAME=${NAME%.tar*}
NAME=${NAME%.tgz}
B=$BUILD/bench-upstream-$NAME

if [ -d "$SRC" ]; then
        # the content of the three parts the build reads, not their mtimes
        SUM=$(cd "$SRC" && find libsepol libselinux policycoreutils/setfiles -type f -print0 |
                sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
else
        SUM=$(sha256sum "$SRC" | cut -d' ' -f1)
fi
if [ -x "$B/setfiles" ] && [ "$(cat "$B/source.sha256" 2>/dev/null)" = "$SUM" ]; then
        echo "$NAME $(cat "$B/version") $B/setfiles"
        exit 0
fi

echo "building setfiles from $SRC into $B (once)..." >&2
rm -rf "$B"
mkdir -p "$B/src"
if [ -d "$SRC" ]; then
        parts=(libsepol libselinux policycoreutils/setfiles)
        [ -e "$SRC/VERSION" ] && parts+=(VERSION)
        (cd "$SRC" && tar -cf - "${parts[@]}") | tar -C "$B/src" -xf -
else
        tar -C "$B/src" -xf "$SRC"
fi
S=$B/src
# a git archive made with --prefix has one top directory
if [ ! -d "$S/libselinux" ]; then
        S=$(find "$B/src" -mindepth 2 -maxdepth 2 -type d -name libselinux -printf '%h\n' | head -1)
fi
for p in libsepol libselinux policycoreutils/setfiles; do
        [ -d "${S:-}/$p" ] || { echo "upstream-src.sh: $SRC has no $p/" >&2; exit 3; }
done
VERSION=$(cat "$S/VERSION" 2>/dev/null || cat "$S/libselinux/VERSION")
I=$B/inst
LOG=$B/build.log
make -C "$S/libsepol" -j2 -s DESTDIR="$I" PREFIX=/usr CFLAGS="-O2 -g" install >"$LOG" 2>&1 ||
        { tail -20 "$LOG" >&2; exit 3; }
make -C "$S/libselinux" -j2 -s DESTDIR="$I" PREFIX=/usr CFLAGS="-O2 -g" \
        CPPFLAGS="-I$I/usr/include" LDFLAGS="-L$I/usr/lib" install >>"$LOG" 2>&1 ||
        { tail -20 "$LOG" >&2; exit 3; }
find "$I" -name '*.so*' -delete
# setfiles' Makefile also looks in ../../libselinux for headers and libraries: build a copy of
# it where that path holds nothing, so only the private prefix is used.
mkdir -p "$B/sf/policycoreutils"
cp -a "$S/policycoreutils/setfiles" "$B/sf/policycoreutils/"
# shellcheck disable=SC2046 # pkg-config prints several words
make -C "$B/sf/policycoreutils/setfiles" -s AUDITH=n CFLAGS="-O2 -g -I$I/usr/include" \
        LDFLAGS="-L$I/usr/lib" LIBSELINUX_LDLIBS="-lselinux $(pkg-config --libs libpcre2-8)" \
        setfiles >>"$LOG" 2>&1 || { tail -20 "$LOG" >&2; exit 3; }
cp "$B/sf/policycoreutils/setfiles/setfiles" "$B/setfiles"
if ldd "$B/setfiles" | grep -q 'libse\(linux\|pol\)'; then
        echo "upstream-src.sh: $B/setfiles links a shared libselinux or libsepol" >&2
        exit 3
fi
rm -rf "$B/src" "$B/sf"
echo "$VERSION" >"$B/version"
echo "$SUM" >"$B/source.sha256"
echo "$NAME $VERSION $B/setfiles"
