#!/bin/bash
# tests/bench/firstboot-bench.sh — the first-boot relabel, seinstall's against Debian's own, on
# the same unlabeled Debian 12 image booted under QEMU (make bench runs it at its end; minutes
# under TCG).
#
#   seinstall   installed with --relabel=firstboot (no label written): seinstall-relabel.service
#               runs `seinstall relabel --progress --under-mounts` early in the first boot (the
#               live tree, then what its mounts hide), then reboots
#   Debian      the same image as selinux-activate (selinux-basics) leaves it, without any of
#               seinstall's units: an empty /.autorelabel, selinux=1 security=selinux;
#               policycoreutils' generator boots selinux-autorelabel.target, whose service runs
#               `fixfiles restore` (setfiles, then again over bind mounts), then reboots
# Each boot is timed on the serial console from QEMU's start (the kernel's) and from the relabel
# unit's "Starting" line to the reboot; seinstall's unit time is split into its relabel run and
# the rest. Prints both times and the ratios (the goal is 10x), and compares the labels both
# left with each other and with an install-time relabel of the same image. The machinery is
# qemu/e2e.sh's (its "bench-firstboot" scenario, with selinux-basics added to the target); the
# cache is its cache, under its lock.
. "$(dirname "$0")/../lib.sh"
SEINSTALL_E2E_ONLY=bench-firstboot SEINSTALL_E2E_EXTRA_PACKAGES=selinux-basics \
        exec "$TOP/qemu/e2e.sh"
