#!/bin/bash
# The initramfs relabel's hooks as make install puts them (issue 35): initramfs-tools' boot
# script run as its init runs it (rootmnt set), and dracut's module: module-setup.sh's check
# and install with dracut's functions stubbed (recording what it would put in the image), then
# its pre-pivot hook sourced as dracut sources hooks (NEWROOT set). Each must relabel a real
# read-only root image with a pending mark through the installed initrd-relabel. (The real
# mkinitramfs and a boot of its image are qemu/scenarios-initrd.sh.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_tool getfattr attr

d=$(scratch_dir)
p=$d/prefix
log=$d/install.log
run_make install PREFIX="$p" UNITDIR="$p/units" BASHCOMPDIR="$p/bash" >"$log" 2>&1 ||
        fail "make install PREFIX=$p: $(tail -n 5 "$log")"
lb=$p/share/initramfs-tools/scripts/local-bottom/seinstall
mod=$p/lib/dracut/modules.d/98seinstall
for f in "$lb" "$p/share/initramfs-tools/hooks/seinstall" "$mod/module-setup.sh" \
        "$mod/seinstall-relabel.sh" "$p/libexec/seinstall/initrd-relabel" "$p/units/../units/seinstall-relabel-mount@.service"; do
        [ -f "$f" ] || fail "make install did not install $f"
done
grep -q "^$p/libexec/seinstall/initrd-relabel \"\${rootmnt}\"$" "$lb" ||
        fail "the boot script does not run the installed initrd-relabel: $(grep initrd-relabel "$lb")"
echo "ok: installed with the paths of PREFIX"

make_fs_image "$d/root.img" ext4 64
rootdev=$(losetup --show -f "$d/root.img") || fail "losetup"
on_exit "losetup -d '$rootdev'"
r=$d/root
mkdir -p "$r" "$d/sys/fs/selinux" "$d/run"
mount "$rootdev" "$r" || fail "mount"
on_exit "umount -l '$r'"
make_target "$r"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$r/etc/selinux/config"
echo "$rootdev / ext4 defaults 0 1" >"$r/etc/fstab"
echo "root=$rootdev ro" >"$d/cmdline"
export SEINSTALL_INITRD_CMDLINE=$d/cmdline SEINSTALL_INITRD_SYS=$d/sys SEINSTALL_INITRD_RUN=$d/run

# pending MARK: the mark, no labels, the root read-only.
pending() {
        mount -o remount,rw "$r" || fail "remount rw"
        (cd "$r" && find . -xdev -print0 | xargs -0 setfattr -h -x security.selinux 2>/dev/null)
        : >"$r$1"
        mount -o remount,ro "$r" || fail "remount ro"
        [ -z "$(label_of "$r/usr/bin/true")" ] || fail "labels left before the run"
}
relabeled() {
        [ -e "$r/.autorelabel" ] || [ -e "$r/etc/selinux/.autorelabel" ] && fail "$1: a mark is still there"
        assert_contains "$1: label of /usr/bin/true" "$(label_of "$r/usr/bin/true")" ":bin_t:"
        findmnt -n -o OPTIONS "$r" | tr ',' '\n' | grep -qx ro || fail "$1: the root is not read-only again"
}

# initramfs-tools: scripts are run with rootmnt in the environment of its init.
pending /.autorelabel
expect_exit 0 env rootmnt="$r" SEINSTALL="$SEINSTALL" sh "$lb"
assert_contains "initramfs-tools boot script" "$OUT" "relabeled; the marks are removed"
relabeled "initramfs-tools"
expect_exit 0 sh "$lb" prereqs

# dracut: module-setup.sh with dracut's functions recording what they are asked.
cat >"$d/dracut-stubs.sh" <<STUBS
require_binaries() { for f; do [ -x "\$f" ] || return 1; done; }
inst_multiple() { echo "inst_multiple \$*" >>"$d/dracut.log"; }
inst_hook() { echo "inst_hook \$*" >>"$d/dracut.log"; }
instmods() { echo "instmods \$*" >>"$d/dracut.log"; }
STUBS
dracut_run() {
        bash -c '. "$1"; moddir=$2; dracutsysrootdir=$3; . "$2/module-setup.sh"; '"$1" \
                _ "$d/dracut-stubs.sh" "$mod" "$r"
}
expect_exit 0 dracut_run 'check'
echo "ok: dracut's check includes the module for a system whose config says permissive"
printf 'SELINUX=disabled\n' >"$d/disabled" && mount -o remount,rw "$r" && cp "$r/etc/selinux/config" "$d/config" &&
        cp "$d/disabled" "$r/etc/selinux/config" && mount -o remount,ro "$r" || fail "config"
expect_exit 255 dracut_run 'check'
echo "ok: dracut's check: only when asked for where SELinux is disabled"
mount -o remount,rw "$r" && cp "$d/config" "$r/etc/selinux/config" && mount -o remount,ro "$r" || fail "config"
expect_exit 0 dracut_run 'install; installkernel'
assert_contains "dracut install: the command and the script" "$(cat "$d/dracut.log")" \
        "inst_multiple $p/sbin/seinstall $p/libexec/seinstall/initrd-relabel"
assert_contains "dracut install: the pre-pivot hook" "$(cat "$d/dracut.log")" \
        "inst_hook pre-pivot 50 $mod/seinstall-relabel.sh"
assert_contains "dracut installkernel: the filesystems' modules" "$(cat "$d/dracut.log")" "instmods ext4 xfs btrfs overlay"

# The hook, sourced by dracut's shell with NEWROOT: it must not exit that shell.
pending /etc/selinux/.autorelabel
expect_exit 0 env NEWROOT="$r" SEINSTALL="$SEINSTALL" sh -c '. "$1"; echo E2E-HOOK-RETURNED' _ "$mod/seinstall-relabel.sh"
assert_contains "dracut pre-pivot hook" "$OUT" "relabeled; the marks are removed"
assert_contains "the hook returns to dracut's shell" "$OUT" "E2E-HOOK-RETURNED"
relabeled "dracut"
echo "PASS"
