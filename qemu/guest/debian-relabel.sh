# Installer for the first-boot bench, Debian's own path: what selinux-activate (selinux-basics)
# leaves on a system, without seinstall: SELINUX=permissive, security=selinux on the kernel
# command line, an empty /.autorelabel. policycoreutils' generator then boots into
# selinux-autorelabel.target, whose service runs `fixfiles restore` and reboots. seinstall's
# own relabel unit is disabled here, so it cannot run first.
. /e2e/lib.sh
mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
sed -i 's/^SELINUX=.*/SELINUX=permissive/' /target/etc/selinux/config
sed -i 's/$/ security=selinux/' /target/etc/kernel/cmdline
: >/target/.autorelabel
rm -f /target/etc/systemd/system/*.wants/seinstall-*.service
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say selinux-activate "$(ls /target/usr/sbin/selinux-activate 2>/dev/null)"
umount /target || say error "umount failed"
