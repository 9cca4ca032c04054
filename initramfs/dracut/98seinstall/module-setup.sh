#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# dracut module seinstall: a pending SELinux relabel done in the initramfs, before the switch
# to the real root (a pre-pivot hook), so the boot goes on with no reboot.

check() {
        require_binaries @BINDIR@/seinstall @LIBEXECDIR@/initrd-relabel || return 1
        # By itself where the system runs SELinux; elsewhere only when asked for (dracut -a
        # seinstall, add_dracutmodules+=" seinstall ").
        grep -Eqs '^SELINUX=(enforcing|permissive)' "${dracutsysrootdir-}/etc/selinux/config" && return 0
        return 255
}

depends() {
        return 0
}

installkernel() {
        hostonly='' instmods ext4 xfs btrfs overlay vfat
}

install() {
        inst_multiple @BINDIR@/seinstall @LIBEXECDIR@/initrd-relabel mount umount awk sed sort tr grep find stat chcon
        # shellcheck disable=SC2154 # dracut sets moddir
        inst_hook pre-pivot 50 "$moddir/seinstall-relabel.sh"
}
