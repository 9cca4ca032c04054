# Sourced by qemu/e2e.sh: the Debian 12 target root, built with mmdebstrap and cached.
#
# A real, unmodified Debian 12 system: minbase + systemd as init, udev, kmod, Debian's
# selinux-policy-default (its postinst builds policy.33 even where SELinux is off, exactly as on
# a machine being installed), policycoreutils and selinux-utils (restorecon, sestatus), and the
# libraries seinstall and seinstall-firstboot link against. No kernel package: the test boots
# the kernel it fetched itself through its own initramfs, so the target stays ~256 MB and its
# build is ~30 s. Nothing in it is labeled: SELinux is off on the build host.

TARGET_SUITE=bookworm
TARGET_PACKAGES=systemd-sysv,udev,kmod,selinux-policy-default,policycoreutils,selinux-utils
TARGET_PACKAGES=$TARGET_PACKAGES,libnewt0.52,libsemanage2,libpcre2-8-0,libblkid1,libmount1

# target_tarball CACHE: print the path of the cached target tarball, building it when missing.
# The cache key covers the package list, so changing it rebuilds.
target_tarball() {
        local cache=$1 key tar
        key=$(printf '%s %s v1' "$TARGET_SUITE" "$TARGET_PACKAGES" | sha256sum | cut -c1-12)
        tar=$cache/target-$TARGET_SUITE-$key.tar
        if [ ! -s "$tar" ]; then
                log "building the Debian target with mmdebstrap (cached in $tar)" >&2
                mmdebstrap --quiet --variant=minbase --format=tar --include="$TARGET_PACKAGES" \
                        "$TARGET_SUITE" "$tar.tmp" >&2 || return 1
                mv "$tar.tmp" "$tar"
        fi
        echo "$tar"
}

# target_tree TARBALL DIR: unpack the target and do what an installer does besides SELinux:
# fstab for the scenario's disks (vda /, vdb /boot/efi, vdc /home), a kernel command line in
# /etc/kernel/cmdline for the boot loader (seinstall edits it), seinstall itself (make install
# and the first-boot units enabled, as its package would), and for the test: root autologin on
# the serial console and the e2e-facts script. Labels and /etc/selinux/config are left as Debian
# made them.
target_tree() {
        local tarball=$1 dir=$2
        rm -rf "$dir" && mkdir -p "$dir"
        tar -C "$dir" -xf "$tarball" || return 1
        mkdir -p "$dir/boot/efi" "$dir/etc/kernel"
        cat >"$dir/etc/fstab" <<'FSTAB'
/dev/vda   /          ext4  errors=remount-ro  0 1
/dev/vdb   /boot/efi  vfat  umask=0077         0 1
/dev/vdc   /home      xfs   defaults           0 2
FSTAB
        echo "root=/dev/vda ro console=ttyS0 quiet" >"$dir/etc/kernel/cmdline"
        echo e2e-target >"$dir/etc/hostname"
        mkdir -p "$dir/etc/systemd/system/serial-getty@ttyS0.service.d"
        cat >"$dir/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf" <<'UNIT'
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 - $TERM
UNIT
        install -D -m 0755 "$E2E_DIR/guest/facts.sh" "$dir/usr/local/sbin/e2e-facts"
        make -s -C "$TOP" install DESTDIR="$dir" PREFIX=/usr >/dev/null || return 1
        # What the package's postinst does: enable the first-boot units.
        local u units=
        for u in seinstall-firstboot.service seinstall-relabel.service; do
                [ -e "$dir/lib/systemd/system/$u" ] && units="$units $u"
        done
        [ -z "$units" ] || systemctl --root="$dir" enable $units >/dev/null 2>&1 || return 1
}

# target_disk DIR IMAGE: an ext4 disk image holding DIR (mkfs.ext4 -d copies files, owners,
# modes and extended attributes; no loop mount needed).
target_disk() {
        rm -f "$2"
        truncate -s 1G "$2"
        mkfs.ext4 -q -F -L target-root -d "$1" "$2"
}
