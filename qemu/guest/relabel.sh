# Installer for the "relabel" scenario: the partitioned target disk (vda3 /, vda2 /boot/efi),
# installed enforcing with the relabel left to the first boot (--relabel=firstboot).
. /e2e/lib.sh
mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
mount -t vfat /dev/vda2 /target/boot/efi || say error "mount /dev/vda2 failed"
run install seinstall install --root /target --profile /e2e/ks-firstboot.cfg
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say autorelabel "$(cat /target/.autorelabel /target/etc/selinux/.autorelabel 2>/dev/null | tr '\n' ' ')"
say mark "$(tr '\n' ' ' </target/var/lib/seinstall/firstboot 2>/dev/null)"
say label:/etc/shadow "$(label /target/etc/shadow)"
umount /target/boot/efi /target || say error "umount failed"
