# Installer for the "grub" and "uefi" scenarios: the partitioned target disk (vda: 1 BIOS boot,
# 2 EFI system partition, 3 the root) gets its boot loaders the way debian-installer puts them
# in, from inside the target (chroot with /dev, /proc and /sys): grub-install for BIOS into
# the disk and for UEFI into the ESP's removable path. systemd-boot is laid
# out as bootctl and kernel-install lay it out (its EFI binary, the kernel and initrd on the
# ESP, one BLS entry whose options are /etc/kernel/cmdline). Then seinstall checks the mounted
# layout (the ESP included) and installs with --regenerate, which runs update-grub in the target.
. /e2e/lib.sh
binds() { for d in dev proc sys; do mount -o bind /$d /target/$d || say error "bind /$d failed"; done; }
unbinds() { umount /target/sys /target/proc /target/dev || say error "umount of the binds failed"; }

mount -t ext4 /dev/vda3 /target || say error "mount /dev/vda3 failed"
mount -t vfat /dev/vda2 /target/boot/efi || say error "mount /dev/vda2 failed"
kver=$(ls /target/boot | sed -n 's/^vmlinuz-//p' | head -n 1)
esp=/target/boot/efi
mkdir -p $esp/e2e $esp/loader/entries $esp/EFI/systemd
cp /target/boot/vmlinuz-$kver $esp/e2e/linux && cp /target/boot/initrd.img-$kver $esp/e2e/initrd &&
        cp /target/usr/lib/systemd/boot/efi/systemd-bootx64.efi $esp/EFI/systemd/ ||
        say error "copying systemd-boot and the kernel onto the ESP failed"
printf 'timeout 0\ndefault e2e.conf\n' >$esp/loader/loader.conf
printf 'title Debian GNU/Linux 12 (e2e)\nlinux /e2e/linux\ninitrd /e2e/initrd\noptions %s\n' \
        "$(cat /target/etc/kernel/cmdline)" >$esp/loader/entries/e2e.conf

binds
# The UUID update-grub must name the root by (root=UUID=), whatever the disk is called at boot.
say root-uuid "$(chroot /target blkid -o value -s UUID /dev/vda3)"
run grub-install-bios chroot /target grub-install --target=i386-pc /dev/vda
run grub-install-efi chroot /target grub-install --target=x86_64-efi --efi-directory=/boot/efi \
        --removable --no-nvram
ls $esp/EFI/BOOT/BOOTX64.EFI >/dev/null || say error "grub-install did not write EFI/BOOT/BOOTX64.EFI"

run check-json seinstall check --root /target --json
run check seinstall check --root /target
start=$(date +%s)
run install seinstall install --root /target --profile /e2e/ks-enforcing.cfg --regenerate
say install-seconds $(($(date +%s) - start))
unbinds

say config "$(grep -E '^SELINUX(TYPE)?=' /target/etc/selinux/config | tr '\n' ' ')"
say grub-cmdline-linux "$(. /target/etc/default/grub && echo "$GRUB_CMDLINE_LINUX")"
say grub-cmdline-linux-default "$(. /target/etc/default/grub && echo "$GRUB_CMDLINE_LINUX_DEFAULT")"
say grub-cfg-linux "$(grep -m 1 '^[[:space:]]*linux[[:space:]]' /target/boot/grub/grub.cfg | sed 's/^[[:space:]]*//')"
say bls-options "$(sed -n 's/^options[[:space:]]*//p' $esp/loader/entries/e2e.conf)"
say kernel-cmdline "$(cat /target/etc/kernel/cmdline)"
for f in /etc/shadow /boot/grub/grub.cfg /etc/default/grub /boot/efi; do
        say "label:$f" "$(label "/target$f")"
done
umount $esp /target || say error "umount failed"
