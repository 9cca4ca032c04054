#!/bin/bash
# `verify --fix` is done only when a verify after it finds nothing (issue 26, item 10): it
# printed "fixed" and exited 0 over files with two names on more than 64 filesystems, each name
# written with its own label in turn, and `verify` then still reported them (install, which
# ends with verify --fix, reported success over wrong labels). Here 70 btrfs subvolumes each
# hold a file named /home/uNN/.ssh/id and /home/uNN/notes, all wrongly labeled: verify --fix
# must exit 0 and a verify after it too, with both names ssh_home_t. Then a mislabeled file
# made immutable (chattr +i), whose label cannot be written: verify --fix must exit non-zero,
# say how many labels are still different after the fix and name the file and why, and a
# verify after it must report that same file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_tool chattr e2fsprogs
N=70

d=$(scratch_dir)
linked_homes_fs "$d" "$N"
t=$d/t
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress
linked_homes_mislabel "$t" "$N"

expect_exit 0 "$SEINSTALL" verify --root "$t" --fix --no-progress
fix_out=$OUT
expect_exit 0 "$SEINSTALL" verify --root "$t" --no-progress
assert_contains "verify after verify --fix" "$OUT" "every label matches"
assert_contains "verify --fix" "$fix_out" "a verify after the fix finds none different"
linked_homes_check "$t" "$N"

# a label that cannot be written
setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$t/usr/bin/true"
chattr +i "$t/usr/bin/true" || skip "chattr +i does not work on btrfs here"
on_exit "chattr -i '$t/usr/bin/true'"
expect_exit 3 "$SEINSTALL" verify --root "$t" --fix --no-progress
assert_contains "verify --fix over an immutable file" "$OUT" "1 still differs after the fix"
assert_contains "verify --fix over an immutable file" "$OUT" "/usr/bin/true: system_u:object_r:tmp_t:s0, expected"
assert_contains "verify --fix over an immutable file" "$OUT" "Left after the fix: 1 label"
assert_contains "verify --fix over an immutable file (why)" "$ERR" "/usr/bin/true: Operation not permitted"
expect_exit 1 "$SEINSTALL" verify --root "$t" --no-progress
assert_contains "verify after it" "$OUT" "/usr/bin/true: system_u:object_r:tmp_t:s0, expected"
chattr -i "$t/usr/bin/true"
expect_exit 0 "$SEINSTALL" verify --root "$t" --fix --no-progress
expect_exit 0 "$SEINSTALL" verify --root "$t" --no-progress
echo "ok: verify --fix exits 0 only when a verify after it finds nothing"
