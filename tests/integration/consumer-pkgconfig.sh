#!/bin/bash
# An installer built against the installed tree: `pkg-config --cflags --libs seinstall` is all
# it needs (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR point into a scratch DESTDIR), it runs
# against the installed library, checks a planned layout of real images through the API (the
# seed's ReiserFS refused with its one label, ext4 accepted), and installs a loop-mounted
# target through the API. The header compiles as strict C11 and as C++ (Calamares is C++).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool mkfs.ext4 e2fsprogs

d=$(scratch_dir)
dest=$d/dest
install_tree "$dest"
libdir=$dest/usr/lib/$MULTIARCH

export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
pkg-config --exists seinstall || fail "pkg-config does not find seinstall in $PKG_CONFIG_PATH"
assert_eq "pkg-config --modversion" 1.0 "$(pkg-config --modversion seinstall)"
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

# One version everywhere: the header's macros, seinstall_version() of the installed library,
# pkg-config and the command (all from the Makefile's VERSION).
expect_exit 0 "$d/consumer" --version
modversion=$(pkg-config --modversion seinstall)
assert_eq "SEINSTALL_VERSION, MAJOR.MINOR, seinstall_version()" \
        "$modversion $modversion $modversion" "$OUT"
assert_eq "seinstall --version" "seinstall $modversion" \
        "$(LD_LIBRARY_PATH=$libdir "$dest/usr/sbin/seinstall" --version)"
assert_eq "the Makefile's VERSION" "$modversion" "$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")"
echo "ok: version $modversion from the header, the library, pkg-config and seinstall --version"
used=$(ldd "$d/consumer" | awk '/libseinstall/ {print $3}')
assert_eq "consumer loads" "$libdir/libseinstall.so.0" "$used"

# A check through the API: a plan of images made by mkfs, types probed ("auto").
make_fs_image "$d/root.img" ext4 64
make_fs_image "$d/srv.img" reiserfs 64
printf '%s / auto defaults\n%s /srv auto defaults\n' "$d/root.img" "$d/srv.img" >"$d/plan"
mkdir -p "$d/root/etc"
expect_exit 0 "$d/consumer" "$d/root" "$d/plan"
echo "$OUT"
assert_contains "consumer output" "$OUT" "consumer: ok"
assert_contains "consumer output" "$OUT" "target root $d/root"
assert_contains "consumer check" "$OUT" "check verdict=refuse mode=enforcing mode_source=profile"
assert_contains "consumer check" "$OUT" "mount / ext4 labeling=xattr label=- verdict=ok"
assert_contains "consumer check" "$OUT" "mount /srv reiserfs labeling=genfs label=system_u:object_r:nfs_t:s0 verdict=refuse"
assert_contains "consumer check" "$OUT" "fix: format $d/srv.img"

# The header from C++, warnings as errors.
echo '#include <seinstall.h>
int main() { seinstall_ctx *c = nullptr; return seinstall_new("/", &c) < 0; }' >"$d/cxx.cc"
# shellcheck disable=SC2086
g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $cflags "$d/cxx.cc" 2>"$d/cxx.err" ||
        fail "seinstall.h does not compile as C++: $(cat "$d/cxx.err")"
echo "ok: seinstall.h compiles as C++17 with -Wall -Wextra -Werror"

# An install through the API on a loop-mounted ext4 target.
require_loop
make_fs_image "$d/target.img" ext4 64
mount_image "$d/target.img" "$d/target"
make_target "$d/target"
expect_exit 0 "$d/consumer" "$d/target" --install
echo "$OUT"
assert_contains "consumer install" "$OUT" "install refused=no mode=enforcing mode_source=profile policy=default relabel=done"
assert_contains "consumer output" "$OUT" "consumer: ok"
assert_contains "target config after the API install" "$(cat "$d/target/etc/selinux/config")" "SELINUX=enforcing"
assert_contains "target /usr/bin/true label" "$(label_of "$d/target/usr/bin/true")" ":bin_t:"
[ -e "$d/target/var/lib/seinstall/firstboot" ] || fail "the API install left no first-boot mark"

# The same through the API on a target whose /home cannot carry labels: refused, unchanged.
rm -f "$d/target/etc/selinux/config"
mount -t tmpfs tmpfs "$d/target/home" || fail "mount tmpfs on $d/target/home"
on_exit "umount -l '$d/target/home'"
expect_exit 0 "$d/consumer" "$d/target" --install
assert_contains "consumer install on tmpfs /home" "$OUT" "install refused=yes"
[ ! -e "$d/target/etc/selinux/config" ] || fail "a refused API install wrote the config"
