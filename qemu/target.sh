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
TARGET_PACKAGES=$TARGET_PACKAGES,libnewt0.52,libsemanage2,libpcre2-8-0,libblkid1,libmount1,libseccomp2,bubblewrap
# Boot loaders, as an installer puts them in: GRUB's tools and both of its platforms (the
# scenarios run grub-install and update-grub inside the target), systemd-boot's EFI binary.
TARGET_PACKAGES=$TARGET_PACKAGES,grub2-common,grub-pc-bin,grub-efi-amd64-bin,systemd-boot-efi
# More for one run (make bench's first-boot comparison adds selinux-basics).
[ -n "${SEINSTALL_E2E_EXTRA_PACKAGES:-}" ] && TARGET_PACKAGES=$TARGET_PACKAGES,$SEINSTALL_E2E_EXTRA_PACKAGES

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
# fstab for the scenario's disks (vda3 /, vda2 /boot/efi on the partitioned disk target_disk
# makes, vdb /home: xfs where a scenario has a /home, a blank disk elsewhere, which fails to
# mount at once rather than after udev's timeout), the kernel in /boot as its package puts it
# (vmlinuz, config: seinstall reads the kernel's config) with the e2e initramfs as its
# initrd.img, GRUB's defaults as grub-pc's postinst writes them (serial console, no menu
# delay), a kernel command line in /etc/kernel/cmdline for the boot loaders that read it,
# seinstall itself (make install and the first-boot units enabled, as its package would), and
# for the test: root autologin on the serial console and the e2e-facts script. Labels and
# /etc/selinux/config are left as Debian made them. Needs KDIR, KVER (kernel.sh) and INITRD.
target_tree() {
        local tarball=$1 dir=$2
        rm -rf "$dir" && mkdir -p "$dir"
        tar -C "$dir" -xf "$tarball" || return 1
        mkdir -p "$dir/boot/efi" "$dir/etc/kernel" "$dir/etc/default"
        cat >"$dir/etc/fstab" <<'FSTAB'
/dev/vda3  /          ext4  errors=remount-ro                   0 1
/dev/vda2  /boot/efi  vfat  umask=0077                          0 1
/dev/vdb   /home      xfs   nofail                              0 2
FSTAB
        cp "$KDIR/boot/vmlinuz-$KVER" "$KDIR/boot/config-$KVER" "$dir/boot/" || return 1
        cp "$INITRD" "$dir/boot/initrd.img-$KVER" || return 1
        cat >"$dir/etc/default/grub" <<'GRUB'
# Written by the e2e installer, as grub-pc's postinst writes it; seinstall edits
# GRUB_CMDLINE_LINUX, update-grub turns it into /boot/grub/grub.cfg.
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`
GRUB_CMDLINE_LINUX_DEFAULT="quiet"
GRUB_CMDLINE_LINUX="console=ttyS0"
GRUB_TERMINAL="serial console"
GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
GRUB_DISABLE_OS_PROBER=true
GRUB
        echo "root=/dev/vda3 ro console=ttyS0 quiet" >"$dir/etc/kernel/cmdline"
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
        for u in seinstall-firstboot.service seinstall-relabel.service seinstall-trial.service; do
                [ -e "$dir/lib/systemd/system/$u" ] && units="$units $u"
        done
        [ -z "$units" ] || systemctl --root="$dir" enable $units >/dev/null 2>&1 || return 1
}

# The partitioned disk every scenario starts from, as an installer's partitioner leaves it:
# GPT, 1: BIOS boot (GRUB's core.img), 2: EFI system partition (FAT32, empty), 3: the root
# (ext4, the target's files, no labels). Offsets in 512-byte sectors.
DISK_SIZE=2G
ESP_START=4096 ESP_SECTORS=126976
ROOT_START=131072 ROOT_SIZE=1900M
ROOT_OFFSET=$((ROOT_START * 512))

# target_disk DIR IMAGE: that disk as a raw image, built without loop devices (mkfs.ext4 -d
# copies files, owners, modes and extended attributes at an offset; the FAT is made apart and
# copied in).
target_disk() {
        local dir=$1 img=$2
        rm -f "$img" "$img.esp"
        truncate -s "$DISK_SIZE" "$img"
        sfdisk -q "$img" <<SFDISK || return 1
label: gpt
start=2048, size=2048, type=21686148-6449-6E6F-744E-656564454649, name=bios
start=$ESP_START, size=$ESP_SECTORS, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name=esp
start=$ROOT_START, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=root
SFDISK
        truncate -s $((ESP_SECTORS * 512)) "$img.esp"
        mkfs.fat -F 32 -n EFI "$img.esp" >/dev/null || return 1
        dd if="$img.esp" of="$img" bs=512 seek=$ESP_START conv=notrunc,sparse status=none || return 1
        rm -f "$img.esp"
        mkfs.ext4 -q -F -L target-root -E offset=$ROOT_OFFSET -d "$dir" "$img" "$ROOT_SIZE"
}
