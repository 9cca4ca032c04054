#!/bin/bash
# The policy build's memory is bounded by its cgroup, whatever the CIL computes (issue 32,
# item 4): a 1.2 KB plain CIL module whose macros nest 21 deep, each calling the one below
# twice (2^21 expansions), made the build grow past 4 GiB under an address-space limit and
# was reported as "more than 900 s of CPU". Now the build is killed at its memory limit, the
# message says so (the true cause), exit 3, within seconds, and no policy is built. A store
# without the bomb still builds, in the same confinement.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_unbuilt_target "$t"
: >"$d/empty.ks"

m=$t/var/lib/selinux/default/active/modules/400/bomb
mkdir -p "$m"
{
        echo '(type seinstall_bomb_t)'
        printf '(macro m0 ()'
        for perm in read write open getattr setattr append lock ioctl; do
                printf ' (allow seinstall_bomb_t self (file (%s)))' "$perm"
        done
        echo ')'
        for i in $(seq 1 21); do
                printf '(macro m%d () (call m%d) (call m%d))\n' "$i" $((i - 1)) $((i - 1))
        done
        echo '(call m21)'
} >"$m/cil"
cp "$m/cil" "$m/hll"
printf 'cil' >"$m/lang_ext"
echo "the module: $(stat -c %s "$m/cil") bytes"

start=$SECONDS
timeout -s KILL 300 "$SEINSTALL" install --root "$t" --profile "$d/empty.ks" --no-cmdline \
        >/dev/null 2>"$d/err" && rc=0 || rc=$?
took=$((SECONDS - start))
err=$(cat "$d/err")
[ "$rc" != 137 ] || fail "the build was not stopped within 300 s"
assert_eq "exit status (the system failed us)" 3 "$rc"
assert_contains "the true cause" "$err" "reached the memory limit of 1024 MiB"
case $err in *"of CPU"*) fail "the message blames the CPU: $err" ;; esac
assert_contains "what to run" "$err" "semodule -p"
[ "$took" -lt 240 ] || fail "the build took $took s to be stopped"
if compgen -G "$t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null; then
        fail "a policy was built from a store with the bomb"
fi
echo "ok: stopped at the memory limit in $took s, exit 3, the cause said"
pgrep -f seinstall-policy-build >/dev/null && fail "a build process outlived seinstall"

rm -rf "$t/var/lib/selinux/default/active/modules/400"
timeout -s KILL 600 "$SEINSTALL" install --root "$t" --profile "$d/empty.ks" --no-cmdline \
        >/dev/null 2>"$d/err" && rc=0 || rc=$?
assert_eq "exit status without the bomb" 0 "$rc"
compgen -G "$t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null || fail "no policy.N built"
echo "ok: the same store without the bomb builds"
