#!/bin/bash
# An installer built against the installed tree: `pkg-config --cflags --libs seinstall` is all
# it needs (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR point into a scratch DESTDIR), it runs
# against the installed library, and the header compiles as strict C11 and as C++ (Calamares is
# written in C++).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

d=$(scratch_dir)
dest=$d/dest
install_tree "$dest"
libdir=$dest/usr/lib/$MULTIARCH

export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
pkg-config --exists seinstall || fail "pkg-config does not find seinstall in $PKG_CONFIG_PATH"
assert_eq "pkg-config --modversion" 0.1 "$(pkg-config --modversion seinstall)"
cflags=$(pkg-config --cflags seinstall)
libs=$(pkg-config --libs seinstall)
assert_contains "pkg-config --cflags" "$cflags" "-I$dest/usr/include"
assert_contains "pkg-config --libs" "$libs" "-L$libdir"
assert_contains "pkg-config --libs" "$libs" "-lseinstall"

# shellcheck disable=SC2086 # flags are words
gcc -std=c11 -pedantic -Wall -Wextra -Werror $SAN_FLAGS -o "$d/consumer" \
        "$TOP/tests/consumer/consumer.c" $cflags $libs -Wl,-rpath,"$libdir" 2>"$d/cc.err" ||
        fail "building the consumer with pkg-config's flags: $(cat "$d/cc.err")"
echo "ok: consumer built with: $cflags $libs"
used=$(ldd "$d/consumer" | awk '/libseinstall/ {print $3}')
assert_eq "consumer loads" "$libdir/libseinstall.so.0" "$used"

mkdir -p "$d/root/etc"
expect_exit 0 "$d/consumer" "$d/root"
echo "$OUT"
assert_contains "consumer output" "$OUT" "consumer: ok"
assert_contains "consumer output" "$OUT" "target root $d/root"

# The header from C++, warnings as errors.
echo '#include <seinstall.h>
int main() { seinstall_ctx *c = nullptr; return seinstall_new("/", &c) < 0; }' >"$d/cxx.cc"
# shellcheck disable=SC2086
g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $cflags "$d/cxx.cc" 2>"$d/cxx.err" ||
        fail "seinstall.h does not compile as C++: $(cat "$d/cxx.err")"
echo "ok: seinstall.h compiles as C++17 with -Wall -Wextra -Werror"
