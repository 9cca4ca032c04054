#!/bin/bash
# A run SIGKILLed between writing its temporary file and renaming it over the config leaves
# ".#config.<16 hex>" behind; the next run removes it (issue 18, item 9). Only seinstall's own
# pattern and only regular files: a symlink named like one, and other names, stay.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../harden-lib.sh"
require_rootfs_tool
require_strace

d=$(scratch_dir)
root=$d/root
mkdir -p "$root/etc/selinux"
printf 'SELINUX=permissive\n' >"$root/etc/selinux/config"
printf 'SELINUX=enforcing\nSELINUXTYPE=default\n' >"$d/new"
printf 'precious\n' >"$d/victim"

kills=0
for i in 1 2 3; do
        rc=0
        under_strace -qq -f -o /dev/null -e trace=rename,renameat,renameat2 \
                -e inject=rename,renameat,renameat2:signal=KILL:when=1 \
                "$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new" >/dev/null 2>&1 || rc=$?
        [ "$rc" != 0 ] && kills=$((kills + 1))
done
left=$(find "$root/etc/selinux" -name '.#config.*' -type f | wc -l)
[ "$left" -ge 1 ] || skip "the killed writes left no temporary file (killed $kills times): nothing to clean"
echo "ok: $kills killed writes left $left temporary file(s)"
ln -s "$d/victim" "$root/etc/selinux/.#config.0123456789abcdef"
printf 'x\n' >"$root/etc/selinux/.#other.0123456789abcdef"

"$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new" >/dev/null 2>"$d/err" ||
        fail "writing again failed: $(cat "$d/err")"
cmp -s "$root/etc/selinux/config" "$d/new" || fail "the config is not the new one"
assert_eq "temporaries left after the rerun" 0 "$(find "$root/etc/selinux" -name '.#config.*' -type f | wc -l)"
[ -L "$root/etc/selinux/.#config.0123456789abcdef" ] || fail "a symlink named like a temporary was removed"
[ -f "$root/etc/selinux/.#other.0123456789abcdef" ] || fail "another file's temporary was removed"
assert_eq "the symlink's target" precious "$(cat "$d/victim")"
