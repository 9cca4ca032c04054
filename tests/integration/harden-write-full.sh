#!/bin/bash
# Full disk and read-only targets: replacing a config on a full tmpfs, a full ext4, a read-only
# bind mount and a read-only ext4 fails with exit 3 and a message naming the error, leaves the
# old file whole and no temporary file behind.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/harden-lib.sh"
require_rootfs_tool
require_loop

d=$(scratch_dir)
printf 'SELINUX=disabled\nSELINUXTYPE=default\n' >"$d/old"
for i in $(seq 1 4000); do printf 'SELINUX=enforcing # padding line %05d\n' "$i"; done >"$d/new"

# fill DIR: write zeros until the filesystem refuses (big blocks, then the last small ones).
fill() {
        dd if=/dev/zero of="$1/fill" bs=64k status=none 2>/dev/null || true
        dd if=/dev/zero of="$1/fill2" bs=1k status=none 2>/dev/null || true
}

# expect_old ROOT WHAT ERRNO_TEXT: the write must fail with exit 3, keep the old file, say why.
expect_old() {
        local root=$1 what=$2 text=$3
        expect_exit 3 "$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new"
        assert_contains "$what: message" "$ERR" "$text"
        assert_contains "$what: message" "$ERR" "/etc/selinux/config"
        cmp -s "$root/etc/selinux/config" "$d/old" || fail "$what: the old config is not whole"
        echo "ok: $what: the old config is whole"
        [ -z "$(find "$root/etc/selinux" -name '.#config.*')" ] || fail "$what: temporary file left behind"
}

# Full tmpfs.
mkdir "$d/tmpfs"
mount -t tmpfs -o size=256k tmpfs "$d/tmpfs" || fail "cannot mount a tmpfs"
on_exit "umount -l '$d/tmpfs'"
mkdir -p "$d/tmpfs/etc/selinux"
cp "$d/old" "$d/tmpfs/etc/selinux/config"
fill "$d/tmpfs"
expect_old "$d/tmpfs" "full tmpfs" "No space left on device"

# Full ext4 (root may use the reserved blocks: fill as root does).
make_fs_image "$d/ext4.img" ext4 8
mount_image "$d/ext4.img" "$d/ext4"
mkdir -p "$d/ext4/etc/selinux"
cp "$d/old" "$d/ext4/etc/selinux/config"
sync
fill "$d/ext4"
expect_old "$d/ext4" "full ext4" "No space left on device"
# Space again: the same write goes through.
rm -f "$d/ext4/fill" "$d/ext4/fill2"
expect_exit 0 "$ROOTFS_TOOL" write "$d/ext4" /etc/selinux/config "$d/new"
cmp -s "$d/ext4/etc/selinux/config" "$d/new" || fail "with space, the new config was not written"
cp "$d/old" "$d/ext4/etc/selinux/config"

# Read-only ext4.
umount "$d/ext4" || fail "umount ext4"
mount -o loop,ro "$d/ext4.img" "$d/ext4" || fail "mount -o ro"
expect_old "$d/ext4" "read-only ext4" "Read-only file system"
expect_exit 3 "$ROOTFS_TOOL" mkdir "$d/ext4" /etc/selinux/new/dir
assert_contains "read-only mkdir" "$ERR" "Read-only file system"

# Read-only bind mount of a plain directory.
mkdir -p "$d/src/etc/selinux" "$d/robind"
cp "$d/old" "$d/src/etc/selinux/config"
mount --bind "$d/src" "$d/robind" || fail "bind mount"
on_exit "umount -l '$d/robind'"
mount -o remount,bind,ro "$d/robind" || fail "remount ro"
expect_old "$d/robind" "read-only bind mount" "Read-only file system"
