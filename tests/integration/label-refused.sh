#!/bin/bash
# A label the running system's own policy refuses: setxattr fails with EINVAL when the installer
# runs SELinux with a policy that does not know a context of the target's. Both places that
# write labels meet it (label.c, labeling each file seinstall writes, here apply's config; the
# relabel's walk) and both give the exit status seinstall(8) gives it, 3 (the system failed:
# nothing the person gave was wrong), with seinstall's own code SEINSTALL_ERROR_LABEL_REFUSED in
# --json (no permission was missing: EPERM would mislead). The refusal is injected
# with strace into every setxattr call.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
. "$TOP/tests/harden-lib.sh"
require_strace
command -v python3 >/dev/null || skip "python3 is needed to parse the JSON"

d=$(scratch_dir)
T=$d/t
make_target "$T"
# (under_strace: LeakSanitizer cannot run under ptrace, harden-lib.sh)
refuse=(under_strace -f -qq -o /dev/null -e trace=setxattr,lsetxattr,fsetxattr
        -e inject=setxattr,lsetxattr,fsetxattr:error=EINVAL)

# refused_json WHAT MESSAGE: $OUT is the --json error document of a refused label: exit 3,
# SEINSTALL_ERROR_LABEL_REFUSED (EINVAL would say "bad input", exit 2), MESSAGE in its message.
refused_json() {
        printf '%s' "$OUT" >"$d/doc.json"
        json_assert "$d/doc.json" MSG="$2" -- 'd["error"]["exit"] == 3' \
                'd["error"]["errno"] == "SEINSTALL_ERROR_LABEL_REFUSED"' 'MSG in B(d["error"], "message")' ||
                fail "$1 --json: $OUT"
        echo "ok: $1 --json: exit 3, SEINSTALL_ERROR_LABEL_REFUSED, '$2'"
}

echo "== apply (label.c labels the config it writes)"
expect_exit 3 "${refuse[@]}" "$SEINSTALL" apply --root "$T" --mode permissive --bootloader none
assert_contains "apply" "$ERR" "$T/.autorelabel"
# the writer's message carries label.c's reason and its fix, not a bare strerror
assert_contains "apply" "$ERR" "The running system refused the label system_u:object_r:"
assert_contains "apply" "$ERR" "Run the installer with SELinux permissive (enforcing=0)"
expect_exit 3 "${refuse[@]}" "$SEINSTALL" apply --root "$T" --mode permissive --bootloader none \
        --labeled --json
refused_json apply "$T/etc/selinux/config"
refused_json apply "The running system refused the label system_u:object_r:"
[ ! -e "$T/etc/selinux/config" ] || fail "apply wrote the config whose label was refused"
echo "ok: no config written"

echo "== relabel (the walk)"
expect_exit 3 "${refuse[@]}" "$SEINSTALL" relabel --root "$T" --no-progress --threads 1
assert_contains "relabel" "$ERR" "The running system refused the label system_u:object_r:"
expect_exit 3 "${refuse[@]}" "$SEINSTALL" relabel --root "$T" --no-progress --json
refused_json relabel "The running system refused the label system_u:object_r:"

echo "== verify --fix (the relabel's walk)"
expect_exit 3 "${refuse[@]}" "$SEINSTALL" verify --root "$T" --fix --no-progress
assert_contains "verify --fix" "$ERR" "The running system refused the label system_u:object_r:"

echo "== without the refusal both succeed"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode permissive --bootloader none
expect_exit 0 "$SEINSTALL" relabel --root "$T" --no-progress
