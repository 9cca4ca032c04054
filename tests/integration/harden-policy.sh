#!/bin/bash
# Faults in the target's policy: no binary policy, no policy.N, a truncated (corrupt) policy,
# no file contexts; file contexts naming a context the policy does not know. Missing pieces
# are exit 3 naming the package, a corrupt policy exit 2 saying how to repair it; file contexts
# with a context the policy rejects are exit 2 naming the line, and nothing is labeled.
. "$(dirname "$0")/../lib.sh"
require_tool setfattr attr
require_tool getfattr attr
require_root
ls /etc/selinux/default/policy/policy.* >/dev/null 2>&1 ||
        skip "no selinux-policy-default on this machine (make deps)"
[ -f /etc/selinux/default/contexts/files/file_contexts ] || skip "no default file contexts"

d=$(scratch_dir)
t=$d/t
mkdir -p "$t/etc/selinux/default/policy" "$t/etc/selinux/default/contexts/files" "$t/usr/bin"
cp /etc/selinux/default/contexts/files/file_contexts "$t/etc/selinux/default/contexts/files/"
printf 'SELINUX=enforcing\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
echo x >"$t/usr/bin/tool"
pol=$(ls /etc/selinux/default/policy/policy.* | sort -V | tail -n 1)

echo "== no policy directory"
rmdir "$t/etc/selinux/default/policy"
expect_exit 3 "$SEINSTALL" relabel --root "$t" --dry-run
assert_contains "message" "$ERR" "install the policy package"
echo "== no policy.N"
mkdir "$t/etc/selinux/default/policy"
expect_exit 3 "$SEINSTALL" relabel --root "$t" --dry-run
assert_contains "message" "$ERR" "semodule -p $t -n -B"
echo "== a truncated policy"
head -c 5000 "$pol" >"$t/etc/selinux/default/policy/${pol##*/}"
expect_exit 2 "$SEINSTALL" relabel --root "$t" --dry-run
assert_contains "message" "$ERR" "reinstall the policy package"
expect_exit 2 "$SEINSTALL" check --root "$t"
assert_contains "message" "$ERR" "reinstall the policy package"
echo "== an empty policy file"
: >"$t/etc/selinux/default/policy/${pol##*/}"
expect_exit 2 "$SEINSTALL" relabel --root "$t" --dry-run
cp "$pol" "$t/etc/selinux/default/policy/"
echo "== no file contexts"
mv "$t/etc/selinux/default/contexts/files/file_contexts" "$d/fc"
expect_exit 3 "$SEINSTALL" relabel --root "$t" --dry-run
assert_contains "message" "$ERR" "selinux-policy-default"
mv "$d/fc" "$t/etc/selinux/default/contexts/files/file_contexts"

echo "== file contexts with a context the policy does not know"
getfattr -h -n security.selinux "$t/usr/bin/tool" >/dev/null 2>&1 && fail "fresh file already labeled?"
printf '/.*\tsystem_u:object_r:default_t:s0\n/usr/bin(/.*)?\tsystem_u:object_r:no_such_type_t:s0\n' >"$d/bad.fc"
setfattr -n security.selinux -v system_u:object_r:default_t:s0 "$t/usr/bin/tool" 2>/dev/null ||
        skip "this filesystem ($(stat -f -c %T "$t")) does not take security.selinux"
setfattr -x security.selinux "$t/usr/bin/tool"
# refused when loaded, as setfiles refuses it: exit 2 naming file, line and context, and
# nothing labeled, not even the files whose contexts are valid
expect_exit 2 "$SEINSTALL" relabel --root "$t" --file-contexts "$d/bad.fc" --no-progress
assert_contains "message" "$ERR" "$d/bad.fc:2: the context system_u:object_r:no_such_type_t:s0 is not valid"
getfattr -h -n security.selinux "$t/usr/bin/tool" >/dev/null 2>&1 &&
        fail "a file got a label from an invalid context"
getfattr -h -n security.selinux "$t/etc/selinux/config" >/dev/null 2>&1 &&
        fail "a file was labeled although the file contexts were refused"
echo "ok: nothing labeled"
