#!/bin/bash
# `seinstall apply` under faults. ENOSPC in each file system call it makes, and SIGKILL at
# each call that writes: every file it edits (/etc/selinux/config, /etc/default/grub,
# /.autorelabel, the first-boot mark) is afterwards exactly as before or exactly as an
# uninterrupted run leaves it; the config that turns SELinux on is never new while another file
# is still old (it is written last); exit 0 only with everything new, else exit 3; run again
# after a fault, apply completes with the same files. Then a full disk and a read-only target
# through the command line: exit 3, a message naming the file, the old files whole.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/harden-lib.sh"
require_strace

d=$(scratch_dir)
T=$d/T
mkdir -p "$T/boot" "$T/etc/default" "$T/etc/selinux/default/policy"
printf 'CONFIG_SECURITY_SELINUX=y\nCONFIG_LSM="landlock,lockdown,yama,apparmor,selinux"\n' \
        >"$T/boot/config-6.1.0-13-amd64"
printf '# GRUB\nGRUB_CMDLINE_LINUX_DEFAULT="quiet enforcing=0"\nGRUB_CMDLINE_LINUX="console=ttyS0"\n' \
        >"$T/etc/default/grub"
printf '# keep this comment\nSELINUX=disabled\nSELINUXTYPE=default\n' >"$T/etc/selinux/config"
: >"$T/etc/selinux/default/policy/policy.33"
files=(etc/selinux/config etc/default/grub .autorelabel var/lib/seinstall/firstboot)
cp -a "$T" "$d/old"
apply=("$SEINSTALL" apply --root "$T" --mode enforcing --bootloader grub --firstboot)

reset() {
        rm -rf "$T"
        cp -a "$d/old" "$T"
}
# state FILE: old, new or other
state() {
        local f=$1
        if [ -e "$d/new/$f" ] && cmp -s "$T/$f" "$d/new/$f"; then
                echo new
        elif { [ ! -e "$d/old/$f" ] && [ ! -e "$T/$f" ]; } || cmp -s "$T/$f" "$d/old/$f" 2>/dev/null; then
                echo old
        else
                echo other
        fi
}

under_strace -qq -f -o "$d/trace" "${apply[@]}" >/dev/null || fail "apply does not work without faults"
cp -a "$T" "$d/new"
for f in "${files[@]}"; do
        [ "$(state "$f")" = new ] || fail "the uninterrupted run did not change $f"
done
# The calls from opening the target on, without the allocator's and the loader's.
syscalls_after "$T" "$d/trace" |
        grep -Ev '^(mmap|munmap|mprotect|brk|madvise|prctl|access|pread64|rseq|set_tid_address|set_robust_list|prlimit64|arch_prctl|fcntl|readlink|statfs|fstatfs) ' \
                >"$d/calls"
grep -E '^(openat2|openat|write|fsync|renameat|rename|mkdirat|fchmod|fchown|unlinkat|getrandom) ' \
        "$d/calls" >"$d/writes"
echo "ok: $(wc -l <"$d/calls") file system calls, $(wc -l <"$d/writes") of them on the write path"

runs=0
check_files() {
        local what=$1 rc=$2 f s all_new=yes
        for f in "${files[@]}"; do
                s=$(state "$f")
                [ "$s" != other ] || fail "$what: $f is neither old nor new: $(head -c 300 "$T/$f")"
                [ "$s" = new ] || all_new=no
        done
        if [ "$(state etc/selinux/config)" = new ] && [ "$all_new" = no ]; then
                fail "$what: the config turning SELinux on is written while another file is still old"
        fi
        [ "$rc" != 0 ] || [ "$all_new" = yes ] || fail "$what: exit 0 but not every file was written"
}
for fault in error=ENOSPC signal=KILL; do
        list=$d/calls
        [ "$fault" = signal=KILL ] && list=$d/writes
        while read -r name idx; do
                reset
                rc=0
                inject "$name" "$idx" "$fault" "${apply[@]}" >/dev/null 2>"$d/err" || rc=$?
                runs=$((runs + 1))
                what="$fault at $name #$idx (exit $rc)"
                check_files "$what" "$rc"
                if [ "$fault" = error=ENOSPC ]; then
                        [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "$what: expected exit 0 or 3: $(cat "$d/err")"
                fi
                "${apply[@]}" >/dev/null 2>"$d/err" || fail "$what: apply run again failed: $(cat "$d/err")"
                for f in "${files[@]}"; do
                        [ "$(state "$f")" = new ] || fail "$what: after running again $f is not new"
                done
        done <"$list"
done
echo "ok: $runs interrupted applies: every file old or new, the config last, a second run completes"

echo "== a full disk and a read-only target, through the command line"
require_root
mkdir -p "$d/small"
mount -t tmpfs -o size=128k tmpfs "$d/small" || fail "tmpfs"
on_exit "umount -l '$d/small'"
cp -a "$d/old/." "$d/small/"
# a long comment makes the new config larger than what is left
for i in $(seq 1 300); do echo "# comment line $i, kept by seinstall"; done >>"$d/small/etc/selinux/config"
cp "$d/small/etc/selinux/config" "$d/config.before"
dd if=/dev/zero of="$d/small/fill" bs=4k status=none 2>/dev/null || true
expect_exit 3 "$SEINSTALL" apply --root "$d/small" --mode enforcing --bootloader none
assert_contains "message" "$ERR" "No space left on device"
cmp -s "$d/small/etc/selinux/config" "$d/config.before" || fail "full disk: the config is not whole"
echo "ok: full disk: the config is whole"
rm -f "$d/small/fill"
mount -o remount,ro "$d/small" || fail "remount ro"
expect_exit 3 "$SEINSTALL" apply --root "$d/small" --mode enforcing --bootloader none
assert_contains "message" "$ERR" "is mounted read-only: seinstall cannot write /"
assert_contains "message says nothing changed" "$ERR" "Nothing was changed."
cmp -s "$d/small/etc/selinux/config" "$d/config.before" || fail "read-only: the config changed"
echo "ok: read-only target: the config is whole"
