#!/bin/bash
# seinstall relabel's peak memory is that of one parsed policy, not more: one load of the
# target's policy serves the validation of the file contexts' labels and the mount check, and
# the patterns are compiled only after it is freed and its pages handed back. So on a small
# target its peak RSS stays within RELABEL_MEM_SLACK_MIB (default 3) of `seinstall check`'s,
# which loads the same policy once. (Before, a second policy and the patterns were held on top
# of the first: 25 MiB against check's 17 with Debian's default policy.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool getfattr attr
[ -x /usr/bin/time ] || skip "no /usr/bin/time (make deps installs time)"
# ASan's quarantine keeps freed memory mapped: the freed policy is the point of this test.
[[ $SEINSTALL_BUILD_DIR == */san ]] &&
        skip "a sanitized tree keeps what it frees (ASan's quarantine); the unsanitized pass measures this"
SLACK=${RELABEL_MEM_SLACK_MIB:-3}

d=$(scratch_dir)
T=$d/root
make_target "$T"

# peak KIND ARG...: the peak RSS of seinstall KIND --root TARGET ARG..., in KiB
peak() {
        local kind=$1
        shift
        /usr/bin/time -o "$d/time.$kind" -f '%M' "$SEINSTALL" "$kind" --root "$T" "$@" \
                >/dev/null 2>"$d/err.$kind" || true
        tail -1 "$d/time.$kind"
}
check_kib=$(peak check)
relabel_kib=$(peak relabel --no-progress)
grep -q '^security.selinux=' < <(getfattr -h -n security.selinux "$T/usr/bin/true" 2>&1) ||
        fail "relabel did not label $T/usr/bin/true: $(cat "$d/err.relabel")"
echo "peak RSS: check $((check_kib / 1024)) MiB, relabel $((relabel_kib / 1024)) MiB"
[ "$relabel_kib" -le $((check_kib + SLACK * 1024)) ] ||
        fail "relabel's peak RSS ($relabel_kib KiB) is more than ${SLACK} MiB above check's ($check_kib KiB)"
echo "ok: relabel's peak memory within ${SLACK} MiB of one policy load (check's)"
