#!/bin/bash
# `seinstall avc --log` on a log of denials naming their file by device and inode (issue 26,
# item 9): before, each such denial searched up to 200,000 entries of the filesystem anew, so
# 400 lines took more than 30 s. Now each filesystem is walked once for the whole log, within
# one budget (entries read plus directory components opened), and lookups come from that index:
# - 100,000 denials (a 20 MB log) on a loop-mounted ext4 whose tree is a chain of 1,500
#   directories (walking it costs more than the budget) end within 30 s;
# - the files the walk reached are named (path and expected label); the denials of the file
#   below the budget are reported as not searched, in the text and in the JSON (`unsearched`);
# - 20,000 distinct unknown dev= names cost one lookup each.
. "$(dirname "$0")/../lib.sh"
require_root
require_loop
[ -f /etc/selinux/default/contexts/files/file_contexts ] || skip "no selinux-policy-default on this machine (make deps)"

d=$(scratch_dir)
make_fs_image "$d/fs.img" ext4 64
mount_image "$d/fs.img" "$d/mnt"
loopdev=$(findmnt -n -o SOURCE "$d/mnt")
dev=${loopdev##*/}
[ -r "/sys/class/block/$dev/dev" ] || skip "no /sys/class/block/$dev"

mkdir "$d/mnt/etc"
printf 'x\n' >"$d/mnt/etc/shadow"
deep=$d/mnt$(printf '/a%.0s' $(seq 1500))
mkdir -p "$deep"
printf 'x\n' >"$deep/bottom"
top_ino=$(stat -c %i "$d/mnt/etc/shadow")
deep_ino=$(stat -c %i "$deep/bottom")

# 40,000 denials of the reachable file, 40,000 of the one beyond the budget, 20,000 naming
# devices that do not exist; all of an unlabeled file (a label cause: grouped by file).
python3 - "$d/log" "$dev" "$top_ino" "$deep_ino" <<'PY'
import sys
out, dev, top, deep = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tail = ' scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=1\n'
with open(out, 'w') as f:
    for i in range(100000):
        if i % 5 < 2:
            name, d, ino = 'bottom', dev, deep
        elif i % 5 < 4:
            name, d, ino = 'shadow', dev, top
        else:
            name, d, ino = 'x', 'nosuch%d' % i, 7
        f.write('audit: type=1400 audit(%d.0:%d): avc:  denied  { read } for  pid=1 comm="cat" '
                'name="%s" dev="%s" ino=%d%s' % (1000 + i, i, name, d, ino, tail))
PY
echo "log: $(wc -l <"$d/log") lines, $(du -k "$d/log" | cut -f1) KB"

start=$SECONDS
timeout -s KILL 120 "$SEINSTALL" avc --log "$d/log" >"$d/out" 2>"$d/err" && rc=0 || rc=$?
took=$((SECONDS - start))
[ "$rc" != 137 ] || fail "avc --log did not end within 120 s"
[ "$rc" = 0 ] || fail "avc --log exited $rc: $(cat "$d/err")"
[ "$took" -lt 30 ] || fail "avc --log took $took s for 100,000 lines, expected under 30 s"
echo "ok: 100,000 lines in $took s"
assert_contains "total" "$(cat "$d/out")" "100000 denials"
assert_contains "reached file named" "$(cat "$d/out")" "$d/mnt/etc/shadow"
assert_contains "unsearched, text" "$(cat "$d/out")" "not searched for: 40000"
if grep -q "/bottom" "$d/out"; then fail "the file beyond the budget was named: $(grep /bottom "$d/out")"; fi

timeout -s KILL 120 "$SEINSTALL" avc --log "$d/log" --json >"$d/json" 2>"$d/err" && rc=0 || rc=$?
[ "$rc" = 0 ] || fail "avc --log --json exited $rc: $(cat "$d/err")"
python3 - "$d/json" "$d/mnt/etc/shadow" <<'PY' || fail "JSON: $(head -c 2000 "$d/json")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["denials"] == 100000, doc["denials"]
assert doc["unsearched"] == 40000, doc["unsearched"]
assert any(g.get("path") == sys.argv[2] and g["count"] == 40000 for g in doc["label"]), doc
assert not any("bottom" in (g.get("path") or "") for g in doc["label"] + doc["policy"]), doc
PY
echo "ok: JSON says 40000 unsearched, the reachable file named with its 40000 denials"
