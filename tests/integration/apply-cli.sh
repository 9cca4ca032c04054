#!/bin/bash
# seinstall apply and status through the command line, on a Debian-like target directory:
# exit status of the contract, JSON on stdout only, idempotence, and what lands in the files.
. "$(dirname "$0")/../lib.sh"

T=$(scratch_dir)
mkdir -p "$T/boot" "$T/etc/default" "$T/etc/selinux/default/policy"
printf 'CONFIG_SECURITY_SELINUX=y\nCONFIG_LSM="landlock,lockdown,yama,apparmor,selinux"\n' \
        >"$T/boot/config-6.1.0-13-amd64"
printf '# GRUB\nGRUB_CMDLINE_LINUX_DEFAULT="quiet enforcing=0"\nGRUB_CMDLINE_LINUX="console=ttyS0,115200n8"\n' \
        >"$T/etc/default/grub"

# usage errors are exit 2
expect_exit 2 "$SEINSTALL" apply --root "$T"
expect_exit 2 "$SEINSTALL" apply --root "$T" --mode enforce
expect_exit 2 "$SEINSTALL" apply --root "$T" --mode enforcing --bootloader lilo
expect_exit 2 "$SEINSTALL" apply --root "$T/nonexistent" --mode enforcing
# no built policy: exit 3 naming the package, nothing written
expect_exit 3 "$SEINSTALL" apply --root "$T" --mode enforcing
assert_contains "missing policy message" "$ERR" "selinux-policy-default"
[ ! -e "$T/etc/selinux/config" ] || fail "config written although apply failed"

: >"$T/etc/selinux/default/policy/policy.33"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --firstboot --json
if command -v python3 >/dev/null; then
        echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["config_mode"]=="permissive", d; assert d["relabel_scheduled"] is True; assert [c["file"] for c in d["changes"]][-1]=="/etc/selinux/config"' ||
                fail "apply --json: unexpected document: $OUT"
        echo "ok: apply --json is one JSON document with the config written last"
fi
assert_eq "GRUB_CMDLINE_LINUX" 'GRUB_CMDLINE_LINUX="console=ttyS0,115200n8 security=selinux"' \
        "$(grep '^GRUB_CMDLINE_LINUX=' "$T/etc/default/grub")"
# permissive until relabeled: enforcing=0 may stay until then
assert_eq "GRUB_CMDLINE_LINUX_DEFAULT while permissive" \
        'GRUB_CMDLINE_LINUX_DEFAULT="quiet enforcing=0"' "$(grep '^GRUB_CMDLINE_LINUX_DEFAULT=' "$T/etc/default/grub")"
assert_eq ".autorelabel" "-F" "$(cat "$T/.autorelabel")"
assert_eq "SELINUX= while the relabel is pending" "SELINUX=permissive" \
        "$(grep '^SELINUX=' "$T/etc/selinux/config")"

# a second run changes nothing
before=$(cd "$T" && find . -type f -exec md5sum {} + | sort)
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --firstboot
assert_contains "second run" "$OUT" "nothing to change"
after=$(cd "$T" && find . -type f -exec md5sum {} + | sort)
assert_eq "files after a second run" "$before" "$after"

expect_exit 0 "$SEINSTALL" status --root "$T" --json
if command -v python3 >/dev/null; then
        echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["boot_mode"]=="permissive" and d["relabel_pending"] and d["firstboot_mode"]=="enforcing" and d["kernel"]=="opt-in" and d["kernel_args"]["security"]=="selinux", d' ||
                fail "status --json: $OUT"
        echo "ok: status --json"
fi
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status text" "$OUT" "relabel pending: yes"

# after the relabel: enforcing for real
rm "$T/.autorelabel"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing
assert_eq "SELINUX= after the relabel" "SELINUX=enforcing" "$(grep '^SELINUX=' "$T/etc/selinux/config")"
assert_eq "GRUB_CMDLINE_LINUX_DEFAULT (enforcing=0 removed for enforcing)" \
        'GRUB_CMDLINE_LINUX_DEFAULT="quiet"' "$(grep '^GRUB_CMDLINE_LINUX_DEFAULT=' "$T/etc/default/grub")"
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status text" "$OUT" "boots in:        enforcing"

# disabled on this kernel: remove security=selinux, add nothing
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode disabled
assert_eq "GRUB_CMDLINE_LINUX when disabled" 'GRUB_CMDLINE_LINUX="console=ttyS0,115200n8"' \
        "$(grep '^GRUB_CMDLINE_LINUX=' "$T/etc/default/grub")"
assert_contains "todo names update-grub" "$OUT" "update-grub"

# --regenerate runs the distribution's command inside the target (chroot), its output kept off
# stdout; a failing one is exit 3 with what to do. Needs root (chroot) and a static shell.
[ "$(id -u)" = 0 ] || skip "needs root for chroot (--regenerate)"
require_static_busybox "to run update-grub in the target"
mkdir -p "$T/bin" "$T/usr/sbin" "$T/boot/grub"
cp /bin/busybox "$T/bin/busybox"
printf '#!/bin/busybox sh\n/bin/busybox echo "update-grub ran"\n/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg\n' \
        >"$T/usr/sbin/update-grub"
chmod +x "$T/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode permissive --regenerate --json
assert_contains "update-grub's output goes to stderr" "$ERR" "update-grub ran"
assert_eq "grub.cfg written inside the target" 'GRUB_CMDLINE_LINUX="console=ttyS0,115200n8 security=selinux"' \
        "$(cat "$T/boot/grub/grub.cfg")"
if command -v python3 >/dev/null; then
        echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert any(c["file"] == "/boot/grub/grub.cfg" for c in d["changes"]) and d["todo"] == [], d' ||
                fail "apply --regenerate --json: $OUT"
        echo "ok: stdout is only the JSON document, grub.cfg reported"
fi
printf '#!/bin/busybox sh\nexit 4\n' >"$T/usr/sbin/update-grub"
expect_exit 3 "$SEINSTALL" apply --root "$T" --mode disabled --regenerate
assert_contains "failed regeneration" "$ERR" "update-grub failed"
assert_contains "failed regeneration: put back" "$ERR" "Nothing was changed"
assert_contains "GRUB's defaults as before the failed apply" "$(cat "$T/etc/default/grub")" \
        "security=selinux"

# GRUB's defaults without GRUB installed (grub2-common, no /boot/grub: a system booted some
# other way, as the first-boot screen meets it): nothing reads grub.cfg, so --regenerate runs
# nothing, the rest of the change is made and the todo says why.
rm -rf "$T/boot/grub"
sed -i 's/ *security=selinux//' "$T/etc/default/grub"
printf '#!/bin/busybox sh\n/bin/busybox touch /update-grub-ran\nexit 2\n' >"$T/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --regenerate
[ ! -e "$T/update-grub-ran" ] || fail "update-grub ran without /boot/grub"
assert_contains "todo: GRUB not installed" "$OUT" "GRUB is not installed"
# from disabled: permissive until the relabel ran (the first-boot case the e2e test boots)
assert_eq "config written" "SELINUX=permissive" "$(grep '^SELINUX=' "$T/etc/selinux/config")"
