#!/bin/bash
# A symlink at a path seinstall rewrites (/etc/kernel/cmdline, /etc/selinux/config,
# /etc/default/grub, a BLS entry, /.autorelabel, the first-boot mark) pointing at the target's
# /etc/shadow: seinstall must never read through it (the hash would be written back as a
# world-readable file and put on the kernel command line). Each case: exit 2 naming the path,
# the link left as it was (/.autorelabel, whose old content is not needed, is replaced), /etc/shadow unchanged (checksum, mode, owner, security.selinux),
# and the hash nowhere else in the target (issue 18, item 5).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_root

d=$(scratch_dir)
hash='root:$6$s3cr3tSALT$0123456789abcdefHASH:19000:0:99999:7:::'

# fresh: a new target with a shadow file, in $t
fresh() {
        t=$d/t
        rm -rf "$t"
        make_target "$t"
        mkdir -p "$t/etc/kernel" "$t/boot/loader/entries" "$t/var/lib/seinstall"
        printf '%s\n' "$hash" >"$t/etc/shadow"
        chmod 0640 "$t/etc/shadow"
        setfattr -n security.selinux -v system_u:object_r:shadow_t:s0 "$t/etc/shadow" 2>/dev/null || true
}
state() { # checksum, mode, owner and label of a file
        echo "$(sha256sum <"$1") $(stat -c '%a %u:%g %F' "$1") $(label_of "$1")"
}

# case [-replaced] LINK TARGET-OF-LINK ARGS...: LINK (a path in the target) -> TARGET-OF-LINK,
# then seinstall ARGS must refuse with exit 2 naming LINK; with -replaced (a file whose old
# content seinstall does not need) it must succeed and replace the link by its own file.
case_() {
        local replaced= link to before rc
        [ "$1" = -replaced ] && replaced=1 && shift
        link=$1 to=$2
        shift 2
        fresh
        mkdir -p "$(dirname "$t$link")"
        rm -f "$t$link"
        ln -s "$to" "$t$link"
        before=$(state "$t/etc/shadow")
        timeout 60 "$SEINSTALL" "$@" --root "$t" >/dev/null 2>"$d/err" && rc=0 || rc=$?
        if [ -n "$replaced" ]; then
                [ "$rc" = 0 ] || fail "$link -> $to: seinstall $* exited $rc: $(cat "$d/err")"
                [ -f "$t$link" ] && [ ! -L "$t$link" ] || fail "$link was not replaced by a file"
        else
                [ "$rc" = 2 ] || fail "$link -> $to: seinstall $* exited $rc, expected 2: $(cat "$d/err")"
                assert_contains "$link: message" "$(cat "$d/err")" "$link"
                [ -L "$t$link" ] || fail "$link is no longer the symlink"
        fi
        assert_eq "$link: /etc/shadow" "$before" "$(state "$t/etc/shadow")"
        if grep -rlF 's3cr3tSALT' "$t" | grep -vx "$t/etc/shadow"; then
                fail "$link: the hash was copied into the files above"
        fi
        echo "ok: $link -> $to refused, shadow untouched, hash nowhere else"
}

case_ /etc/kernel/cmdline ../shadow apply --mode enforcing --bootloader kernel-cmdline
case_ /etc/selinux/config ../shadow apply --mode enforcing --bootloader none
case_ /etc/default/grub ../shadow apply --mode enforcing --bootloader grub
case_ /etc/default/grub /etc/shadow apply --mode permissive --bootloader auto
case_ /boot/loader/entries/debian.conf ../../../etc/shadow apply --mode enforcing --bootloader bls
case_ -replaced /.autorelabel etc/shadow apply --mode enforcing --bootloader none
echo "ok: every write through a symlink was refused"
