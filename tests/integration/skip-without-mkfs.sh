#!/bin/bash
# A test whose filesystem images need a mkfs program that is not on PATH says SKIPPED with the
# reason, rather than failing: check-plan.sh under a user's PATH (no /usr/sbin, where
# mkfs.ext4 is) exits 77 naming mkfs.ext4 and its package.
. "$(dirname "$0")/../lib.sh"
userpath=/usr/bin:/bin
[ -z "$(PATH=$userpath command -v mkfs.ext4)" ] ||
        skip "mkfs.ext4 is in $userpath here: no PATH without it to run check-plan.sh under"
[ -e /etc/selinux/default/policy/policy.33 ] || skip "selinux-policy-default is not installed"
out=$(PATH=$userpath bash "$TOP/tests/integration/check-plan.sh" 2>&1) && rc=0 || rc=$?
printf '%s\n' "$out" | tail -n 3
assert_eq "check-plan.sh's exit status without mkfs.ext4 on PATH" 77 "$rc"
assert_contains "its reason" "$(printf '%s\n' "$out" | tail -n 1)" \
        "SKIPPED: mkfs.ext4 is not on PATH (Debian package e2fsprogs"
