#!/bin/bash
# Anaconda adapter: the %pre script turns a kickstart's storage commands into a planned layout
# and refuses the seed's ReiserFS root with the reason on its output (what Anaconda shows with
# --erroronfail); the %post --nochroot script runs install on a loop-mounted ext4 target found
# through ANA_INSTALL_PATH. Anaconda is faked (its paths and variables); seinstall is real.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

a=$TOP/installer-plugin/adapters/anaconda
shellcheck -s sh "$a/seinstall-pre" "$a/seinstall-post" || fail "shellcheck found problems"
echo "ok: shellcheck passes on seinstall-pre and seinstall-post"
# The snippet runs both with the options that make Anaconda stop and show the output.
assert_contains "seinstall.ks" "$(cat "$a/seinstall.ks")" "%pre --erroronfail"
assert_contains "seinstall.ks" "$(cat "$a/seinstall.ks")" "%post --nochroot --erroronfail"

export PATH=$TOP/installer-plugin/cli:$PATH
d=$(scratch_dir)
export TMPDIR=$d

# The kickstart's layout becomes the plan: part/logvol with --fstype=T or --fstype T, quoted
# types, Anaconda's "efi", CRLF line ends; swap, PVs and storage lines inside sections are not
# mounts seinstall checks.
write_ks() { # FILE ROOT_FSTYPE [EXTRA_LINE...]
        local f=$1 fs=$2
        shift 2
        {
                echo "# test kickstart"
                echo "lang en_US.UTF-8"
                printf 'part /boot/efi --fstype="efi" --size=200\r\n'
                echo "part / --fstype=$fs --size=4000 --onpart=$d/root.img"
                echo "part swap --fstype=swap --size=512"
                echo "part pv.01 --size=1 --grow"
                echo "logvol /home --vgname=vg --name=home --fstype xfs --size=1000"
                echo "%pre"
                echo "part /bogus --fstype=vfat"
                echo "%end"
                printf '%s\n' "$@"
        } >"$f"
}
write_ks "$d/good.ks" ext4
out=$(sh "$a/seinstall-pre" "$d/good.ks" 2>&1)
assert_contains "planned layout" "$out" "planned /boot/efi vfat defaults"
assert_contains "planned layout" "$out" "$d/root.img / ext4 defaults"
assert_contains "planned layout" "$out" "planned /home xfs defaults"
case $out in *swap* | *bogus* | *pv.01*) fail "the plan holds more than mounts: $out" ;; esac
echo "ok: the kickstart's storage commands become the planned layout"
expect_exit 1 sh "$a/seinstall-pre" "$d/nonexistent.ks"
assert_contains "missing kickstart" "$ERR" "cannot read the kickstart"

require_command profile
require_command check
require_loop
make_fs_image "$d/root.img" ext4 64
make_fs_image "$d/reiser.img" reiserfs 64

# A good layout passes.
expect_exit 0 sh "$a/seinstall-pre" "$d/good.ks"
echo "$OUT"

# The seed's mistake is refused; the output (which Anaconda shows) says why and what to do.
write_ks "$d/seed.ks" reiserfs "selinux --enforcing"
sed -i "s|$d/root.img|$d/reiser.img|" "$d/seed.ks"
expect_exit 1 sh "$a/seinstall-pre" "$d/seed.ks"
assert_contains "refusal shown by Anaconda" "$OUT$ERR" "reiserfs"
assert_contains "refusal shown by Anaconda" "$OUT$ERR" "nfs_t"

# The profile's --unsupported=warn lets it go on.
write_ks "$d/warn.ks" reiserfs "selinux --enforcing" "%addon org_seinstall --unsupported=warn" "%end"
sed -i "s|$d/root.img|$d/reiser.img|" "$d/warn.ks"
expect_exit 0 sh "$a/seinstall-pre" "$d/warn.ks"
assert_contains "warn profile" "$OUT$ERR" "permissive"

# %post --nochroot: install on the mounted target, settings from the kickstart.
require_command install
mount_image "$d/root.img" "$d/sysroot"
make_target "$d/sysroot"
write_ks "$d/post.ks" ext4 "selinux --permissive"
ANA_INSTALL_PATH=$d/sysroot expect_exit 0 sh "$a/seinstall-post" "$d/post.ks"
config=$(cat "$d/sysroot/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the target"
assert_contains "target config" "$config" "SELINUX=permissive"
assert_contains "target /etc/hostname label" "$(label_of "$d/sysroot/etc/hostname")" ":net_conf_t:"
ANA_INSTALL_PATH=$d/nowhere expect_exit 1 sh "$a/seinstall-post" "$d/post.ks"
assert_contains "no target" "$ERR" "ANA_INSTALL_PATH"
