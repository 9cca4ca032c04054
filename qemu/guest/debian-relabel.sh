# Installer for the first-boot bench, Debian's own path: what selinux-activate (selinux-basics)
# leaves on a system, without seinstall: SELINUX=permissive, selinux=1 security=selinux on the
# kernel command line, an empty /.autorelabel. policycoreutils' generator
# (selinux-autorelabel-generator.sh) then boots into selinux-autorelabel.target, whose service
# runs `fixfiles restore` and reboots. Nothing of seinstall's first boot stays in this image:
# its units, their enablement links and its drop-in for selinux-autorelabel.service are
# removed, so only Debian's units can run.
. /e2e/lib.sh
mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
sed -i 's/^SELINUX=.*/SELINUX=permissive/' /target/etc/selinux/config
sed -i 's/$/ selinux=1 security=selinux/' /target/etc/kernel/cmdline
: >/target/.autorelabel
rm -f /target/etc/systemd/system/*.wants/seinstall-*.service \
        /target/lib/systemd/system/seinstall-*.service \
        /target/lib/systemd/system/selinux-autorelabel.service.d/seinstall.conf
rmdir /target/lib/systemd/system/selinux-autorelabel.service.d 2>/dev/null
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say selinux-activate "$(ls /target/usr/sbin/selinux-activate 2>/dev/null)"
say generator "$(ls /target/lib/systemd/system-generators/selinux-autorelabel-generator.sh 2>/dev/null)"
say autorelabel "$(ls /target/.autorelabel 2>/dev/null)"
say seinstall-units "$(ls -d /target/lib/systemd/system/seinstall-* /target/etc/systemd/system/*.wants/seinstall-* \
        /target/lib/systemd/system/selinux-autorelabel.service.d 2>/dev/null | tr '\n' ' ')"
say label:/etc/shadow "$(label /target/etc/shadow)"
umount /target || say error "umount failed"
