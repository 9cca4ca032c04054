# Installer for the "seed" scenario, second boot. vdb: the ReiserFS root the first boot copied,
# now installed by seinstall with seinstall.unsupported=warn on this kernel command line (goes
# ahead, permissive). vdc: a copy of the same root installed the naive way, as the seed was:
# labels written as setfiles -F writes them (SELinux is off here, so ReiserFS takes them), the
# config enforcing, security=selinux on the kernel command line. Each boots as /dev/vda.
. /e2e/lib.sh
mount -t reiserfs /dev/vdb /target || say error "mount /dev/vdb failed"
run install seinstall install --root /target --profile /e2e/ks-enforcing.cfg
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say label:/etc/shadow "$(label /target/etc/shadow)"
umount /target

mount -t reiserfs /dev/vdc /target || say error "mount /dev/vdc failed"
fc=/etc/selinux/default/contexts/files/file_contexts
# seinstall's relabel engine writes exactly setfiles -F's labels and is many times faster under
# TCG; setfiles itself (from the target) when the engine will not label this filesystem.
if ! run naive-relabel seinstall relabel --root /target --no-progress; then
        mount -t proc proc /target/proc
        run naive-setfiles chroot /target setfiles -F -T 0 "$fc" /
        umount /target/proc
fi
sed -i 's/^SELINUX=.*/SELINUX=enforcing/' /target/etc/selinux/config
echo "root=/dev/vda ro console=ttyS0 security=selinux" >/target/etc/kernel/cmdline
say naive-cmdline "$(cat /target/etc/kernel/cmdline)"
say naive-label:/etc/shadow "$(label /target/etc/shadow)"
say naive-config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
umount /target
