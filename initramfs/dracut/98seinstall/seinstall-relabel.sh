#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# dracut pre-pivot hook: the real root is mounted at $NEWROOT; relabel it if a relabel is
# pending and the kernel runs SELinux (initrd-relabel says what it does on the console).
umount_sec=
if [ -d /sys/kernel/security ] && [ ! -e /sys/kernel/security/lsm ] &&
        mount -t securityfs securityfs /sys/kernel/security 2>/dev/null; then
        umount_sec=1
fi
@LIBEXECDIR@/initrd-relabel "${NEWROOT:-/sysroot}"
[ -z "$umount_sec" ] || umount /sys/kernel/security
