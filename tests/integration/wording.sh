#!/bin/bash
# The small wording fixes of issue 34, item 8: singulars ("1 mount", "1 label differs"), check's
# fix naming --unsupported warn as well as the boot option, check --json's warnings when the mode
# was lowered, avc on a file that is not a log, and install without --root asking before it acts
# on the running system.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_tool python3 python3

d=$(scratch_dir)
mkdir -p "$d/root"
printf 'selinux --enforcing\npart / --fstype=reiserfs\n' >"$d/seed.ks"
expect_exit 1 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --no-cmdline
assert_contains "the fix names the option" "$OUT" "choose permissive mode (--unsupported warn, or the boot option seinstall.unsupported=warn)"
expect_exit 0 "$SEINSTALL" check --profile "$d/seed.ks" --root "$d/root" --no-cmdline --unsupported warn --json
json_assert <(echo "$OUT") -- 'd["mode_lowered"] is True' \
        'any("lowered from enforcing to permissive" in w["message"] for w in d["warnings"])' ||
        fail "check --json with the mode lowered: $OUT"
echo "ok: check --json: the lowered mode is among the warnings"
assert_contains "and on stderr" "$ERR" "warning: The mode is lowered from enforcing to permissive"

# install without --root: never the running system unasked
expect_exit 2 "$SEINSTALL" install --no-cmdline </dev/null
assert_contains "install without --root and no terminal" "$ERR" "no --root: this would install SELinux on the running system"
if command -v script >/dev/null; then
        OUT=$(echo n | script -qec "'$SEINSTALL' install --no-cmdline" /dev/null) && rc=0 || rc=$?
        assert_eq "install without --root, answered no: exit status" 1 "$rc"
        assert_contains "it asked" "$OUT" "install SELinux on the running system (/)? [y/N]"
        assert_contains "and did nothing" "$OUT" "nothing was done"
fi

# avc on a file that is not a log: said, not "0 denials"
printf 'hello\nthis is not a log\n' >"$d/notes.txt"
expect_exit 2 "$SEINSTALL" avc --log "$d/notes.txt" --root "$d/root"
assert_contains "avc on a file that is not a log" "$ERR" "is not an audit or kernel log"
: >"$d/empty.log"
expect_exit 3 "$SEINSTALL" avc --log "$d/empty.log" --root "$d/root"
case $ERR in *"not an audit"*) fail "an empty log was called not a log: $ERR" ;; esac

# singulars, on a target of one mount with one file mislabeled
require_root
[ -d /etc/selinux/default/policy ] || skip "the host has no selinux-policy-default (make deps)"
t=$d/t
make_target "$t"
expect_exit 0 "$SEINSTALL" install --root "$t" --mode permissive --no-cmdline --dry-run
assert_contains "install: one mount" "$OUT" "(1 mount)"
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress
setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$t/usr/bin/true" || skip "cannot set security.selinux here"
expect_exit 1 "$SEINSTALL" verify --root "$t" --no-progress
assert_contains "verify: one label" "$OUT" "1 label differs from the file contexts"
