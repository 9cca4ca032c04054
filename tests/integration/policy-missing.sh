#!/bin/bash
# A policy type the target does not have, asked for with --policy (check, relabel, apply), a
# profile's --policy= (install) or the target's SELINUXTYPE= (verify, avc): exit 3 (a missing
# piece of the system), a message naming the type, where it was looked for and the package to
# install, never "(null)"; with --json the same message in one error document. Nothing written.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

d=$(scratch_dir)
R=$d/root
make_target "$R"
snap() { (cd "$1" && find . -printf '%p %s %T@\n' | sort | sha256sum); }
before=$(snap "$R")
pkg="install the policy package that provides this policy type (Debian's are selinux-policy-default and selinux-policy-mls)"
check_msg() { # WHAT WHERE
        assert_contains "$1" "$ERR" "type 'nosuch'"
        assert_contains "$1" "$ERR" "$2"
        assert_contains "$1" "$ERR" "$pkg"
        case $ERR in *"(null)"*) fail "$1: (null) in the message: $ERR" ;; esac
}

expect_exit 3 "$SEINSTALL" check --root "$R" --policy nosuch
check_msg check "neither the target $R nor this system has /etc/selinux/nosuch/policy/policy.N"
expect_exit 3 "$SEINSTALL" relabel --root "$R" --policy nosuch --no-progress
check_msg relabel "$R/etc/selinux/nosuch/contexts/files/file_contexts is missing"
expect_exit 3 "$SEINSTALL" relabel --root "$R" --policy nosuch --no-progress --json
assert_json_error 3
expect_exit 3 "$SEINSTALL" apply --root "$R" --policy nosuch --mode enforcing
check_msg apply "$R/etc/selinux/nosuch/policy"
printf 'selinux --enforcing\n%%addon org_seinstall --policy=nosuch\n%%end\n' >"$d/ks.cfg"
expect_exit 3 "$SEINSTALL" install --root "$R" --profile "$d/ks.cfg" --no-cmdline
check_msg install "/etc/selinux/nosuch/policy/policy.N"
assert_eq "the target after all of them" "$before" "$(snap "$R")"

# the type the target's own config names
printf 'SELINUX=permissive\nSELINUXTYPE=nosuch\n' >"$R/etc/selinux/config"
expect_exit 3 "$SEINSTALL" verify --root "$R" --no-progress
check_msg verify "$R/etc/selinux/nosuch/contexts/files/file_contexts is missing"
: >"$d/audit.log"
expect_exit 3 "$SEINSTALL" avc --root "$R" --log "$d/audit.log"
check_msg avc "$R/etc/selinux/nosuch/contexts/files/file_contexts is missing"
