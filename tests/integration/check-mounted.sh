#!/bin/bash
# seinstall check on a mounted target: real loop-mounted ext4 (/), xfs (/home), btrfs (/var),
# tmpfs (/tmp) and ramfs (/srv) under Debian's real default policy. Checks the verdicts, the
# live probe (it runs, and leaves nothing behind: no file, no xattr), the policy and mode
# sources (host vs target policy, target config), and a root that is not a mount point.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/check.sh"
require_tool getfattr attr
require_loop
[ -e /etc/selinux/default/policy/policy.33 ] || skip "selinux-policy-default is not installed"

d=$(scratch_dir)
t=$d/target
make_fs_image "$d/root.img" ext4
make_fs_image "$d/home.img" xfs
make_fs_image "$d/var.img" btrfs
mount_image "$d/root.img" "$t"
mkdir -p "$t/home" "$t/var" "$t/tmp" "$t/srv"
mount_image "$d/home.img" "$t/home"
mount_image "$d/var.img" "$t/var"
mount -t tmpfs tmpfs "$t/tmp" || fail "mount tmpfs"
on_exit "umount -l '$t/tmp'"
mount -t ramfs ramfs "$t/srv" || fail "mount ramfs"
on_exit "umount -l '$t/srv'"
echo data >"$t/home/file"

# Everything a probe could leave behind: names, sizes and every xattr of every file.
snapshot() {
        find "$t" -printf '%p %s %m\n' | sort
        getfattr -R -d -m - --absolute-names "$t" 2>/dev/null | sort
}
before=$(snapshot)

echo "== enforcing: ramfs /srv is refused, the rest is fine"
expect_exit 1 "$SEINSTALL" check --root "$t" --mode enforcing --json
load_json "$OUT"
assert_eq "mode" enforcing "$(json_get mode)"
assert_eq "mode_source" option "$(json_get mode_source)"
assert_eq "policy_source (empty target)" host "$(json_get policy_source)"
assert_eq "verdict" refuse "$(json_get verdict)"
assert_eq "mount count" 5 "$(json_get n_mounts)"
assert_eq "first mount" / "$(json_get mount0)"
assert_mount / xattr ok null
assert_mount /home xattr ok null
assert_mount /var xattr ok null
assert_mount /tmp trans ok null
assert_mount /srv trans refuse null
assert_eq "/ fstype" ext4 "$(mount_field / fstype)"
assert_eq "/home fstype" xfs "$(mount_field /home fstype)"
assert_eq "/var fstype" btrfs "$(mount_field /var fstype)"
assert_eq "/ source is the loop device" /dev/loop "$(mount_field / source | cut -c1-9)"
for mp in / /home /var; do
        assert_eq "$mp probed" yes "$(mount_field "$mp" probe)"
done
assert_contains "/srv reason" "$(mount_field /srv reason)" "ramfs on /srv"
assert_contains "/srv fix" "$(mount_field /srv fix)" "ext4, xfs or btrfs"

echo "== permissive: the same mount is a warning, exit 0"
expect_exit 0 "$SEINSTALL" check --root "$t" --mode permissive --json
load_json "$OUT"
assert_mount /srv trans warn
assert_eq "verdict" warn "$(json_get verdict)"

echo "== human output: a table, reasons and fixes"
expect_exit 1 "$SEINSTALL" check --root "$t" --mode enforcing
assert_contains "table header" "$OUT" "MOUNT"
assert_contains "table header" "$OUT" "LABELING"
assert_contains "refused mount" "$OUT" "refuse /srv: ramfs on /srv"
assert_contains "fix line" "$OUT" "  fix: put /srv on a partition formatted as ext4, xfs or btrfs"
assert_contains "closing line" "$OUT" "Refused:"

echo "== the probe left nothing behind"
after=$(snapshot)
[ "$before" = "$after" ] || fail "the target changed: $(diff <(echo "$before") <(echo "$after"))"
echo "ok: no file and no xattr added or changed ($(echo "$after" | wc -l) lines compared)"

echo "== read-only mounts: the probe reads instead of writing; the mount is refused"
mount -o remount,ro "$t/home" || fail "remount /home read-only"
# seinstall must write the labels of /home: read-only, it is refused (target-unwritable.sh)
expect_exit 1 "$SEINSTALL" check --root "$t" --mode permissive --json
load_json "$OUT"
assert_mount /home xattr refuse
assert_eq "/home probed read-only" yes "$(mount_field /home probe)"
mount -o remount,rw "$t/home" || fail "remount /home read-write"

echo "== the target's own policy and config decide when no option does"
umount "$t/srv"
mkdir -p "$t/etc/selinux/default/policy"
cp /etc/selinux/default/policy/policy.33 "$t/etc/selinux/default/policy/"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
expect_exit 0 "$SEINSTALL" check --root "$t" --json
load_json "$OUT"
assert_eq "policy_source" target "$(json_get policy_source)"
assert_eq "policy_file" "$t/etc/selinux/default/policy/policy.33" "$(json_get policy_file)"
assert_eq "mode" permissive "$(json_get mode)"
assert_eq "mode_source" target "$(json_get mode_source)"
assert_eq "policy_type_source" target "$(json_get policy_type_source)"
assert_eq "verdict" ok "$(json_get verdict)"

echo "== a root that is not a mount point: the filesystem holding it is the target's /"
plain=$t/home/plain
mkdir -p "$plain/home"
make_fs_image "$d/home2.img" ext4
mount_image "$d/home2.img" "$plain/home"
expect_exit 0 "$SEINSTALL" check --root "$plain" --mode enforcing --json
load_json "$OUT"
assert_eq "mount count" 2 "$(json_get n_mounts)"
assert_eq "first mount" / "$(json_get mount0)"
assert_eq "/ is the xfs holding the root" xfs "$(mount_field / fstype)"
assert_mount / xattr ok
assert_mount /home xattr ok
echo "PASS"
