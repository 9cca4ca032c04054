# Installer for the "good" scenario. Disks: vda the target's root (ext4, files unpacked, no
# labels), vdb for /boot/efi and vdc for /home, both blank: format, mount, install.
. /e2e/lib.sh
mkfs.fat -n EFI /dev/vdb >/dev/null || say error "mkfs.fat /dev/vdb failed"
mkfs.xfs -q -f -L home /dev/vdc || say error "mkfs.xfs /dev/vdc failed"
mount -t ext4 /dev/vda /target || say error "mount /dev/vda failed"
mount -t vfat /dev/vdb /target/boot/efi || say error "mount /dev/vdb failed"
mount -t xfs /dev/vdc /target/home || say error "mount /dev/vdc failed"
mkdir -p /target/home/e2e /target/boot/efi/EFI/debian
echo "a person's file" >/target/home/e2e/notes.txt
echo "a boot loader" >/target/boot/efi/EFI/debian/grubx64.efi
say before:/etc/shadow "$(label /target/etc/shadow)"

run check seinstall check --root /target
start=$(date +%s)
run install seinstall install --root /target --profile /e2e/ks-enforcing.cfg
say install-seconds $(($(date +%s) - start))

say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
for f in /etc/shadow /usr/lib/systemd/systemd /etc/selinux/config /home /home/e2e \
        /home/e2e/notes.txt /boot/efi; do
        say "label:$f" "$(label "/target$f")"
done
say autorelabel "$(ls /target/.autorelabel /target/etc/selinux/.autorelabel 2>/dev/null)"
umount /target/home /target/boot/efi /target || say error "umount failed"
