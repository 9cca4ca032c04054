#!/bin/bash
# Relabel under faults and on hostile targets, on a loop-mounted ext4 target:
#  - killed with SIGKILL at random points (timed, and at the Nth setxattr with strace), then run
#    again: the labels are exactly those of an uninterrupted run, and a further run changes
#    nothing;
#  - entries created and removed while the walk runs: no failure, and a run afterwards is exact;
#  - symlinks (absolute, relative, a mount point replaced by one between check and relabel) to
#    files outside the target, and a bind mount of an outside directory inside it: nothing
#    outside the target gets a label.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/harden-lib.sh"
require_loop
command -v getfattr >/dev/null || skip "getfattr is not installed (package attr)"
ls /etc/selinux/default/policy/policy.* >/dev/null 2>&1 || skip "no selinux-policy-default here"

d=$(scratch_dir)
t=$d/t
make_fs_image "$d/t.img" ext4 96
mount_image "$d/t.img" "$t"
mkdir -p "$t/etc/selinux/default/policy" "$t/etc/selinux/default/contexts/files"
cp /etc/selinux/default/policy/policy.* "$t/etc/selinux/default/policy/"
cp /etc/selinux/default/contexts/files/file_contexts* "$t/etc/selinux/default/contexts/files/"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
# A tree of some 12000 entries in places with different contexts.
python3 - "$t" <<'PY' || fail "could not make the tree"
import os, sys
t = sys.argv[1]
for top in ["usr/bin", "usr/lib/x86_64-linux-gnu", "usr/share/doc", "var/lib/dpkg/info",
            "var/log", "home/alice/.cache", "etc/systemd/system", "root", "opt/app", "srv/www"]:
    for i in range(12):
        d = os.path.join(t, top, "d%02d" % i)
        os.makedirs(d, exist_ok=True)
        for k in range(100):
            open(os.path.join(d, "f%03d%s" % (k, ".so.1" if k % 3 == 0 else "")), "w").close()
os.symlink("../lib/x86_64-linux-gnu", os.path.join(t, "usr/bin/libdir"))
os.mkfifo(os.path.join(t, "root/fifo"))
PY
relabel() {
        "$SEINSTALL" relabel --root "$t" --no-progress --json "$@"
}
# labels: every entry's path and label, sorted.
labels() {
        (cd "$t" && getfattr -R -h -n security.selinux --absolute-names . 2>/dev/null) |
                awk '/^# file:/ {f = $3} /^security.selinux=/ {print f, $0}' | sort
}
json_field() {
        python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}
unlabel() {
        (cd "$t" && find . -xdev -print0 | xargs -0 -r setfattr -h -x security.selinux 2>/dev/null) || true
}

start=$(date +%s%N)
OUT=$(relabel) || fail "the first relabel failed: $OUT"
secs_ns=$(($(date +%s%N) - start))
labels >"$d/reference"
n=$(wc -l <"$d/reference")
[ "$n" -gt 12000 ] || fail "only $n labeled entries after a full relabel"
echo "ok: reference run: $n labeled entries in $((secs_ns / 1000000)) ms"
OUT=$(relabel) || fail "second run failed"
assert_eq "a second run changes" 0 "$(echo "$OUT" | json_field changed)"

echo "== killed at random moments, then run again"
kills=0
for i in $(seq 1 6); do
        unlabel
        relabel >/dev/null 2>&1 &
        pid=$!
        # somewhere between the start and the end of a full run
        sleep "0.$(printf '%03d' $((RANDOM % (secs_ns / 1000000 + 1) % 1000)))"
        kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
        wait "$pid" 2>/dev/null
        OUT=$(relabel) || fail "run $i after the kill failed: $OUT"
        labels >"$d/after"
        cmp -s "$d/reference" "$d/after" || fail "run $i after a kill: labels differ: $(diff "$d/reference" "$d/after" | head -5)"
done
echo "ok: 6 runs ($kills killed before the end), each run again gave the exact labels"

if command -v strace >/dev/null; then
        echo "== killed at the Nth label written (strace), then run again"
        for nth in 1 7 300 3000; do
                unlabel
                under_strace -qq -f -o /dev/null -e trace=lsetxattr,fsetxattr \
                        -e inject=lsetxattr,fsetxattr:signal=KILL:when="$nth" \
                        "$SEINSTALL" relabel --root "$t" --no-progress --threads 1 >/dev/null 2>&1
                OUT=$(relabel) || fail "after a kill at label $nth: $OUT"
                labels >"$d/after"
                cmp -s "$d/reference" "$d/after" || fail "killed at label $nth: labels differ"
                echo "ok: killed at label $nth, run again: exact"
        done
fi

echo "== entries appearing and vanishing during the walk"
unlabel
(
        for i in $(seq 1 400); do
                mkdir -p "$t/var/log/churn$((i % 7))" 2>/dev/null
                touch "$t/var/log/churn$((i % 7))/f$i" "$t/usr/bin/new$i" 2>/dev/null
                rm -rf "$t/var/log/churn$(((i + 3) % 7))" "$t/usr/bin/new$((i - 5))" 2>/dev/null
        done
) &
churn=$!
OUT=$(relabel) && rc=0 || rc=$?
wait "$churn"
[ "$rc" = 0 ] || fail "relabel during churn: exit $rc: $OUT"
echo "ok: relabel while entries come and go: exit 0, $(echo "$OUT" | json_field errors) errors"
rm -rf "$t"/var/log/churn* "$t"/usr/bin/new*
OUT=$(relabel) || fail "relabel after churn"
labels >"$d/after"
cmp -s "$d/reference" "$d/after" || fail "after churn: labels differ: $(diff "$d/reference" "$d/after" | head)"
echo "ok: after the churn a run gives the exact labels"

echo "== hostile: symlinks to outside files and directories"
out=$d/outside
mkdir -p "$out"
echo secret >"$out/file"
setfattr -n security.selinux -v "system_u:object_r:shadow_t:s0" "$out/file"
setfattr -n security.selinux -v "system_u:object_r:shadow_t:s0" "$out"
ln -s "$out/file" "$t/usr/bin/abs-link"
ln -s "../../../../../../../../..$out/file" "$t/usr/bin/rel-link"
ln -s "$out" "$t/srv/outdir"
OUT=$(relabel) || fail "relabel with hostile links: $OUT"
for f in "$out/file" "$out"; do
        lab=$(getfattr --absolute-names -h --only-values -n security.selinux "$f" | tr -d '\0')
        assert_eq "label of $f outside the target" "system_u:object_r:shadow_t:s0" "$lab"
done
lab=$(getfattr --absolute-names -h --only-values -n security.selinux "$t/usr/bin/abs-link" | tr -d '\0')
assert_contains "the symlink itself is labeled" "$lab" "system_u:object_r:"

echo "== hostile: a mount point replaced by a symlink between check and relabel"
make_fs_image "$d/home.img" ext4 16
mount_image "$d/home.img" "$t/home"
echo data >"$t/home/x"
expect_exit 0 "$SEINSTALL" check --root "$t" --mode permissive
umount "$t/home"
mv "$t/home" "$t/home.old"
ln -s "$out" "$t/home"
OUT=$(relabel) || fail "relabel after the swap: $OUT"
lab=$(getfattr --absolute-names -h --only-values -n security.selinux "$out/file" | tr -d '\0')
assert_eq "outside file after the swapped mount point" "system_u:object_r:shadow_t:s0" "$lab"
rm "$t/home"
mv "$t/home.old" "$t/home"

echo "== hostile: a bind mount of an outside directory inside the target"
mkdir -p "$t/opt/host"
mount --bind "$out" "$t/opt/host" || fail "bind mount"
on_exit "umount -l '$t/opt/host'"
OUT=$(relabel) || fail "relabel with a bind mount: $OUT"
lab=$(getfattr --absolute-names -h --only-values -n security.selinux "$out/file" | tr -d '\0')
assert_eq "outside file seen through a bind mount" "system_u:object_r:shadow_t:s0" "$lab"
assert_contains "skipped mounts" "$(echo "$OUT" | json_field skipped_mounts)" "/opt/host"
umount "$t/opt/host"
