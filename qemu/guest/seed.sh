# Installer for the "seed" scenario, first boot: / planned on ReiserFS (vdb). The target's
# files come from the target disk's root (vda3, read-only), as an installer's payload would.
# `seinstall check` on the plan, in the profile's mode (enforcing), must refuse; then format and
# copy anyway and `seinstall install` must refuse too.
. /e2e/lib.sh
mount -o ro -t ext4 /dev/vda3 /payload || say error "mount /dev/vda3 failed"
echo "/dev/vdb  /  reiserfs  defaults  0 1" >/tmp/plan.fstab
run check-json seinstall check --plan /tmp/plan.fstab --root /payload --mode enforcing --json
run check seinstall check --plan /tmp/plan.fstab --root /payload --mode enforcing
grep -q 'e2e.install=1' /proc/cmdline || exit 0

mkfs.reiserfs -q -f /dev/vdb >/dev/null 2>&1 || say error "mkfs.reiserfs /dev/vdb failed"
mount -t reiserfs /dev/vdb /target || say error "mount /dev/vdb failed"
start=$(date +%s)
cp -a /payload/. /target/ || say error "copying the payload failed"
say copy-seconds $(($(date +%s) - start))
# An installer's own files for this layout: / alone on the ReiserFS disk.
echo "/dev/vda  /  reiserfs  defaults  0 1" >/target/etc/fstab
echo "root=/dev/vda ro console=ttyS0 quiet" >/target/etc/kernel/cmdline
run install seinstall install --root /target --profile /e2e/ks-enforcing.cfg
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
umount /target
