#!/bin/bash
# relabel, differentially: a target made of this machine's real system files (tens of thousands
# of entries) plus device nodes, fifos, sockets, symlinks, hard links, odd names, a path longer
# than PATH_MAX, wrong labels left from before, a second ext4 mount (labeled) and a tmpfs and a
# proc mount (skipped) is labeled by `seinstall relabel`, then every entry is compared with
# libselinux's selabel_lookup_raw() on the same file contexts: zero mismatches. Then the same
# on the already labeled tree (nothing changes) and after a run killed with SIGKILL midway.
. "$(dirname "$0")/../lib.sh"
require_tool setfattr attr
require_tool getfattr attr
require_loop
FC=/etc/selinux/default/contexts/files/file_contexts
[ -r "$FC" ] || skip "no $FC (make deps installs selinux-policy-default)"
ORACLE=$TOP/${SEINSTALL_BUILD:-build}/tests/helpers/fc-oracle
[ -x "$ORACLE" ] || fail "$ORACLE not built (make check-quick builds it)"

d=$(scratch_dir)
make_fs_image "$d/root.img" ext4 1200
make_fs_image "$d/srv.img" ext4 64
R=$d/root
mount_image "$d/root.img" "$R"

# Real system files, merged-/usr like Debian 12.
mkdir -p "$R/usr/lib" "$R/usr/share" "$R/var" "$R/home" "$R/root" "$R/tmp" "$R/proc" "$R/srv" \
        "$R/dev" "$R/run"
cp -a /etc "$R/"
cp -a /usr/bin /usr/sbin "$R/usr/"
cp -a /usr/lib/systemd /usr/lib/python3 "$R/usr/lib/"
# the library directory's names and small files (the large libraries add bytes, not entries)
(cd / && find usr/lib/x86_64-linux-gnu -xdev \( ! -type f -o -size -64k -o -name 'ld-linux*' \
        -o -name 'libc.so*' \) -print0 | tar --null --no-recursion -cf - -T -) | tar -C "$R" -xf -
cp -a /usr/share/man /usr/share/doc "$R/usr/share/"
cp -a /var/lib "$R/var/"
for l in bin sbin lib lib64; do ln -s "usr/$l" "$R/$l"; done
mkdir -p "$R/usr/lib64" && ln -sf /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
        "$R/usr/lib64/ld-linux-x86-64.so.2"

# Every file type, and names no one plans for.
mknod "$R/dev/null" c 1 3
mknod "$R/dev/sda" b 8 0
mkfifo "$R/run/initctl" "$R/var/fifo"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$R/run/test.sock"
ln -s ../etc/passwd "$R/root/passwd-link"
ln -s /nonexistent "$R/var/dangling"
ln "$R/etc/hostname" "$R/etc/hostname.hardlink"
mkdir -p "$R/home/user/.ssh" "$R/var/www/html"
echo key >"$R/home/user/.ssh/authorized_keys"
ln "$R/home/user/.ssh/authorized_keys" "$R/home/user/.ssh/authorized_keys2"
touch "$R/var/www/html/index.html"
touch "$R/etc/$(printf 'new\nline')" "$R/etc/back\\slash" "$R/etc/sp ace" "$R/etc/$(printf '\xff\xfe')" \
        "$R/etc/-dash" "$R/usr/bin/$(printf 'x%.0s' {1..250})"
deep=$R/var/deep
mkdir -p "$deep"
(
        cd "$deep" || exit 1
        for i in $(seq 1 24); do
                n=$(printf "d%03d%.0s" "$i" {1..50})
                mkdir "${n:0:200}" && cd "${n:0:200}" || exit 1
        done
        touch leaf
) || fail "could not build the deep path"
# Labels left from an earlier life: -F must reset user and role too.
setfattr -h -n security.selinux -v unconfined_u:object_r:user_home_t:s0 "$R/etc/passwd"
setfattr -h -n security.selinux -v system_u:object_r:tmp_t:s0 "$R/usr/bin"

# A second ext4 mount (labeled) and mounts that must be skipped.
mount_image "$d/srv.img" "$R/srv"
mkdir -p "$R/srv/www" && touch "$R/srv/www/page" "$R/srv/file"
mount -t tmpfs tmpfs "$R/tmp" && on_exit "umount -l '$R/tmp'"
touch "$R/tmp/in-tmpfs"
mount -t proc proc "$R/proc" && on_exit "umount -l '$R/proc'"
entries=$(find "$R" -xdev | wc -l)
echo "target: $entries entries on its root filesystem"
[ "$entries" -ge 20000 ] || fail "only $entries entries: not the tens of thousands this test needs"

compare() {
        local out
        out=$("$ORACLE" "$FC" "$R" /tmp /proc) || {
                echo "$out" | head -40
                fail "$1: labels differ from selabel_lookup_raw"
        }
        echo "$out" | tail -1
        echo "ok: $1: every entry carries the label libselinux gives it"
}

# 1. A fresh relabel.
start=$(date +%s%N)
expect_exit 0 "$SEINSTALL" relabel --root "$R" --json --no-progress
echo "relabel took $(seconds_since "$start") s"
json=$OUT
echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["ok"] is True, j
assert j["errors"] == 0, j
assert j["changed"] > 20000, j
skipped = {m["mountpoint"]: m for m in j["skipped_mounts"]}
assert "/tmp" in skipped and "/proc" in skipped, skipped
assert "/srv" not in skipped, skipped
assert any(v["path"] == "/etc/shadow" and v["ok"] for v in j["verified"]), j["verified"]
print("ok: json: %d entries, %d changed, skipped %s" % (j["entries"], j["changed"], sorted(skipped)))
' || fail "relabel --json summary: $json"
compare "fresh relabel"
assert_eq "label of the second mount's files" system_u:object_r:var_t:s0 \
        "$(getfattr --only-values -n security.selinux "$R/srv/file" | tr -d '\0')"
[ -z "$(getfattr --only-values -n security.selinux "$R/tmp/in-tmpfs" 2>/dev/null)" ] ||
        fail "a file on the skipped tmpfs was labeled"
echo "ok: nothing on the tmpfs was touched"

# 2. Again: nothing to change.
expect_exit 0 "$SEINSTALL" relabel --root "$R" --json --no-progress
changed=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["changed"])')
assert_eq "labels changed by a second run" 0 "$changed"

# 3. Scramble every label, start a relabel, kill it midway, run it again. "Midway" is checked,
# not hoped for: the run died of SIGKILL, and a dry run afterwards finds some of the scrambled
# labels fixed and some not. The kill comes once the progress line shows 500 entries done; if a
# fast machine finishes first, shorter fixed delays are tried.
printf '/.*\tsystem_u:object_r:tmp_t:s0\n' >"$d/scramble_fc"
# to_change: how many labels a relabel would change now, in $CHANGE
to_change() {
        expect_exit 0 "$SEINSTALL" relabel --root "$R" --dry-run --json --no-progress
        CHANGE=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["changed"])')
        [ -n "$CHANGE" ] || fail "no count in the dry run's JSON: $OUT"
}
killed_midway=
for delay in progress 0.2 0.1 0.05; do
        expect_exit 0 "$SEINSTALL" relabel --root "$R" --file-contexts "$d/scramble_fc" --no-progress
        to_change
        total=$CHANGE
        "$SEINSTALL" relabel --root "$R" --threads 1 --progress >/dev/null 2>"$d/progress" &
        pid=$!
        if [ "$delay" = progress ]; then
                for _ in $(seq 1 6000); do
                        n=$(tr '\r' '\n' <"$d/progress" | grep -ao 'relabel: [0-9]*' | tail -1)
                        [ "${n#relabel: }" -ge 500 ] 2>/dev/null && break
                        kill -0 "$pid" 2>/dev/null || break
                        sleep 0.01
                done
        else
                sleep "$delay"
        fi
        kill -KILL "$pid" 2>/dev/null
        wait "$pid"
        rc=$?
        to_change
        left=$CHANGE
        echo "kill after $delay: exit $rc, $left of $total scrambled labels still to fix"
        if [ "$rc" = 137 ] && [ "$left" -gt 0 ] && [ "$left" -lt "$total" ]; then
                killed_midway=$delay
                break
        fi
done
[ -n "$killed_midway" ] || fail "could not kill a relabel midway (every try ended before or after labeling)"
echo "ok: a relabel killed by SIGKILL midway ($left of $total labels left)"
expect_exit 0 "$SEINSTALL" relabel --root "$R" --json --no-progress
compare "relabel after a killed run"

# 4. --dry-run writes nothing.
printf '/etc(/.*)?\tsystem_u:object_r:tmp_t:s0\n' >"$d/dry_fc"
expect_exit 0 "$SEINSTALL" relabel --root "$R" --file-contexts "$d/dry_fc" --dry-run --json --no-progress
would=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["changed"])')
[ "$would" -gt 100 ] || fail "dry run would change $would entries"
expect_exit 0 "$SEINSTALL" relabel --root "$R" --json --no-progress
changed=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["changed"])')
assert_eq "labels changed after a dry run" 0 "$changed"
# 5. Usage errors are exit 2 and name the problem.
expect_exit 2 "$SEINSTALL" relabel --root "$R" --threads 0
assert_contains "--threads 0" "$ERR" "--threads"
expect_exit 2 "$SEINSTALL" relabel --root "$R" --policy default --file-contexts "$FC"
expect_exit 2 "$SEINSTALL" relabel --root "$R" --file-contexts "$d/missing_fc" --dry-run
assert_contains "missing file contexts" "$ERR" "missing_fc"
echo "ok: relabel-differential"
