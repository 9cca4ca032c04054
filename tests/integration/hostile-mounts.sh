#!/bin/bash
# Writes never follow a symlink of the target onto a mount the installer bound into it: a bind
# of a directory of the installer's own filesystem (its /run, a package cache), a bind of a
# whole filesystem that is also mounted outside (a tmpfs), and a bind-mounted single file (its
# resolv.conf). RESOLVE_IN_ROOT keeps paths inside the root's tree, not its filesystems; the
# mount-ID rule (mount-boundary.c) must refuse each with exit 2, and the files outside stay as they
# were: checksum, mode, owner and security.selinux (issue 18, item 6). A mount that is the
# target's own (a fresh tmpfs at /boot) is still written.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
rm -f "$t/etc/default/grub"

# The installer's things: a directory of the host's filesystem and a tmpfs mounted outside.
mkdir -p "$d/instrun/kernel" "$d/instrun/selinux" "$d/insttmp" "$t/run" "$t/mnt/cache"
printf 'quiet\n' >"$d/instrun/kernel/cmdline"
printf 'SELINUX=disabled\nSELINUXTYPE=default\n' >"$d/instrun/selinux/config"
printf 'nameserver 10.0.0.1\n' >"$d/resolv.conf"
mount -t tmpfs seinstall-insttmp "$d/insttmp" || skip "cannot mount a tmpfs"
on_exit "umount -l '$d/insttmp'"
mkdir -p "$d/insttmp/default"
printf 'GRUB_CMDLINE_LINUX=""\n' >"$d/insttmp/default/grub"
mount --bind "$d/instrun" "$t/run" || fail "bind mount"
on_exit "umount -l '$t/run'"
mount --bind "$d/insttmp" "$t/mnt/cache" || fail "bind mount"
on_exit "umount -l '$t/mnt/cache'"

victims=("$d/instrun/kernel/cmdline" "$d/instrun/selinux/config" "$d/insttmp/default/grub" "$d/resolv.conf")
snapshot() {
        for f in "${victims[@]}"; do
                echo "$f $(sha256sum <"$f") $(stat -c '%a %u:%g %s' "$f") $(label_of "$f")"
        done
        find "$d/instrun" "$d/insttmp" | sort
}
before=$(snapshot)

# refused WHAT ARGS...: exit 2 saying why, nothing outside changed.
refused() {
        local what=$1 rc
        shift
        timeout 60 "$SEINSTALL" "$@" --root "$t" >/dev/null 2>"$d/err" && rc=0 || rc=$?
        [ "$rc" = 2 ] || fail "$what: seinstall $* exited $rc, expected 2: $(cat "$d/err")"
        assert_contains "$what: message" "$(cat "$d/err")" "not one of the target's own"
        [ "$before" = "$(snapshot)" ] || fail "$what: files outside changed: $(diff <(echo "$before") <(snapshot))"
        echo "ok: $what refused, nothing outside changed"
}

echo "== /etc/kernel -> /run/kernel, /run a bind of a directory of the installer's filesystem"
mkdir -p "$t/etc"
ln -s /run/kernel "$t/etc/kernel"
refused "kernel-cmdline through a directory bind" apply --mode enforcing --bootloader kernel-cmdline
rm "$t/etc/kernel"

echo "== /etc/default -> /mnt/cache/default, a bind of a tmpfs also mounted outside"
mv "$t/etc/default" "$d/default.saved"
ln -s /mnt/cache/default "$t/etc/default"
refused "GRUB defaults through a whole-filesystem bind" apply --mode enforcing --bootloader grub
rm "$t/etc/default"
mv "$d/default.saved" "$t/etc/default"

echo "== /etc/selinux/config on the installer's /run through /etc/selinux -> /run/selinux"
mv "$t/etc/selinux" "$d/selinux.saved"
ln -s /run/selinux "$t/etc/selinux"
refused "the config through a directory bind" apply --mode disabled --bootloader none
rm "$t/etc/selinux"
mv "$d/selinux.saved" "$t/etc/selinux"

echo "== a bind-mounted single file at /etc/default/grub"
: >"$t/etc/default/grub"
mount --bind "$d/resolv.conf" "$t/etc/default/grub" || fail "file bind mount"
on_exit "umount -l '$t/etc/default/grub'"
refused "a bind-mounted file" apply --mode enforcing --bootloader grub
umount "$t/etc/default/grub"
rm -f "$t/etc/default/grub"

echo "== the target's own tmpfs at /boot is written"
mount -t tmpfs seinstall-boot "$t/boot" || fail "tmpfs at /boot"
on_exit "umount -l '$t/boot'"
mkdir -p "$t/boot/loader/entries"
printf 'title Debian\noptions root=/dev/vda1 quiet\n' >"$t/boot/loader/entries/debian.conf"
expect_exit 0 "$SEINSTALL" apply --root "$t" --mode permissive --bootloader bls
assert_contains "BLS entry" "$(cat "$t/boot/loader/entries/debian.conf")" "security=selinux"
[ "$before" = "$(snapshot)" ] || fail "files outside changed"
echo "ok: own mounts written, installer mounts never"
