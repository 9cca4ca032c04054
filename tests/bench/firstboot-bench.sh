#!/bin/bash
# tests/bench/firstboot-bench.sh — the first-boot relabel, seinstall's against Debian's own, on
# the same Debian 12 target booted under QEMU (make bench runs it at its end; minutes under TCG).
#
#   seinstall   installed with --relabel=firstboot: seinstall-relabel.service runs
#               `seinstall relabel --progress` early in the first boot, then reboots
#   Debian      the same disk as selinux-activate (selinux-basics) leaves it: an empty
#               /.autorelabel, policycoreutils' selinux-autorelabel.service runs
#               `fixfiles restore`, then reboots
# Each is timed on the serial console from the unit's "Starting" line to the reboot. Prints both
# times and the ratio (the goal is 10x). The machinery is qemu/e2e.sh's (its "bench-firstboot"
# scenario, with selinux-basics added to the target); the cache is its cache.
. "$(dirname "$0")/../lib.sh"
SEINSTALL_E2E_ONLY=bench-firstboot SEINSTALL_E2E_EXTRA_PACKAGES=selinux-basics \
        exec "$TOP/qemu/e2e.sh"
