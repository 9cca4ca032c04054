#!/bin/bash
# apply --regenerate runs the target's own update-grub. A hostile one must not reach the
# installer: it runs in bubblewrap's sandbox (sandbox.c) where the installer's /run bound into
# the target is hidden under an empty tmpfs, rooted in the target, without capabilities (no
# mount, no chroot escape, no mknod). Its attempts are recorded inside the target; the files
# outside stay as they were. hostile-sandbox.sh tries the rest.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root
require_tool bwrap bubblewrap
require_static_busybox "to run update-grub in the target"

d=$(scratch_dir)
t=$d/t
make_target "$t"
mkdir -p "$t/bin" "$t/usr/sbin" "$t/boot/grub" "$t/run" "$t/mnt" "$d/instrun"
printf 'precious\n' >"$d/instrun/secret"
cp /bin/busybox "$t/bin/busybox"
mount --bind "$d/instrun" "$t/run" || fail "bind mount"
on_exit "umount -l '$t/run'"
cat >"$t/usr/sbin/update-grub" <<'HOSTILE'
#!/bin/busybox sh
B=/bin/busybox
R=/boot/grub/attempts
: >$R
try() { w=$1; shift; if "$@" 2>>/boot/grub/errors; then echo "$w ok" >>$R; else echo "$w denied" >>$R; fi; }
try read-installer-file $B grep -q precious /run/secret
try overwrite-installer-file $B sh -c 'echo pwned >/run/secret && $B sync'
try create-installer-file $B sh -c 'echo pwned >/run/MARKER'
try mount $B mount -t tmpfs evil /mnt
try chroot-escape $B chroot /proc/1/root /bin/true
try mknod $B mknod /boot/grub/disk b 8 0
$B grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg
HOSTILE
chmod +x "$t/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
cat "$t/boot/grub/attempts"
[ -s "$t/boot/grub/grub.cfg" ] || fail "update-grub could not write grub.cfg in the target"
# Writes to /run land in the sandbox's own tmpfs (and vanish with it): "ok" there is fine;
# what counts is the installer's directory below.
if grep -v -e '^overwrite-installer-file' -e '^create-installer-file' "$t/boot/grub/attempts" |
        grep -q " ok"; then
        fail "the target's update-grub got through: $(grep ' ok' "$t/boot/grub/attempts")"
fi
assert_eq "the installer's file" precious "$(cat "$d/instrun/secret")"
[ ! -e "$d/instrun/MARKER" ] || fail "a file was created in the installer's /run"
[ -z "$(ls -A "$t/run" | grep -v secret)" ] || fail "files were left in the installer's /run"
echo "ok: update-grub wrote grub.cfg and nothing of the installer"
