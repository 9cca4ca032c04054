#!/bin/bash
# A file contexts line whose context the target's policy does not accept is bad input, found
# when the file contexts are loaded, as setfiles finds it: exit 2 naming the file, the line and
# the context, before anything is labeled. Checked for relabel (the target's file_contexts, its
# .local, and --file-contexts FILE), verify, install and avc; no file's label changes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_tool getfattr attr
require_loop

d=$(scratch_dir)
make_fs_image "$d/root.img" ext4 200
R=$d/root
mount_image "$d/root.img" "$R"
make_target "$R"
FCD=$R/etc/selinux/default/contexts/files
expect_exit 0 "$SEINSTALL" relabel --root "$R" --no-progress
# a label the file contexts would change, and one file never labeled
setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$R/etc/hostname"
: >"$R/var/log/new.log"
setfattr -x security.selinux "$R/var/log/new.log" 2>/dev/null || true
# every label but those of the policy's own files, which the test edits
snapshot() {
        find "$R" -xdev -not -path "$R/etc/selinux/*" -print0 | sort -z |
                xargs -0 getfattr -h -n security.selinux --absolute-names 2>/dev/null | sha256sum
}
before=$(snapshot)

bad='system_u:object_r:no_such_type_t:s0'
check_refused() { # WHAT FILE LINE
        assert_contains "$1: message" "$ERR" "$2:$3: the context $bad is not valid"
        assert_contains "$1: message" "$ERR" "fix or remove that line"
        assert_eq "$1: labels afterwards" "$before" "$(snapshot)"
}

# 1. The target's own file_contexts, a line in the middle of it.
cp "$FCD/file_contexts" "$d/fc.orig"
n=$(($(wc -l <"$FCD/file_contexts") / 2))
sed -i "${n}a /srv/bad(/.*)?\t$bad" "$FCD/file_contexts"
expect_exit 2 "$SEINSTALL" relabel --root "$R" --no-progress
check_refused "relabel" /etc/selinux/default/contexts/files/file_contexts $((n + 1))
expect_exit 2 "$SEINSTALL" relabel --root "$R" --no-progress --json
assert_json_error 2
expect_exit 2 "$SEINSTALL" verify --root "$R" --no-progress
check_refused "verify" /etc/selinux/default/contexts/files/file_contexts $((n + 1))
expect_exit 2 "$SEINSTALL" verify --root "$R" --fix --no-progress
check_refused "verify --fix" /etc/selinux/default/contexts/files/file_contexts $((n + 1))
printf 'selinux --enforcing\n' >"$d/ks.cfg"
expect_exit 2 "$SEINSTALL" install --root "$R" --profile "$d/ks.cfg" --no-cmdline
check_refused "install" /etc/selinux/default/contexts/files/file_contexts $((n + 1))
[ ! -e "$R/var/lib/seinstall/firstboot" ] || fail "install wrote its first-boot mark after refusing"
grep -q '^SELINUX=enforcing' "$R/etc/selinux/config" 2>/dev/null &&
        fail "install wrote an enforcing config after refusing"
echo 'type=AVC msg=audit(1700000000.1:1): avc:  denied  { read } for  pid=1 comm="cat" path="/etc/hostname" dev="vda" ino=2 scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:tmp_t:s0 tclass=file permissive=1' >"$d/audit.log"
expect_exit 2 "$SEINSTALL" avc --root "$R" --log "$d/audit.log"
check_refused "avc" /etc/selinux/default/contexts/files/file_contexts $((n + 1))
cp "$d/fc.orig" "$FCD/file_contexts"

# 2. file_contexts.local, whose line 2 is bad.
printf '/srv/ok(/.*)?\tsystem_u:object_r:var_t:s0\n/srv/bad\t%s\n' "$bad" >"$FCD/file_contexts.local"
expect_exit 2 "$SEINSTALL" relabel --root "$R" --no-progress
check_refused "relabel, .local" /etc/selinux/default/contexts/files/file_contexts.local 2
rm "$FCD/file_contexts.local"

# 3. --file-contexts FILE of the host: its line 3.
{ printf '/.*\tsystem_u:object_r:default_t:s0\n/etc(/.*)?\tsystem_u:object_r:etc_t:s0\n'
  printf '/var/log(/.*)?\t%s\n' "$bad"; } >"$d/host-fc"
expect_exit 2 "$SEINSTALL" relabel --root "$R" --file-contexts "$d/host-fc" --no-progress
check_refused "relabel --file-contexts" "$d/host-fc" 3

# 4. The same files valid again: relabel runs and changes what it should.
expect_exit 0 "$SEINSTALL" relabel --root "$R" --no-progress
[ "$(label_of "$R/etc/hostname")" != system_u:object_r:tmp_t:s0 ] || fail "relabel did not fix /etc/hostname"
