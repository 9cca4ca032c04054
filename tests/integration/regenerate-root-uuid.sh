#!/bin/bash
# apply --regenerate runs the target's update-grub in the sandbox (sandbox.c), whose /dev is its
# own. GRUB's 10_linux writes root=UUID=<uuid> only when /dev/disk/by-uuid/<uuid> exists, else
# the installer's kernel name of the device (root=/dev/loop3, /dev/sdb2), which may name another
# disk or nothing at the target's boot. Here the host's real grub-mkconfig, 10_linux and
# grub-probe run in a loop-mounted ext4 target, and grub.cfg must say root=UUID=<the fs's UUID>.
# A second ext4 with the same UUID (a cloned disk) is mounted on /boot: the link names the
# device of / (the target's mounts in their order, the first wins), and nothing else is made
# under /dev/disk.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root
require_loop
[ -x /usr/bin/bwrap ] || skip "needs bubblewrap (/usr/bin/bwrap) to run update-grub: make deps"
for c in grub-probe grub-mkconfig mkfs.ext4 findmnt; do
        command -v "$c" >/dev/null || skip "needs $c (make deps: grub-common, e2fsprogs)"
done
[ -f /etc/grub.d/10_linux ] || skip "needs GRUB's /etc/grub.d/10_linux (grub-common)"
if [ ! -x /bin/busybox ] || ldd /bin/busybox >/dev/null 2>&1; then
        skip "needs a static /bin/busybox (busybox-static) as the target's shell"
fi

d=$(scratch_dir)
t=$d/t
make_fs_image "$d/root.img" ext4
uuid=$(blkid -o value -s UUID "$d/root.img")
[ -n "$uuid" ] || fail "no UUID on the new ext4"
truncate -s 64M "$d/boot.img"
mkfs.ext4 -q -F -U "$uuid" "$d/boot.img" || fail "mkfs.ext4 -U $uuid (the clone)"
mount_image "$d/root.img" "$t"
mkdir -p "$t/boot"
mount_image "$d/boot.img" "$t/boot"
root_dev=$(findmnt -n -o SOURCE --mountpoint "$t")
boot_dev=$(findmnt -n -o SOURCE --mountpoint "$t/boot")
[ "$root_dev" != "$boot_dev" ] || fail "/ and /boot on the same device $root_dev"

# --- the target: GRUB's real programs, busybox as the shell ---------------------------------
make_target "$t"
mkdir -p "$t/bin" "$t/boot/grub" "$t/etc/grub.d" "$t/usr/share/grub"
: >"$t/boot/vmlinuz-6.1.0-test-amd64"
: >"$t/boot/initrd.img-6.1.0-test-amd64"
cp /bin/busybox "$t/bin/busybox"
for a in $(/bin/busybox --list); do
        [ -e "$t/bin/$a" ] || [ -e "$t/usr/bin/$a" ] || ln -s busybox "$t/bin/$a"
done
for f in /usr/sbin/grub-probe /usr/sbin/grub-mkconfig /usr/bin/grub-script-check \
        /usr/bin/grub-mkrelpath /usr/bin/grub-editenv; do
        mkdir -p "$t$(dirname "$f")"
        cp -L "$f" "$t$f"
        for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
                mkdir -p "$t$(dirname "$lib")"
                cp -L "$lib" "$t$lib"
        done
done
cp -a /etc/grub.d/00_header /etc/grub.d/10_linux "$t/etc/grub.d/"
cp -a /usr/share/grub/. "$t/usr/share/grub/"
# Debian's update-grub, with the sandbox's /dev/disk written down first.
cat >"$t/usr/sbin/update-grub" <<'UPDATE'
#!/bin/sh
set -e
find /dev/disk -exec ls -ld {} + >/boot/grub/disk-listing 2>&1 || true
exec grub-mkconfig -o /boot/grub/grub.cfg "$@"
UPDATE
chmod +x "$t/usr/sbin/update-grub"

expect_exit 0 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
cfg=$(cat "$t/boot/grub/grub.cfg") || fail "update-grub wrote no grub.cfg"
grep -E 'linux[[:space:]]+/' <<<"$cfg" | head -n 2
assert_contains "grub.cfg's kernel line" "$cfg" "root=UUID=$uuid "
grep -q "root=/dev/" <<<"$cfg" && fail "grub.cfg names the root by its kernel name: $(grep -m1 'root=/dev/' <<<"$cfg")"
echo "ok: grub.cfg boots root=UUID=$uuid, not root=$root_dev"

listing=$(cat "$t/boot/grub/disk-listing")
echo "$listing"
grep -Eq "/dev/disk/by-uuid/$uuid -> \.\./\.\./$(basename "$root_dev")\$" <<<"$listing" ||
        fail "/dev/disk/by-uuid/$uuid does not point to ../../$(basename "$root_dev") (the device of /): $listing"
echo "ok: the clone on /boot ($boot_dev) does not take the link from the device of /"
# Nothing but the two directories and the links in them; every link one step below.
bad=$(grep -Ev "^d.* /dev/disk(/by-uuid|/by-partuuid)?\$|^l.* /dev/disk/by-(uuid|partuuid)/[^/]+ -> \.\./\.\./[^/]+\$" <<<"$listing")
[ -z "$bad" ] || fail "unexpected entries in the sandbox's /dev/disk: $bad"
assert_eq "links in /dev/disk/by-uuid" 1 "$(grep -c ' /dev/disk/by-uuid/' <<<"$listing")"
echo "ok: /dev/disk holds one link, by-uuid/$uuid -> ../../$(basename "$root_dev")"
