#!/bin/bash
# seinstall check on planned layouts: images made by the real mkfs for ext4, xfs, btrfs, f2fs,
# vfat, reiserfs, nilfs2 and exfat, their types probed by libblkid (type auto, or none), under
# Debian's real default policy (the empty target has none: the host's is used and reported).
# The seed case: a ReiserFS / is genfs nfs_t, refused in enforcing even though today's kernel
# could store xattrs on it; seinstall.unsupported=warn lowers the mode to permissive and says so.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/check.sh"
[ -e /etc/selinux/default/policy/policy.33 ] || skip "selinux-policy-default is not installed"

d=$(scratch_dir)
t=$d/target
mkdir -p "$t"
for fs in ext4 xfs btrfs f2fs vfat reiserfs nilfs2 exfat; do
        make_fs_image "$d/$fs.img" "$fs"
done

echo "== every type probed by libblkid"
cat >"$d/all.fstab" <<EOF
# planned layout, types left to libblkid
$d/ext4.img     /          auto  defaults  0 1
$d/vfat.img     /boot/efi  auto  umask=0077
$d/xfs.img      /home
$d/btrfs.img    /var       auto
$d/f2fs.img     /srv
$d/reiserfs.img /mnt/old   auto
$d/nilfs2.img   /mnt/logs  auto
$d/exfat.img    /mnt/usb
tmpfs           /tmp       tmpfs defaults
$d/none.img     none       swap  sw
EOF
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$d/all.fstab" --mode enforcing --json
load_json "$OUT"
assert_eq "policy_source" host "$(json_get policy_source)"
assert_eq "mounts (swap skipped)" 9 "$(json_get n_mounts)"
for pair in /:ext4 /boot/efi:vfat /home:xfs /var:btrfs /srv:f2fs /mnt/old:reiserfs \
        /mnt/logs:nilfs2 /mnt/usb:exfat /tmp:tmpfs; do
        assert_eq "${pair%%:*} probed type" "${pair#*:}" "$(mount_field "${pair%%:*}" fstype)"
done
assert_mount / xattr ok null
assert_mount /home xattr ok null
assert_mount /var xattr ok null
assert_mount /srv xattr ok null
assert_mount /boot/efi genfs ok system_u:object_r:dosfs_t:s0
assert_mount /tmp trans ok null
assert_mount /mnt/old genfs ok system_u:object_r:nfs_t:s0
assert_mount /mnt/logs none warn system_u:object_r:unlabeled_t:s0
assert_mount /mnt/usb none warn system_u:object_r:unlabeled_t:s0
assert_eq "planned mounts are not probed" not-run "$(mount_field / probe)"
assert_eq "plan line of /home" 4 "$(mount_field /home plan_line)"

echo "== the seed: ReiserFS / is refused in enforcing"
cat >"$d/seed.fstab" <<EOF
$d/reiserfs.img /          auto  defaults  0 1
$d/vfat.img     /boot/efi  auto  umask=0077 0 2
$d/xfs.img      /home      auto  defaults  0 2
EOF
expect_exit 1 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --mode enforcing --json
load_json "$OUT"
assert_eq "verdict" refuse "$(json_get verdict)"
assert_mount / genfs refuse system_u:object_r:nfs_t:s0
assert_mount /boot/efi genfs ok system_u:object_r:dosfs_t:s0
assert_mount /home xattr ok
reason=$(mount_field / reason)
fix=$(mount_field / fix)
assert_contains "reason names the device" "$reason" "$d/reiserfs.img on / is reiserfs"
assert_contains "reason names the statement" "$reason" "nfs_t:s0 (genfscon)"
assert_contains "fix says what to choose" "$fix" "format $d/reiserfs.img for / as ext4, xfs or btrfs instead of reiserfs"

echo "== the seed in human form"
expect_exit 1 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --mode enforcing
assert_contains "table row" "$OUT" "genfs     system_u:object_r:nfs_t:s0"
assert_contains "refusal" "$OUT" "refuse /: $d/reiserfs.img on / is reiserfs"

echo "== permissive: a warning; disabled: a note"
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --mode permissive --json
load_json "$OUT"
assert_mount / genfs warn
assert_contains "permissive reason" "$(mount_field / reason)" "can never be made enforcing"
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --mode disabled --json
load_json "$OUT"
assert_mount / genfs note
assert_eq "verdict" note "$(json_get verdict)"

echo "== seinstall.unsupported=warn: accepted, mode lowered to permissive, and it says so"
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --mode enforcing \
        --unsupported warn --json
load_json "$OUT"
assert_eq "mode" permissive "$(json_get mode)"
assert_eq "requested_mode" enforcing "$(json_get requested_mode)"
assert_eq "mode_lowered" true "$(json_get mode_lowered)"
assert_mount / genfs warn
assert_contains "says so" "$(mount_field / reason)" "seinstall.unsupported=warn accepts it and lowers the mode from enforcing to permissive"
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --unsupported warn
assert_contains "human output says so" "$OUT" "lowered from enforcing by seinstall.unsupported=warn"

echo "== nilfs2 and exfat as system mounts: none, refused"
cat >"$d/unnamed.fstab" <<EOF
$d/ext4.img   /      ext4
$d/nilfs2.img /home  auto
$d/exfat.img  /var   auto
EOF
expect_exit 1 "$SEINSTALL" check --root "$t" --plan "$d/unnamed.fstab" --json
load_json "$OUT"
assert_mount /home none refuse system_u:object_r:unlabeled_t:s0
assert_mount /var none refuse system_u:object_r:unlabeled_t:s0
assert_contains "reason" "$(mount_field /home reason)" "does not name nilfs2"

echo "== mount-option contexts"
cat >"$d/ctx.fstab" <<EOF
$d/ext4.img  /          ext4  defaults,fscontext=system_u:object_r:fs_t:s0,rootcontext=system_u:object_r:root_t:s0
$d/vfat.img  /boot/efi  vfat  umask=0077,context=system_u:object_r:dosfs_t:s0
$d/xfs.img   /home      xfs   context="system_u:object_r:user_home_t:s0"
$d/exfat.img /mnt/usb   exfat context=system_u:object_r:removable_t:s0
$d/btrfs.img /mnt/data  btrfs context=system_u:object_r:no_such_t:s0
$d/f2fs.img  /srv       f2fs  defcontext=system_u:object_r:var_t:s0
$d/reiserfs.img /mnt/old auto defcontext=system_u:object_r:var_t:s0
EOF
expect_exit 1 "$SEINSTALL" check --root "$t" --plan "$d/ctx.fstab" --json
load_json "$OUT"
assert_mount / xattr ok
assert_mount /boot/efi mount-context ok system_u:object_r:dosfs_t:s0
assert_mount /home mount-context refuse system_u:object_r:user_home_t:s0
assert_mount /mnt/usb mount-context ok system_u:object_r:removable_t:s0
assert_mount /mnt/data none warn system_u:object_r:no_such_t:s0
assert_contains "/home fix" "$(mount_field /home fix)" "remove context=system_u:object_r:user_home_t:s0"
assert_contains "/mnt/data reason" "$(mount_field /mnt/data reason)" "does not define"
assert_mount /srv xattr ok
assert_mount /mnt/old none warn system_u:object_r:unlabeled_t:s0
assert_contains "/mnt/old reason" "$(mount_field /mnt/old reason)" "defcontext= is only valid"

echo "== no policy anywhere for the type: exit 3 with what to do"
expect_exit 3 "$SEINSTALL" check --root "$t" --plan "$d/seed.fstab" --policy no-such-policy
assert_contains "message" "$ERR" "No SELinux policy of type 'no-such-policy'"
echo "PASS"
