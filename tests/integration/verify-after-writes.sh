#!/bin/bash
# Every command that writes into a labeled target leaves it labeled: after each one (apply in
# every mode and with each of its flags, install, trial, the first-boot screen's --mode M --yes,
# verify --fix) `seinstall verify --root` exits 0. On a loop-mounted ext4 with Debian's policy,
# relabeled once; then each command runs and verify must find nothing, and the files the
# commands created carry the label Debian's file contexts give them (read back with getfattr).
# verify is shown to fail on a file written unlabeled, and a target without file contexts is
# written unlabeled.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
command -v getfattr >/dev/null || skip "getfattr (attr) is not installed"
FIRSTBOOT=$(dirname "$SEINSTALL")/seinstall-firstboot
[ -x "$FIRSTBOOT" ] || skip "seinstall-firstboot is not built"

d=$(scratch_dir)
make_fs_image "$d/t.img" ext4 128
T=$d/t
mount_image "$d/t.img" "$T"
make_target "$T"
# The trial unit installed, as the package installs it (apply --mode trial links it).
mkdir -p "$T/lib/systemd/system" "$T/etc/systemd/system"
: >"$T/lib/systemd/system/seinstall-trial.service"

verify_clean() { # WHAT
        expect_exit 0 "$SEINSTALL" verify --root "$T" --no-progress
        echo "ok: verify is clean after $1"
}
# has_label PATH: PATH (in the target, never followed) carries a label; it is left in $LABEL.
has_label() {
        local l
        l=$(getfattr -h --absolute-names --only-values -n security.selinux "$T$1" 2>/dev/null |
                tr -d '\0')
        [ -n "$l" ] || fail "$1 has no label"
        echo "ok: $1 is labeled $l"
        LABEL=$l
}

expect_exit 0 "$SEINSTALL" relabel --root "$T" --no-progress
verify_clean "relabel"

# apply in every mode, with each flag it has; each run starts from what the last one left.
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --labeled --firstboot
assert_contains "apply wrote the mark" "$OUT" "/var/lib/seinstall/firstboot"
verify_clean "apply --mode enforcing --labeled --firstboot"
has_label /var/lib/seinstall
assert_eq "label of /var/lib/seinstall" "system_u:object_r:var_lib_t:s0" "$LABEL"
has_label /var/lib/seinstall/firstboot
has_label /etc/selinux/config
assert_eq "label of the config" "system_u:object_r:selinux_config_t:s0" "$LABEL"

expect_exit 0 "$SEINSTALL" apply --root "$T" --mode trial --labeled --firstboot
assert_contains "apply linked the trial unit" "$OUT" "multi-user.target.wants/seinstall-trial.service"
verify_clean "apply --mode trial --labeled --firstboot"
has_label /etc/systemd/system/multi-user.target.wants
has_label /etc/systemd/system/multi-user.target.wants/seinstall-trial.service
assert_eq "label of the unit link" "system_u:object_r:systemd_unit_t:s0" "$LABEL"
has_label /var/lib/seinstall/trial

expect_exit 0 "$SEINSTALL" apply --root "$T" --mode permissive --relabel
has_label /.autorelabel
verify_clean "apply --mode permissive --relabel"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode disabled --bootloader none
verify_clean "apply --mode disabled --bootloader none"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --policy default --json
verify_clean "apply --mode enforcing --policy default --json"
rm -f "$T/.autorelabel"

# --regenerate: a grub.cfg written by the target's own update-grub is labeled afterwards.
if [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; then
        mkdir -p "$T/bin" "$T/boot/grub"
        cp /bin/busybox "$T/bin/busybox"
        printf '%s\n' '#!/bin/busybox sh' \
                '/bin/busybox grep "^GRUB_CMDLINE_LINUX" /etc/default/grub >/boot/grub/grub.cfg.new' \
                '/bin/busybox mv /boot/grub/grub.cfg.new /boot/grub/grub.cfg' >"$T/usr/sbin/update-grub"
        chmod +x "$T/usr/sbin/update-grub"
        # GRUB's defaults without SELinux, so that apply changes them and regenerates
        sed -i 's/ *security=selinux//' "$T/etc/default/grub"
        expect_exit 0 "$SEINSTALL" relabel --root "$T" --no-progress
        expect_exit 0 "$SEINSTALL" apply --root "$T" --mode permissive --labeled --regenerate
        assert_contains "apply regenerated grub.cfg" "$OUT" "/boot/grub/grub.cfg"
        has_label /boot/grub/grub.cfg
        assert_eq "label of grub.cfg" "system_u:object_r:boot_t:s0" "$LABEL"
        verify_clean "apply --regenerate"
else
        echo "note: no static busybox: apply --regenerate not covered here"
fi

# The first-boot screen's non-interactive choice.
rm -rf "$T/var/lib/seinstall"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --labeled --firstboot
for m in permissive trial enforcing; do
        expect_exit 0 "$FIRSTBOOT" --root "$T" --mode "$m" --yes
        verify_clean "seinstall-firstboot --mode $m --yes"
done

# install, and trial on what it left.
rm -rf "$T/var/lib/seinstall" "$T/etc/systemd/system/multi-user.target.wants"
expect_exit 0 "$SEINSTALL" install --root "$T" --no-cmdline --mode trial --no-progress
verify_clean "install --mode trial"
has_label /var/lib/seinstall/trial
: >"$d/empty.log"
expect_exit 0 "$SEINSTALL" trial --root "$T" --log "$d/empty.log" --no-setenforce
verify_clean "trial"

# verify --fix, and what verify would have said without the labels: a file written unlabeled
# is found (verify can fail), and --fix leaves the target clean.
: >"$T/etc/unlabeled-by-test"
expect_exit 1 "$SEINSTALL" verify --root "$T" --no-progress
assert_contains "verify names the unlabeled file" "$OUT" "/etc/unlabeled-by-test"
expect_exit 0 "$SEINSTALL" verify --root "$T" --fix --no-progress
verify_clean "verify --fix"

# A target without file contexts (no policy yet) is written unlabeled, and apply still works.
U=$d/u
mkdir -p "$U/boot" "$U/etc/default" "$U/etc/selinux/default/policy"
cp "$T/boot/config-6.1.0-test-amd64" "$U/boot/"
: >"$U/etc/selinux/default/policy/policy.33"
expect_exit 0 "$SEINSTALL" apply --root "$U" --mode permissive --firstboot
[ -z "$(getfattr -h --absolute-names --only-values -n security.selinux "$U/var/lib/seinstall/firstboot" 2>/dev/null)" ] ||
        fail "a target without file contexts got a label"
echo "ok: without file contexts the files are written unlabeled"
echo "ok: verify-after-writes"
