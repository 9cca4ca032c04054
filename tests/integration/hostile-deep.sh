#!/bin/bash
# A tree far deeper than the open-file limit, relabeled with --threads 1 (issue 18, item 9):
# the walk keeps a bounded number of directories open and reopens the others by name on the
# way back, so it finishes (it failed with "Too many open files" one fd per level), labels
# every level, and a second run changes nothing.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
levels=3000
python3 - "$t/deep" "$levels" <<'PY' || fail "making the deep tree"
import os, sys
top, n = sys.argv[1], int(sys.argv[2])
os.mkdir(top)
fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
for i in range(n):
    # a sibling file and a sibling directory at every level, so frames are resumed mid-listing
    open(f"f{i}", "w", opener=lambda p, fl: os.open(p, fl, 0o644, dir_fd=fd)).close()
    os.mkdir("s", dir_fd=fd)
    os.mkdir("d", dir_fd=fd)
    nfd = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
open("leaf", "w", opener=lambda p, fl: os.open(p, fl, 0o644, dir_fd=fd)).close()
PY
entries=$((levels * 3 + 1))
rc=0
(ulimit -n 200 && "$SEINSTALL" relabel --root "$t" --threads 1 --no-progress --json) >"$d/out" 2>"$d/err" || rc=$?
[ "$rc" = 0 ] || fail "relabel of a $levels-level tree with 200 open files exited $rc: $(tail -c 600 "$d/err")"
python3 - "$d/out" "$entries" <<'PY' || fail "counts: $(head -c 600 "$d/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["errors"] == 0, d["error_messages"][:3]
assert d["entries"] >= int(sys.argv[2]), (d["entries"], sys.argv[2])
PY
leaf=$(python3 -c "import sys; print(sys.argv[1] + '/d' * $levels + '/leaf')" "$t/deep")
python3 - "$leaf" <<'PY' || fail "the deepest file has no label"
import os, sys
# walk down by fds: the path is longer than PATH_MAX
parts = sys.argv[1].split("/")
fd = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
for p in parts[1:-1]:
    nfd = os.open(p, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd); os.close(fd); fd = nfd
lfd = os.open(parts[-1], os.O_RDONLY, dir_fd=fd)
assert os.getxattr(lfd, "security.selinux"), "no label"
PY
echo "ok: $levels levels ($entries entries) labeled with at most 200 open files"
(ulimit -n 200 && "$SEINSTALL" relabel --root "$t" --threads 1 --no-progress --json) >"$d/out2" 2>"$d/err" ||
        fail "second run failed: $(tail -c 600 "$d/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["changed"] == 0 and d["errors"] == 0' "$d/out2" ||
        fail "a second run changed labels: $(head -c 600 "$d/out2")"
echo "ok: a second run changed nothing"
