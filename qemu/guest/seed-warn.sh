# Installer for the "seed" scenario, second boot: the same ReiserFS root (vdb), now with
# seinstall.unsupported=warn on this kernel command line: the install goes ahead, permissive.
. /e2e/lib.sh
mount -t reiserfs /dev/vdb /target || say error "mount /dev/vdb failed"
run install seinstall install --root /target --profile /e2e/ks-enforcing.cfg
say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
say label:/etc/shadow "$(label /target/etc/shadow)"
umount /target
