# Installer for the "good" scenario. Disks: vda the partitioned target disk (3: the root, ext4,
# files unpacked, no labels; 2: the EFI system partition, FAT, empty), vdb blank for /home:
# format, mount, install.
. /e2e/lib.sh
mkfs.xfs -q -f -L home /dev/vdb || say error "mkfs.xfs /dev/vdb failed"
mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
mount -t vfat /dev/vda2 /target/boot/efi || say error "mount /dev/vda2 failed"
mount -t xfs /dev/vdb /target/home || say error "mount /dev/vdb failed"
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
