#!/bin/bash
# The sandbox's confinement by construction (issue 32): the target's update-grub runs as root of
# a user namespace whose ids are not the host's, so what the kernel grants the host's uid 0
# without a capability is refused: sysctls open for writing, the loop device's LOOP_CLR_FD, the
# files container runtimes mask in /proc. The tree it gets holds only the target's own mounts,
# idmapped (what it writes in /boot belongs to root on disk), and its /dev only the block devices
# that hold nothing but the target: no device for a directory target, never a partition's whole
# disk or its sibling partitions.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_static_busybox "to run update-grub in the target"
require_tool bwrap bubblewrap
require_tool sfdisk fdisk
command -v cc >/dev/null || skip "needs cc (make deps)"

d=$(scratch_dir)
cc -static -O1 -o "$d/attack" "$TOP/tests/integration/lib/sandbox-attack.c" 2>"$d/cc.err" ||
        skip "cannot build a static program here: $(cat "$d/cc.err")"

# prepare_target DIR: a target whose update-grub runs the attacks (OWN_DEV in $1's env).
prepare_target() {
        local t=$1 own=$2
        make_target "$t"
        mkdir -p "$t/bin" "$t/usr/sbin" "$t/boot/grub"
        cp /bin/busybox "$t/bin/busybox"
        cp "$d/attack" "$t/bin/attack"
        cat >"$t/usr/sbin/update-grub" <<HOSTILE
#!/bin/busybox sh
/bin/attack kernel "$own" >/boot/grub/kernel 2>&1
/bin/attack blockdevs >/boot/grub/devs
/bin/busybox id -u >/boot/grub/id
/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg
HOSTILE
        chmod +x "$t/usr/sbin/update-grub"
}

# --- a whole filesystem as the target, on a loop device -------------------------------------
t=$d/t
make_fs_image "$d/target.img" ext4
mount_image "$d/target.img" "$t"
own_dev=$(findmnt -n -o SOURCE "$t")
prepare_target "$t" "$own_dev"
expect_exit 0 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
cat "$t/boot/grub/kernel"
for a in sysctl-open-write:kernel/core_pattern sysctl-open-write:kernel/randomize_va_space \
        sysctl-open-write:fs/protected_symlinks loop-clr-fd root-is-host-root \
        proc-sys-writable-mount timer-list-read; do
        grep -q "^$a denied" "$t/boot/grub/kernel" ||
                fail "attempt $a was not denied: $(grep "^$a " "$t/boot/grub/kernel")"
done
# Only where this kernel has it: elsewhere the attempt fails for want of the file.
if [ -e /proc/sysrq-trigger ]; then
        grep -q "^sysrq-open-write denied (Permission denied)" "$t/boot/grub/kernel" ||
                fail "/proc/sysrq-trigger opened for writing: $(grep '^sysrq' "$t/boot/grub/kernel")"
else
        echo "not checked: this kernel has no /proc/sysrq-trigger"
fi
echo "ok: sysctls, LOOP_CLR_FD, the masked and read-only /proc paths all refused"
grep -q "^loop-open ok" "$t/boot/grub/kernel" || fail "the target's own loop device did not open"
grep -q "^blkgetsize64 ok" "$t/boot/grub/kernel" || fail "BLKGETSIZE64, a query grub-probe makes, was refused"
grep -q "^loop-clr-fd denied (Inappropriate ioctl for device)" "$t/boot/grub/kernel" ||
        fail "LOOP_CLR_FD was not refused by the ioctl filter"
[ "$(losetup -n -O BACK-FILE "$own_dev" | tr -d ' ')" = "$d/target.img" ] ||
        fail "the target's loop device lost its file"
outer=$(awk '/^uid_map/ {print $3}' "$t/boot/grub/kernel")
[ -n "$outer" ] && [ "$outer" -ge 524288 ] ||
        fail "the sandbox's root is not mapped to an unused host id: uid_map says '$outer'"
assert_eq "uid inside" 0 "$(cat "$t/boot/grub/id")"
echo "ok: root inside is host uid $outer outside"
assert_eq "owner on disk of what update-grub wrote (idmapped)" 0:0 \
        "$(stat -c %u:%g "$t/boot/grub/grub.cfg")"
assert_eq "block devices in the sandbox" "blockdev /dev/${own_dev#/dev/}" \
        "$(cat "$t/boot/grub/devs")"
echo "ok: files written as root on disk, only the target's own device"

# --- a directory of a larger filesystem as the target ---------------------------------------
big=$d/big
make_fs_image "$d/big.img" ext4
mount_image "$d/big.img" "$big"
printf 'SECRET-BESIDE-THE-TARGET\n' >"$big/beside"
prepare_target "$big/target" /dev/null
expect_exit 0 "$SEINSTALL" apply --root "$big/target" --mode permissive --regenerate
assert_eq "block devices for a directory target" "" "$(cat "$big/target/boot/grub/devs")"
assert_contains "the output says what update-grub cannot probe" "$ERR" \
        "is a directory of a filesystem that also holds files outside the target"
grep -rqs SECRET-BESIDE "$big/target" && fail "a file beside the target reached it"
echo "ok: a directory target gets no raw device, and the output says so"

# --- a partition as the target: never its whole disk, nor the other partitions -------------
truncate -s 80M "$d/disk.img"
printf 'label: gpt\nsize=36M\nsize=36M\n' | sfdisk -q "$d/disk.img" >/dev/null ||
        fail "sfdisk"
disk=$(losetup -f --show -P "$d/disk.img") || fail "losetup -P"
on_exit "losetup -d '$disk'"
blockdev --rereadpt "$disk" 2>/dev/null
[ -b "${disk}p1" ] || partx -a "$disk" 2>/dev/null
for _ in $(seq 50); do [ -b "${disk}p2" ] && break; sleep 0.1; done
[ -b "${disk}p1" ] || skip "no partition devices for $disk (no devtmpfs or udev here)"
mkfs.ext4 -q -F "${disk}p1" || fail "mkfs.ext4 ${disk}p1"
p=$d/p
mkdir -p "$p"
mount "${disk}p1" "$p" || fail "mount ${disk}p1"
on_exit "umount -l '$p'"
prepare_target "$p" "${disk}p1"
expect_exit 0 "$SEINSTALL" apply --root "$p" --mode permissive --regenerate
assert_eq "block devices for a partition target" "blockdev /dev/${disk#/dev/}p1" \
        "$(cat "$p/boot/grub/devs")"
echo "ok: a partition target gets its partition only, not ${disk} nor ${disk}p2"
