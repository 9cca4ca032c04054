#!/bin/bash
# seinstall install on loop-mounted ext4 targets: a whole unattended install from a profile
# (policy, relabel, configure), a refusal that changes nothing, a policy built from the
# installed modules, and the relabel deferred to first boot.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop

d=$(scratch_dir)
snapshot() { (cd "$1" && find . -xdev \( -type f -o -type d -o -type l \) -printf '%p %m %s %T@\n' | sort); }
py_check() {
        command -v python3 >/dev/null || return 0
        echo "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); $1" || fail "$2: $OUT"
        echo "ok: $2"
}

# 1. the whole install from a profile
make_fs_image "$d/a.img" ext4 128
mount_image "$d/a.img" "$d/a"
make_target "$d/a"
cat >"$d/server.ks" <<'KS'
selinux --enforcing
%addon org_seinstall --policy=default --unsupported=refuse --relabel=install
%end
KS
expect_exit 0 "$SEINSTALL" install --root "$d/a" --profile "$d/server.ks" --no-cmdline
echo "$OUT"
assert_contains "summary" "$OUT" "Installed: SELinux enforcing (from profile), policy default."
assert_contains "/usr/bin/true label" "$(label_of "$d/a/usr/bin/true")" ":bin_t:"
assert_contains "/etc/default/grub label" "$(label_of "$d/a/etc/default/grub")" ":etc_t:"
assert_eq "SELINUX=" "SELINUX=enforcing" "$(grep '^SELINUX=' "$d/a/etc/selinux/config")"
assert_eq "GRUB_CMDLINE_LINUX" 'GRUB_CMDLINE_LINUX="security=selinux"' \
        "$(grep '^GRUB_CMDLINE_LINUX=' "$d/a/etc/default/grub")"
[ ! -e "$d/a/.autorelabel" ] || fail "relabeled during the install, yet .autorelabel was written"
assert_contains "first-boot mark" "$(cat "$d/a/var/lib/seinstall/firstboot")" "relabel=done"
# a second install changes no file content and succeeds
expect_exit 0 "$SEINSTALL" install --root "$d/a" --profile "$d/server.ks" --no-cmdline --json
py_check 'assert d["refused"] is False and d["mode"] == "enforcing" and d["configure"]["changes"] == [], d["configure"]; assert d["relabel"]["changed"] == 0, d["relabel"]' \
        "second install: JSON, nothing to change"
py_check 'assert d["verify"]["mismatches"] == 0 and d["verify"]["fixed"] == 0 and d["verify"]["clean"] is True, d["verify"]' \
        "second install: JSON carries the last stage, verify, clean"

# 2. refused: /home on tmpfs cannot keep labels; nothing in the target changes
make_fs_image "$d/b.img" ext4 64
mount_image "$d/b.img" "$d/b"
make_target "$d/b"
mount -t tmpfs -o size=1m tmpfs "$d/b/home" || fail "mount tmpfs"
on_exit "umount -l '$d/b/home'"
before=$(snapshot "$d/b")
expect_exit 1 "$SEINSTALL" install --root "$d/b" --profile "$d/server.ks" --no-cmdline
echo "$OUT"
assert_contains "refusal names the mount" "$OUT" "refuse /home"
assert_eq "target after a refusal" "$before" "$(snapshot "$d/b")"
[ -z "$(label_of "$d/b/usr/bin/true")" ] || fail "a refused install labeled files"
expect_exit 1 "$SEINSTALL" install --root "$d/b" --profile "$d/server.ks" --no-cmdline --json
py_check 'assert d["refused"] is True and d["configure"] is None and d["check"]["verdict"] == "refuse"' \
        "refusal in JSON"

# 3. boot option unsupported=warn: lowered to permissive, installed, says so
printf 'BOOT_IMAGE=/vmlinuz seinstall.unsupported=warn\n' >"$d/warn.cmdline"
expect_exit 0 "$SEINSTALL" install --root "$d/b" --profile "$d/server.ks" --cmdline "$d/warn.cmdline"
assert_contains "lowered" "$OUT" "mode lowered to permissive"
assert_eq "SELINUX= when lowered" "SELINUX=permissive" "$(grep '^SELINUX=' "$d/b/etc/selinux/config")"

# 4. relabel at first boot, and a policy built from the installed modules
make_fs_image "$d/c.img" ext4 160
mount_image "$d/c.img" "$d/c"
make_target "$d/c"
if [ -d /var/lib/selinux/default/active/modules ]; then
        rm -rf "$d/c/etc/selinux/default/policy"
        mkdir -p "$d/c/var/lib/selinux"
        cp -a /var/lib/selinux/default "$d/c/var/lib/selinux/"
        built=1
fi
printf 'selinux --enforcing\n%%addon org_seinstall --relabel=firstboot\n%%end\n' >"$d/later.ks"
expect_exit 0 "$SEINSTALL" install --root "$d/c" --profile "$d/later.ks" --no-cmdline --json
py_check 'assert d["relabel"] is None and d["relabel_error"] and d["configure"]["config_mode"] == "permissive" and d["configure"]["relabel_scheduled"] is True' \
        "relabel deferred: permissive until then"
assert_eq ".autorelabel" "-F" "$(cat "$d/c/.autorelabel")"
assert_contains "first-boot mark" "$(cat "$d/c/var/lib/seinstall/firstboot")" "mode=enforcing"
if [ -n "${built:-}" ]; then
        py_check 'assert d["policy_built"] is True' "policy built from the modules"
        compgen -G "$d/c/etc/selinux/default/policy/policy.[0-9]*" >/dev/null || fail "no policy.N built"
fi

# 5. no policy and no modules: exit 3 naming the package
make_fs_image "$d/e.img" ext4 64
mount_image "$d/e.img" "$d/e"
make_target "$d/e"
rm -rf "$d/e/etc/selinux/default"
expect_exit 3 "$SEINSTALL" install --root "$d/e" --profile "$d/server.ks" --no-cmdline
assert_contains "missing policy" "$ERR" "selinux-policy-default"
