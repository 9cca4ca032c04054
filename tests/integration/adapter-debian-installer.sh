#!/bin/bash
# debian-installer adapter: the partman check.d hook refuses the seed's ReiserFS root with the
# reason in a debconf dialog and passes a good layout; the finish-install.d hook runs install
# on a loop-mounted ext4 /target. The installer is faked (a fake root with partman's fstab.d
# scripts and a recording debconf confmodule); seinstall is the real one.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

a=$TOP/installer-plugin/adapters/debian-installer
check_hook=$a/partman/check.d/60seinstall
finish_hook=$a/finish-install.d/95seinstall
shellcheck -s sh "$check_hook" "$finish_hook" || fail "shellcheck found problems in the d-i hooks"
echo "ok: shellcheck passes on both hooks"
# The templates the hooks show exist, each with a type and a description using REASON.
for t in seinstall/refused seinstall/failed; do
        grep -q "^Template: $t\$" "$a/templates" || fail "templates: $t missing"
        awk -v t="$t" '$0 == "Template: " t {f = 1; next} /^Template:/ {f = 0} f' "$a/templates" |
                grep -q 'REASON' || fail "templates: $t does not show \${REASON}"
done
echo "ok: templates seinstall/refused and seinstall/failed show the reason"

require_loop
export PATH=$TOP/installer-plugin/cli:$PATH
d=$(scratch_dir)
di=$d/di
mkdir -p "$di/lib/partman/fstab.d"
fake_debconf "$di"
export SEINSTALL_DI_ROOT=$di

# partman's fstab.d scripts print the planned fstab: images made by mkfs stand for partitions.
plan_fstab() { # ROOT_IMAGE ROOT_TYPE
        cat >"$di/lib/partman/fstab.d/basic" <<EOF
#!/bin/sh
echo "$1 / $2 defaults 0 1"
echo "$d/efi.img /boot/efi vfat umask=0077 0 1"
echo "/dev/sda3 none swap sw 0 0"
EOF
        chmod +x "$di/lib/partman/fstab.d/basic"
}
make_fs_image "$d/efi.img" vfat 32
make_fs_image "$d/root.img" ext4 64
make_fs_image "$d/reiser.img" reiserfs 64

require_command check

# A good layout: ext4 root, vfat ESP. The hook passes and shows nothing.
plan_fstab "$d/root.img" ext4
: >"$di/debconf.log"
expect_exit 0 sh "$check_hook"
assert_contains "check hook log" "$ERR" "/boot/efi"
if grep -q '^INPUT' "$di/debconf.log"; then
        fail "the hook showed a dialog for a good layout: $(cat "$di/debconf.log")"
fi
echo "ok: a good layout passes without a dialog"

# The seed's mistake: ReiserFS root. Back to the menu, with the reason in the dialog.
plan_fstab "$d/reiser.img" reiserfs
: >"$di/debconf.log"
expect_exit 1 sh "$check_hook"
log=$(cat "$di/debconf.log")
assert_contains "debconf calls" "$log" "INPUT critical seinstall/refused"
reason=$(grep '^SUBST seinstall/refused REASON' "$di/debconf.log")
assert_contains "the refusal's reason" "$reason" "reiserfs"
assert_contains "the refusal's reason" "$reason" "nfs_t"
# debconf's protocol is one line per command: the reason's newlines must arrive escaped.
if grep -Ev '^(CAPB|SUBST|INPUT|GO|GET)( |$)' "$di/debconf.log"; then
        fail "a debconf command spans lines (unescaped newline in the reason)"
fi
echo "ok: the seed's ReiserFS root is refused with the reason shown"

# Booted with seinstall.unsupported=warn, the installer lets the same plan through: the hook
# takes the boot options (a private mount namespace shows it a fake /proc/cmdline).
echo "BOOT_IMAGE=/install.amd/vmlinuz priority=low seinstall.unsupported=warn" >"$d/cmdline"
: >"$di/debconf.log"
# shellcheck disable=SC2016 # $1 and $@ are the inner shell's
expect_exit 0 unshare -m --propagation private bash -c 'mount --bind "$1" /proc/cmdline && shift && exec "$@"' \
        _ "$d/cmdline" sh "$check_hook"
assert_contains "check under seinstall.unsupported=warn" "$ERR" "permissive"
if grep -q '^INPUT' "$di/debconf.log"; then
        fail "the hook showed a dialog for an allowed layout: $(cat "$di/debconf.log")"
fi

# finish-install: install on a loop-mounted ext4 /target.
require_command install
mount_image "$d/root.img" "$di/target"
make_target "$di/target"
: >"$di/debconf.log"
expect_exit 0 sh "$finish_hook"
config=$(cat "$di/target/etc/selinux/config" 2>/dev/null) || fail "no /target/etc/selinux/config"
assert_contains "target config" "$config" "SELINUXTYPE=default"
assert_contains "target config" "$config" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$di/target/etc/hostname")" ":net_conf_t:"
assert_contains "target GRUB defaults" "$(cat "$di/target/etc/default/grub")" "security=selinux"
if grep -q '^INPUT' "$di/debconf.log"; then
        fail "finish hook showed a dialog on success: $(cat "$di/debconf.log")"
fi

# An install that must be refused: /home on tmpfs. The hook shows why; nothing changes.
rm -f "$di/target/etc/selinux/config"
mount -t tmpfs tmpfs "$di/target/home" || fail "mount tmpfs on /target/home"
on_exit "umount -l '$di/target/home'"
: >"$di/debconf.log"
expect_exit 1 sh "$finish_hook"
assert_contains "debconf calls" "$(cat "$di/debconf.log")" "INPUT critical seinstall/refused"
assert_contains "the refusal's reason" "$(grep '^SUBST' "$di/debconf.log")" "/home"
[ ! -e "$di/target/etc/selinux/config" ] || fail "a refused install wrote the target's config"
echo "ok: a refused install shows the reason and leaves the config alone"
