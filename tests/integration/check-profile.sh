#!/bin/bash
# check --profile KS: the kickstart's mode and unsupported policy and the layout it plans, in one
# command; and --plan - for a pipe (issue 34, item 3). The seed's mistake, selinux --enforcing
# with a ReiserFS root, must be refused whatever the target's or the host's config says.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

d=$(scratch_dir)
mkdir -p "$d/root/etc/selinux"
# the target says permissive: the kickstart's enforcing must still decide
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$d/root/etc/selinux/config"
cat >"$d/seed.ks" <<'KS'
selinux --enforcing
part /boot --fstype=ext4 --size=500
part / --fstype=reiserfs --size=4000
KS
expect_exit 1 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --no-cmdline
assert_contains "the kickstart's mode" "$OUT" "Mode:   enforcing (profile)"
assert_contains "the ReiserFS root refused" "$OUT" "refuse /: planned on / is reiserfs"
assert_contains "verdict" "$OUT" "Refused:"
expect_exit 1 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --no-cmdline --json
json_assert <(echo "$OUT") "KS=$d/seed.ks" -- 'd["verdict"] == "refuse"' 'd["mode_source"] == "profile"' \
        'd["plan"] == KS.decode()' '[m["fstype"] for m in d["mounts"]] == ["ext4", "reiserfs"]' ||
        fail "check --profile --json: $OUT"
echo "ok: check --profile --json: refused, mode from the profile"

# the kickstart's --unsupported=warn lowers the mode, and says so
printf 'selinux --enforcing\npart / --fstype=reiserfs\n%%addon org_seinstall --unsupported=warn\n%%end\n' \
        >"$d/warn.ks"
expect_exit 0 "$SEINSTALL" check --profile "$d/warn.ks" --root "$d/root" --no-cmdline
assert_contains "lowered" "$OUT" "lowered from enforcing"
# a boot option ranks above the kickstart, as in the install
printf 'BOOT_IMAGE=/vmlinuz inst.selinux=0\n' >"$d/off.cmdline"
expect_exit 0 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --cmdline "$d/off.cmdline"
assert_contains "boot option wins" "$OUT" "Mode:   disabled (boot)"
# --mode ranks above the boot options, and is named as the source
expect_exit 0 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --no-cmdline --mode permissive
assert_contains "--mode" "$OUT" "Mode:   permissive (--mode)"
expect_exit 0 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --cmdline "$d/off.cmdline" \
        --mode permissive --json
assert_eq "--mode over inst.selinux=0" "permissive option" \
        "$(printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["mode"], d["mode_source"])')"

# a kickstart that plans no file system: nothing to check, exit 0
printf 'selinux --enforcing\npart swap --size=100\n' >"$d/none.ks"
expect_exit 0 "$SEINSTALL" check --profile "$d/none.ks" --root "$d/root" --no-cmdline
assert_contains "no layout" "$OUT" "plans no file system"

# --plan -: the plan from a pipe, with the kickstart's settings
OUT=$("$SEINSTALL" profile "$d/seed.ks" --plan | "$SEINSTALL" check --plan - --profile "$d/seed.ks" \
        --root "$d/root" --no-cmdline) && rc=0 || rc=$?
assert_eq "exit status of profile --plan | check --plan - --profile" 1 "$rc"
assert_contains "--plan - refuses the ReiserFS root" "$OUT" "refuse /: planned on / is reiserfs"
expect_exit 2 sh -c "printf 'not an fstab line at all x y z\n' | '$SEINSTALL' check --plan - --root '$d/root'"
assert_contains "a bad line on standard input" "$ERR" "standard input:1: not an fstab line"
# options of --profile alone
expect_exit 2 "$SEINSTALL" check --root "$d/root" --default-fstype ext4
assert_contains "--default-fstype needs --profile" "$ERR" "need --profile"
