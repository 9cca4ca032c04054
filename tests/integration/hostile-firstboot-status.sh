#!/bin/bash
# seinstall-firstboot --status and its plan lines escape what comes from the target (issue 32):
# a SELINUXTYPE holding an escape sequence and a bell reaches the terminal as \e and \x07, as it
# does through `seinstall status`.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
[ -x "$SEINSTALL_FIRSTBOOT" ] || skip "seinstall-firstboot is not built (WITH_FIRSTBOOT=0)"

d=$(scratch_dir)
t=$d/t
make_target "$t"
printf 'SELINUX=permissive\nSELINUXTYPE=\033[2Jevil\a\n' >"$t/etc/selinux/config"
expect_exit 0 "$SEINSTALL_FIRSTBOOT" --root "$t" --status
case $OUT$ERR in *$'\e'*) fail "a raw escape character reached the terminal: $OUT" ;; esac
case $OUT$ERR in *$'\a'*) fail "a raw bell reached the terminal: $OUT" ;; esac
assert_contains "the type shown escaped" "$OUT" '\e[2Jevil\x07'
expect_exit 0 "$SEINSTALL" status --root "$t"
assert_contains "seinstall status escapes it the same way" "$OUT" '\e[2Jevil\x07'
echo "ok: the target's SELINUXTYPE reaches the terminal escaped"
