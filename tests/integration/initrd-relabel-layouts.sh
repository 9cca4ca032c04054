#!/bin/bash
# The relabel in the initramfs (initramfs/initrd-relabel.sh) on the layouts that need care:
# - a btrfs root (subvolume @) with /home a subvolume of the same filesystem from the fstab, a
#   read-only snapshot below the root (/.snapshots/1) and a subvolume nobody mounts
#   (/var/lib/machines): the relabel is per mount, so the snapshot and that subvolume are not
#   walked (the read-only snapshot would make every run fail), /home is;
# - /etc an overlay from the fstab with its upper layer on the root: the lower /etc is labeled
#   without being copied up, the files of the upper layer get the labels of their /etc paths.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_tool getfattr attr
require_tool btrfs btrfs-progs

SCRIPT=$TOP/initramfs/initrd-relabel.sh
d=$(scratch_dir)
make_fs_image "$d/b.img" btrfs 256
dev=$(losetup --show -f "$d/b.img") || fail "losetup"
on_exit "losetup -d '$dev'"
mkdir -p "$d/top" "$d/root" "$d/sys/fs/selinux" "$d/run"
mount "$dev" "$d/top" || fail "mount btrfs"
on_exit "umount -l '$d/top'"
btrfs -q subvolume create "$d/top/@" && btrfs -q subvolume create "$d/top/@home" || fail "subvolumes"
t=$d/top/@
make_target "$t"
mkdir -p "$d/top/@home/person" && echo hi >"$d/top/@home/person/notes"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
# The overlay /etc: the upper layer changes /etc/hostname and adds /etc/motd.
mkdir -p "$t/var/lib/overlay/etc-upper" "$t/var/lib/overlay/etc-work"
echo overlay-host >"$t/var/lib/overlay/etc-upper/hostname"
echo hello >"$t/var/lib/overlay/etc-upper/motd"
cat >"$t/etc/fstab" <<FSTAB
$dev  /  btrfs  subvol=@  0 0
$dev  /home  btrfs  subvol=@home  0 0
overlay  /etc  overlay  lowerdir=/etc,upperdir=/var/lib/overlay/etc-upper,workdir=/var/lib/overlay/etc-work  0 0
FSTAB
mkdir -p "$t/.snapshots" "$t/var/lib"
btrfs -q subvolume create "$t/var/lib/machines" && echo m >"$t/var/lib/machines/file" || fail "nested subvolume"
btrfs -q subvolume snapshot -r "$t" "$t/.snapshots/1" || fail "read-only snapshot"
: >"$t/.autorelabel"
# In an initramfs the filesystem is mounted at the root only (the top level elsewhere would
# make /home "also mounted outside the target", and not labeled).
umount "$d/top" || fail "umount the top level"
mount -o ro,subvol=@ "$dev" "$d/root" || fail "mount the root subvolume read-only"
on_exit "umount -l '$d/root'"
r=$d/root

echo "root=$dev ro" >"$d/cmdline"
expect_exit 0 env SEINSTALL_INITRD_CMDLINE="$d/cmdline" SEINSTALL_INITRD_SYS="$d/sys" \
        SEINSTALL_INITRD_RUN="$d/run" SEINSTALL="$SEINSTALL" sh "$SCRIPT" "$r"
echo "$OUT" | sed 's/^/  | /'
assert_contains "the relabel succeeded" "$OUT" "relabeled; the marks are removed"
[ -e "$r/.autorelabel" ] && fail "/.autorelabel is still there"
assert_contains "the snapshot is not walked" "$OUT" "/.snapshots/1: a btrfs subvolume the booted system does not mount"
assert_contains "nor /var/lib/machines" "$OUT" "/var/lib/machines: a btrfs subvolume"
assert_eq "label of a file in the read-only snapshot" "" "$(label_of "$r/.snapshots/1/etc/fstab")"
assert_eq "label of a file in /var/lib/machines" "" "$(label_of "$r/var/lib/machines/file")"
assert_contains "label of /usr/bin/true" "$(label_of "$r/usr/bin/true")" ":bin_t:"
mount -o ro "$dev" "$d/top" || fail "mount the top level again"
assert_contains "label of /home/person/notes (subvolume @home, mounted from the fstab)" \
        "$(label_of "$d/top/@home/person/notes")" ":user_home_t:"
# The overlay: lower /etc labeled on the root filesystem, not copied up; the upper files
# labeled as /etc files.
assert_contains "mounted the overlay" "$OUT" "mounted /etc (overlay) to label it"
assert_contains "label of the lower /etc/fstab" "$(label_of "$r/etc/fstab")" ":etc_t:"
[ -e "$t/var/lib/overlay/etc-upper/fstab" ] && fail "the lower /etc/fstab was copied up by labeling it"
assert_contains "label of the upper /etc/hostname" "$(label_of "$t/var/lib/overlay/etc-upper/hostname")" ":net_conf_t:"
assert_contains "label of the upper /etc/motd" "$(label_of "$t/var/lib/overlay/etc-upper/motd")" ":etc_t:"
assert_eq "mounts left below the root" "" "$(findmnt -rn -o TARGET -R "$r" | grep -v "^$r\$" || true)"
findmnt -n -o OPTIONS "$r" | tr ',' '\n' | grep -qx ro || fail "the root is not read-only again"
echo "PASS"
