#!/bin/bash
# A config write interrupted at any step leaves the old file or the new one, never a part:
# every system call si_root_write_atomic() makes fails in turn (ENOSPC, EIO) or is the point where
# the process is killed (SIGKILL), and after each the file must be exactly old or exactly new;
# exit 0 only with the new one; an error leaves no temporary file; a killed write run again
# completes.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/harden-lib.sh"
require_rootfs_tool
require_strace

d=$(scratch_dir)
root=$d/root
cfg=$root/etc/selinux/config
mkdir -p "$root/etc/selinux"
printf 'SELINUX=disabled\nSELINUXTYPE=default\n' >"$d/old"
# The new content is large, so a partly written file could not pass for either.
{
        printf 'SELINUX=enforcing\nSELINUXTYPE=default\n'
        for i in $(seq 1 4000); do printf '# padding line %05d to make the file large\n' "$i"; done
} >"$d/new"

reset() {
        rm -f "$root"/etc/selinux/.#config.*
        cp "$d/old" "$cfg"
}
write() {
        "$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new"
}

reset
under_strace -qq -f -o "$d/trace" "$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new" ||
        fail "the write does not work without faults"
cmp -s "$cfg" "$d/new" || fail "the write without faults did not give the new file"
syscalls_after "$root" "$d/trace" >"$d/calls"
ncalls=$(wc -l <"$d/calls")
[ "$ncalls" -ge 10 ] || fail "only $ncalls system calls found in the trace: $(cat "$d/trace")"
echo "ok: $ncalls system calls from opening the root on: $(awk '{print $1}' "$d/calls" | sort -u | tr '\n' ' ')"

runs=0 kills=0 leftovers=0
for fault in error=ENOSPC error=EIO signal=KILL; do
        while read -r name idx; do
                reset
                rc=0
                inject "$name" "$idx" "$fault" "$ROOTFS_TOOL" write "$root" /etc/selinux/config "$d/new" \
                        >/dev/null 2>"$d/err" || rc=$?
                runs=$((runs + 1))
                what="$fault at $name #$idx (exit $rc)"
                if cmp -s "$cfg" "$d/new"; then
                        state=new
                elif cmp -s "$cfg" "$d/old"; then
                        state=old
                else
                        fail "$what: the config is neither the old nor the new file ($(wc -c <"$cfg") bytes)"
                fi
                [ "$rc" != 0 ] || [ "$state" = new ] || fail "$what: exit 0 but the old file is still there"
                temps=$(find "$root/etc/selinux" -name '.#config.*' | wc -l)
                case $fault in
                error=*)
                        [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "$what: expected exit 0 or 3; $(cat "$d/err")"
                        [ "$temps" = 0 ] || fail "$what: left $temps temporary file(s) behind"
                        ;;
                signal=KILL)
                        [ "$rc" = 0 ] || kills=$((kills + 1))
                        leftovers=$((leftovers + temps))
                        write 2>"$d/err" || fail "$what: writing again failed: $(cat "$d/err")"
                        cmp -s "$cfg" "$d/new" || fail "$what: writing again did not give the new file"
                        ;;
                esac
        done <"$d/calls"
done
echo "ok: $runs interrupted writes ($kills killed, $leftovers temporary files left by kills): each left the old or the new file"
