#!/bin/bash
# The policy build without its helper (seinstall-policy-build, beside the running binary in
# ../libexec/seinstall or in LIBEXECDIR): seinstall says which file is missing and who installs
# it, exits 3, and builds nothing; libsemanage never runs in a forked copy instead.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root
[ ! -e /usr/libexec/seinstall/seinstall-policy-build ] ||
        skip "a seinstall-policy-build is installed in /usr/libexec/seinstall: the copy would find it"

d=$(scratch_dir)
make_unbuilt_target "$d/t"
: >"$d/empty.ks"
mkdir -p "$d/bin"
cp "$SEINSTALL" "$d/bin/seinstall"
expect_exit 3 "$d/bin/seinstall" install --root "$d/t" --profile "$d/empty.ks" --no-cmdline
assert_contains "the missing helper named" "$ERR" "seinstall-policy-build: No such file or directory"
assert_contains "who installs it" "$ERR" "make install, and its package, put it there"
if compgen -G "$d/t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null; then
        fail "a policy was built without the helper"
fi
echo "ok: without its helper the build stops, names it, and builds nothing"
