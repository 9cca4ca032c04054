#!/bin/bash
# The policy build (a target with modules in /var/lib/selinux but no built policy) cannot be
# steered by the target (issue 18, items 1 and 2):
# - its semanage.conf names programs in [setfiles], [sefcontext_compile], [load_policy] and
#   [verify kernel]: none of them runs (marker files outside never appear), and the policy is
#   still built, with seinstall's own configuration;
# - its semanage.conf is a FIFO: the build neither reads it nor hangs;
# - the store's tmp/, policy/ and contexts/files/ are symlinks to directories outside: refused
#   with exit 2 naming the path; the outside directories keep their files, checksums, modes
#   and security.selinux labels.
# - a bzip2 bomb among the modules (issue 26, item 8): a cil of 250 bytes that inflates to
#   256 MiB, and nine modules of 81 bytes each inflating to 60 MiB (540 MiB in all): exit 2
#   naming the module, within seconds, seinstall's peak memory (with its children) under
#   150 MB; the store's files are never handed to libsemanage. Without the check libsemanage
#   inflated the whole file in memory.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_tool getfattr attr
require_root

d=$(scratch_dir)
t=$d/t
make_unbuilt_target "$t"
: >"$d/empty.ks"

# Programs the target names: each would leave a marker outside the target.
cat >"$d/evil.sh" <<EVIL
#!/bin/sh
touch "$d/MARKER-\$(basename "\$0")-\$\$"
exit 0
EVIL
chmod 755 "$d/evil.sh"
cat >"$t/etc/selinux/semanage.conf" <<CONF
module-store = direct
[setfiles]
path = /bin/sh
args = -c touch\${IFS}$d/MARKER-setfiles
[end]
[sefcontext_compile]
path = $d/evil.sh
args = \$@
[end]
[load_policy]
path = $d/evil.sh
[end]
[verify kernel]
path = $d/evil.sh
args = \$<
[end]
CONF

build() { # run the install that builds the policy; exit status in $rc, stderr in $d/err
        timeout -s KILL 600 "$SEINSTALL" install --root "$t" --profile "$d/empty.ks" --no-cmdline \
                >/dev/null 2>"$d/err" && rc=0 || rc=$?
        [ "$rc" != 137 ] || fail "the policy build hung (killed after 600 s)"
}

echo "== semanage.conf naming programs"
build
[ "$rc" = 0 ] || fail "install exited $rc: $(cat "$d/err")"
compgen -G "$t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null || fail "no policy.N built"
if compgen -G "$d/MARKER*" >/dev/null; then fail "a program named by the target ran: $(ls "$d"/MARKER*)"; fi
echo "ok: policy built, no program of the target ran"

echo "== semanage.conf is a FIFO"
rm -rf "$t/etc/selinux/default/policy"
rm -f "$t/etc/selinux/semanage.conf"
mkfifo "$t/etc/selinux/semanage.conf"
build
[ "$rc" = 0 ] || fail "install exited $rc: $(cat "$d/err")"
compgen -G "$t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null || fail "no policy.N built"
echo "ok: built without reading the FIFO"

# Outside directories the store's symlinks point at.
for v in tmp policy files; do
        mkdir -p "$d/victim-$v/sub"
        printf 'precious %s\n' "$v" >"$d/victim-$v/policy.33"
        printf 'keep\n' >"$d/victim-$v/sub/file_contexts"
        chmod 0600 "$d/victim-$v/policy.33"
        setfattr -n security.selinux -v system_u:object_r:etc_t:s0 "$d/victim-$v/policy.33" 2>/dev/null || true
done
snapshot() {
        find "$d"/victim-* -printf '%p %m %U:%G %s\n' | sort
        find "$d"/victim-* -type f -exec sha256sum {} + | sort
        for f in "$d"/victim-*/policy.33; do echo "$f $(getfattr --only-values -n security.selinux "$f" 2>/dev/null)"; done
}
before=$(snapshot)

# linked STORE-PATH VICTIM: STORE-PATH (in the target) -> VICTIM, then the build is refused.
linked() {
        local p=$1 v=$2
        rm -rf "$t/etc/selinux/default/policy"
        mv "$t$p" "$d/saved" 2>/dev/null || true
        ln -s "$v" "$t$p"
        build
        [ "$rc" = 2 ] || fail "$p -> $v: install exited $rc, expected 2: $(cat "$d/err")"
        assert_contains "$p: message" "$(cat "$d/err")" "$p"
        [ "$before" = "$(snapshot)" ] || fail "$p -> $v: the outside directory changed: $(diff <(echo "$before") <(snapshot))"
        rm "$t$p"
        if [ -e "$d/saved" ]; then mv "$d/saved" "$t$p"; fi
        echo "ok: $p -> $v refused, $v unchanged"
}
rm -f "$t/etc/selinux/semanage.conf"
linked /var/lib/selinux/default/tmp "$d/victim-tmp"
linked /etc/selinux/default/policy "$d/victim-policy"
linked /etc/selinux/default/contexts/files "$d/victim-files"
linked /var/lib/selinux/final "$d/victim-tmp"
echo "ok: the policy build stayed inside the target's store"

echo "== bzip2 bombs in the module store"
restore_store() {
        rm -rf "$t/var/lib/selinux/default/active/modules/400" "$t/etc/selinux/default/policy"
}
bomb() { # NAME MIB: a module NAME whose cil inflates to MIB MiB of zeros
        local m=$t/var/lib/selinux/default/active/modules/400/$1
        mkdir -p "$m"
        head -c "$2M" /dev/zero | bzip2 -9 >"$m/cil"
        cp "$m/cil" "$m/hll"
        printf 'pp' >"$m/lang_ext"
}
bombed() { # EXPECTED-TEXT: the install is refused with exit 2 naming it, quickly, in little memory
        local start=$SECONDS peak
        /usr/bin/time -f '%M' -o "$d/peak" timeout -s KILL 120 "$SEINSTALL" install --root "$t" \
                --profile "$d/empty.ks" --no-cmdline >/dev/null 2>"$d/err" && rc=0 || rc=$?
        [ "$rc" = 2 ] || fail "bomb: install exited $rc, expected 2: $(cat "$d/err")"
        assert_contains "bomb: message" "$(cat "$d/err")" "$1"
        peak=$(tail -n 1 "$d/peak")
        [ "$peak" -lt 150000 ] || fail "bomb: peak memory $peak KB, expected under 150 MB"
        [ $((SECONDS - start)) -lt 60 ] || fail "bomb: took $((SECONDS - start)) s"
        if compgen -G "$t/etc/selinux/default/policy/policy.[0-9]*" >/dev/null; then
                fail "bomb: a policy was built from a store with a bomb"
        fi
        echo "ok: refused in $((SECONDS - start)) s, peak $peak KB: $(grep -m1 inflates "$d/err")"
}
command -v bzip2 >/dev/null || skip "bzip2 is missing (Debian: apt-get install bzip2)"
[ -x /usr/bin/time ] || skip "/usr/bin/time is missing (Debian: apt-get install time)"
restore_store
bomb zeros 256
bombed "400/zeros/cil inflates to more than 64 MiB"
restore_store
for i in 1 2 3 4 5 6 7 8 9; do bomb "part$i" 60; done
bombed "inflate to more than 512 MiB"
restore_store
build
[ "$rc" = 0 ] || fail "install after removing the bombs exited $rc: $(cat "$d/err")"
echo "ok: the store's files inflate within bounds or the build is refused"
