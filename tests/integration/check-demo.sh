#!/bin/bash
# make demo works: it builds its own target, shows the good layout accepted and the seed's
# ReiserFS root refused (and lowered to permissive with unsupported=warn), and cleans up
# after itself (no mount, loop device or scratch directory left).
. "$(dirname "$0")/../lib.sh"
require_loop

d=$(scratch_dir)
before_loops=$(losetup -a | grep -c seinstall-demo || true)
TMPDIR=$d bash "$TOP/tests/demo.sh" >"$d/demo.out" 2>&1 || fail "demo failed: $(tail -20 "$d/demo.out")"
out=$(cat "$d/demo.out")
assert_contains "good plan accepted" "$out" "Accepted: every filesystem can carry the labels it needs."
assert_contains "seed row" "$out" "seed-root.img  reiserfs  genfs     system_u:object_r:nfs_t:s0    refuse"
assert_contains "seed reason" "$out" "refuse /: seed-root.img on / is reiserfs"
assert_contains "seed refused" "$out" "(exit status 1)"
assert_contains "mounted target probed" "$out" '"probe": "yes"'
assert_contains "lowered" "$out" "lowered from enforcing by seinstall.unsupported=warn"
assert_contains "install from the profile" "$out" "Installed: SELinux enforcing (from profile), policy default."
assert_contains "installed label" "$out" "/usr/bin/true          system_u:object_r:bin_t:s0"
assert_contains "installed kernel command line" "$out" 'GRUB_CMDLINE_LINUX="security=selinux"'
assert_contains "status after install" "$out" "boots in:        enforcing"
left=$(find "$d" -mindepth 1 ! -name demo.out)
[ -z "$left" ] || fail "demo left files behind: $left"
findmnt -rn | grep -q seinstall-demo && fail "demo left mounts behind"
assert_eq "loop devices left by the demo" "$before_loops" "$(losetup -a | grep -c seinstall-demo || true)"
echo PASS
