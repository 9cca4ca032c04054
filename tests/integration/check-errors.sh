#!/bin/bash
# seinstall check on bad usage and bad input: every case exits 2 or 3 with a message naming the
# object (file and line, device, root, policy type) and prints nothing on stdout (with --json: one
# JSON error document, nothing else); never a crash.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

d=$(scratch_dir)
t=$d/target
mkdir -p "$t"
good="$d/good.fstab"
echo "/dev/vda2 / ext4 defaults 0 1" >"$good"

# A failed --json run prints one JSON error document on stdout, nothing else (no half
# document): assert_json_error.

echo "== bad usage"
expect_exit 2 "$SEINSTALL" check --mode enforce
assert_contains "message" "$ERR" "invalid --mode 'enforce': use enforcing, permissive, disabled or trial"
[ -z "$OUT" ] || fail "stdout should be empty without --json, got: $OUT"
expect_exit 2 "$SEINSTALL" check --mode enforce --json
assert_json_error 2
expect_exit 2 "$SEINSTALL" no-such-command --json
assert_json_error 2
expect_exit 2 "$SEINSTALL" check --bogus
expect_exit 2 "$SEINSTALL" check extra-argument
expect_exit 2 "$SEINSTALL" check --policy ../etc
expect_exit 2 "$SEINSTALL" check --unsupported maybe
expect_exit 0 "$SEINSTALL" check --help
assert_contains "help" "$OUT" "--plan FSTAB"

echo "== nonexistent root"
expect_exit 2 "$SEINSTALL" check --root "$d/missing" --plan "$good" --json
assert_contains "message" "$ERR" "$d/missing"
assert_json_error 2

echo "== missing plan"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/missing.fstab" --json
assert_contains "message" "$ERR" "$d/missing.fstab"
assert_json_error 2

echo "== malformed plan lines name file and line"
printf '# layout\n/dev/vda2 / ext4 defaults 0 1\n/dev/vda3\n' >"$d/bad1.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/bad1.fstab" --json
assert_contains "message" "$ERR" "$d/bad1.fstab:3:"
assert_json_error 2
printf '/dev/vda2 / ext4 defaults 0 1\n/dev/vda3 home ext4 defaults\n' >"$d/bad2.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/bad2.fstab"
assert_contains "message" "$ERR" "$d/bad2.fstab:2: the mount point 'home' is not an absolute path"
printf '/dev/vda2 / ext4 defaults x 1\n' >"$d/bad3.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/bad3.fstab"
assert_contains "message" "$ERR" "$d/bad3.fstab:1:"
printf '/dev/vda2 / ext4\0\n' >"$d/binary.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/binary.fstab"
assert_contains "message" "$ERR" "not text"
: >"$d/empty.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/empty.fstab"
assert_contains "message" "$ERR" "names no filesystem"

echo "== devices that cannot be probed"
printf '/dev/vda2 / ext4\n%s /home auto\n' "$d/no-such.img" >"$d/missing-dev.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/missing-dev.fstab" --json
assert_contains "message" "$ERR" "$d/missing-dev.fstab:2: cannot probe the type of $d/no-such.img"
assert_json_error 2
truncate -s 4M "$d/blank.img"
printf '%s /\n' "$d/blank.img" >"$d/blank.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/blank.fstab"
assert_contains "message" "$ERR" "$d/blank.fstab:1: no filesystem found on $d/blank.img"
printf '%s / auto\n' "$d" >"$d/dir.fstab"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$d/dir.fstab"
assert_contains "message" "$ERR" "neither a block device nor a disk image"
# A type given explicitly needs no device yet: planning happens before formatting.
expect_exit 0 "$SEINSTALL" check --root "$t" --plan "$good" --mode enforcing

echo "== unknown policy type: nothing anywhere provides it (exit 3, the system lacks it)"
expect_exit 3 "$SEINSTALL" check --root "$t" --plan "$good" --policy no-such-type --json
assert_contains "message" "$ERR" "No SELinux policy of type 'no-such-type'"
assert_contains "what to do" "$ERR" "install the policy package"
assert_json_error 3

echo "== a corrupt policy in the target is named, not silently replaced"
mkdir -p "$t/etc/selinux/default/policy"
echo "garbage" >"$t/etc/selinux/default/policy/policy.33"
expect_exit 2 "$SEINSTALL" check --root "$t" --plan "$good"
assert_contains "message" "$ERR" "$t/etc/selinux/default/policy/policy.33 is not a binary SELinux policy"
rm -r "${t:?}/etc"

echo "PASS"
