#!/bin/bash
# A file with two names (hard links) deeper than PATH_MAX (issue 26, item 10): it is labeled
# after the walk through its name that sorts first, which was opened by its full path and
# failed with exit 3 "File name too long". It is now reopened a piece at a time, each below
# the directory the last piece opened: relabel exits 0, both names read back the label of
# the name that sorts first, and a second run changes nothing.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
# /deep/dddd.../a/x/linked and /deep/dddd.../b/linked: 40 levels of 200-byte names (8 KB)
python3 - "$t/deep" <<'PY' || fail "making the deep tree"
import os, sys
os.mkdir(sys.argv[1])
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
for i in range(40):
    name = "%03d" % i + "d" * 197
    os.mkdir(name, dir_fd=fd)
    nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.mkdir("etc", dir_fd=fd)
os.mkdir("tmp", dir_fd=fd)
open("linked", "w", opener=lambda p, fl: os.open(p, fl, 0o644, dir_fd=os.open("etc", os.O_RDONLY, dir_fd=fd))).close()
os.link("etc/linked", "tmp/linked", src_dir_fd=fd, dst_dir_fd=fd)
PY
# the expected label: what a path named like the first name (".../etc/linked") gets
printf '/.*\tsystem_u:object_r:default_t:s0\n/deep/.*/etc/.*\tsystem_u:object_r:etc_t:s0\n/deep/.*/tmp/.*\tsystem_u:object_r:tmp_t:s0\n' >"$d/fc"
for run in 1 2; do
        "$SEINSTALL" relabel --root "$t" --file-contexts "$d/fc" --no-progress --json >"$d/out" 2>"$d/err" && rc=0 || rc=$?
        [ "$rc" = 0 ] || fail "relabel run $run exited $rc: $(tail -c 600 "$d/err")"
        python3 - "$d/out" "$run" <<'PY' || fail "run $run: $(head -c 800 "$d/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["errors"] == 0, d.get("error_messages", [])[:3]
if sys.argv[2] == "2":
    assert d["changed"] == 0, d["changed"]
PY
done
python3 - "$t/deep" <<'PY' || fail "labels of the deep hard link"
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
for i in range(40):
    nfd = os.open("%03d" % i + "d" * 197, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
for name in ("etc/linked", "tmp/linked"):
    f = os.open(name, os.O_RDONLY, dir_fd=fd)
    label = os.getxattr(f, "security.selinux").rstrip(b"\0").decode()
    assert label == "system_u:object_r:etc_t:s0", (name, label)
print("both names: etc_t")
PY
echo "ok: a hard link 8 KB deep labeled through its first name, second run changes nothing"
