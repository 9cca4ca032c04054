#!/bin/bash
# install --dry-run previews a target whose policy is still to be built (modules installed,
# no policy.N, no file contexts: a fresh target) as the real install handles it: exit 0, says
# the build and the relabel after it, writes nothing; and a target with neither policy nor
# modules fails the preview as it fails the install (issue 34, item 2).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
[ -d /var/lib/selinux/default/active/modules ] || skip "the host has no policy modules in /var/lib/selinux/default (selinux-policy-default)"

d=$(scratch_dir)
snapshot() { (cd "$1" && find . -xdev \( -type f -o -type d -o -type l \) -printf '%p %m %s %T@\n' | sort); }
make_fs_image "$d/c.img" ext4 160
mount_image "$d/c.img" "$d/c"
make_target "$d/c"
rm -rf "$d/c/etc/selinux/default/policy" "$d/c/etc/selinux/default/contexts/files"
mkdir -p "$d/c/var/lib/selinux"
cp -a /var/lib/selinux/default "$d/c/var/lib/selinux/"
before=$(snapshot "$d/c")
expect_exit 0 "$SEINSTALL" install --root "$d/c" --mode enforcing --no-cmdline --dry-run
assert_contains "the build previewed" "$OUT" "policy:    default would be built from the modules installed in /var/lib/selinux"
assert_contains "the relabel after it" "$OUT" "relabel:   after the policy build"
assert_contains "configure previewed" "$OUT" "would change /etc/selinux/config"
assert_contains "dry run" "$OUT" "Dry run: nothing in the target was changed."
assert_eq "files after install --dry-run" "$before" "$(snapshot "$d/c")"
expect_exit 0 "$SEINSTALL" install --root "$d/c" --mode enforcing --no-cmdline --dry-run --json
json_assert <(echo "$OUT") -- 'd["policy_built"] is True' 'd["dry_run"] is True' \
        'd["configure"]["config_mode"] == "enforcing"' || fail "install --dry-run --json: $OUT"
echo "ok: install --dry-run --json: the policy would be built, enforcing configured"

# the real install does what the preview said
expect_exit 0 "$SEINSTALL" install --root "$d/c" --mode enforcing --no-cmdline
assert_contains "built" "$OUT" "built from the installed modules"
assert_eq "SELINUX=" "SELINUX=enforcing" "$(grep '^SELINUX=' "$d/c/etc/selinux/config")"

# neither policy nor modules: the preview fails as the install does
rm -rf "$d/c/etc/selinux/default/policy" "$d/c/var/lib/selinux/default"
expect_exit 3 "$SEINSTALL" install --root "$d/c" --mode enforcing --no-cmdline --dry-run
assert_contains "missing policy" "$ERR" "selinux-policy-default"
