# Installer for the scenarios of qemu/scenarios-avc.sh: the partitioned target disk
# (vda3 /, vda2 /boot/efi), installed with the profile e2e.profile= names (from /e2e). With
# e2e.mislabel=TYPE the install is followed by what a late %post or a careless admin does: it
# gives /etc/shadow the wrong label system_u:object_r:TYPE:s0 (as `mv /tmp/shadow /etc/` keeps
# tmp_t), and `seinstall verify` on the target says what it finds. The target also gets
# e2e-avc (qemu/guest/avc-probe.sh), which the test types on its console, and a unit that
# reads /etc/shadow (below).
. /e2e/lib.sh
profile='' mislabel='' reader=''
for arg in $(cat /proc/cmdline); do
        case $arg in
        e2e.profile=*) profile=${arg#*=} ;;
        e2e.mislabel=*) mislabel=${arg#*=} ;;
        e2e.reader=*) reader=${arg#*=} ;;
        esac
done
mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
mount -t vfat /dev/vda2 /target/boot/efi || say error "mount /dev/vda2 failed"
cp /e2e/avc-probe.sh /target/usr/local/sbin/e2e-avc && chmod 0755 /target/usr/local/sbin/e2e-avc ||
        say error "cannot copy e2e-avc into the target"
# e2e-shadow-reader.service reads /etc/shadow the way a PAM account check does (unix_chkpwd;
# systemd starts it in init_t, and the policy moves it to chkpwd_t): e2e-avc starts it, and
# with e2e.reader=1 it also runs at boot, before multi-user.target, so that the denial a wrong
# label causes is logged before anything looks at the boot's denials (the first-boot screen,
# seinstall-trial.service after multi-user.target).
# (The serial console's autologin reads shadow too, as local_login_t, but at a moment nothing
# orders.) The files are there before the install, which labels them.
cat >/target/etc/systemd/system/e2e-shadow-reader.service <<'UNIT'
[Unit]
Description=e2e: a PAM account check (unix_chkpwd reads /etc/shadow)
DefaultDependencies=no
After=sysinit.target
Before=multi-user.target seinstall-firstboot.service

[Service]
Type=oneshot
ExecStart=/usr/sbin/unix_chkpwd root chkexpiry
StandardInput=null
StandardOutput=null

[Install]
WantedBy=multi-user.target
UNIT
if [ "$reader" = 1 ]; then
        mkdir -p /target/etc/systemd/system/multi-user.target.wants
        ln -sf ../e2e-shadow-reader.service \
                /target/etc/systemd/system/multi-user.target.wants/e2e-shadow-reader.service
fi
start=$(date +%s)
run install seinstall install --root /target --profile "/e2e/$profile"
say install-seconds $(($(date +%s) - start))
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say installed:/etc/shadow "$(label /target/etc/shadow)"
say mark "$(tr '\n' ' ' </target/var/lib/seinstall/firstboot 2>/dev/null)"
run status seinstall status --root /target
if [ -n "$mislabel" ]; then
        setfattr -h -n security.selinux -v "system_u:object_r:$mislabel:s0" /target/etc/shadow ||
                say error "setfattr on /etc/shadow failed"
        say label:/etc/shadow "$(label /target/etc/shadow)"
        run verify seinstall verify --root /target --no-progress
        echo "E2E-BEGIN verify-json"
        seinstall verify --root /target --json 2>/dev/null
        echo
        echo "E2E-END verify-json"
fi
umount /target/boot/efi /target || say error "umount failed"
