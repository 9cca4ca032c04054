#!/bin/bash
# Files with several names (hard links) on more than 64 filesystems (issue 26, item 10): the
# walk remembered such files only on the first 64 filesystems that held one; on a 65th it
# labeled them through each name as met, so a file whose names call for different labels got
# the label of whichever name came last: relabel exited 0, verify then reported mismatches and
# a second relabel changed them again. Here 70 btrfs subvolumes (each its own st_dev) under
# /home each hold a file named /home/uNN/.ssh/id and /home/uNN/notes: relabel (1 thread and
# the default) must give both names ssh_home_t, the label of the name that sorts first, verify
# must exit 0 and a second relabel must change nothing.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
N=70

d=$(scratch_dir)
linked_homes_fs "$d" "$N"
t=$d/t
devs=$(for i in $(seq -w 0 $((N - 1))); do stat -c %d "$t/home/u$i/notes"; done | sort -u | wc -l)
assert_eq "filesystems holding the files with two names" "$N" "$devs"

for threads in 1 0; do
        opt=()
        [ "$threads" = 0 ] || opt=(--threads "$threads")
        # start from labels that are wrong for both names
        linked_homes_mislabel "$t" "$N"
        expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress "${opt[@]}"
        linked_homes_check "$t" "$N"
        expect_exit 0 "$SEINSTALL" verify --root "$t" --no-progress
        assert_contains "verify" "$OUT" "every label matches"
        expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --json "${opt[@]}"
        changed=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["changed"])' <<<"$OUT")
        assert_eq "labels a second relabel (${opt[*]:-default threads}) changed" 0 "$changed"
done
# A table of 4 files (SEINSTALL_LINKS_MAX) for 70: each full table halves the part of the files
# the walk handles and leaves the rest to another pass over the tree; still no wrong label, and
# each file written once.
linked_homes_mislabel "$t" "$N"
SEINSTALL_LINKS_MAX=4 expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --json
assert_contains "relabel with a table of 4 files" "$ERR" "the tree was walked"
python3 - "$N" "$OUT" <<'PY' || fail "relabel with a table of 4 files: $OUT"
import json, sys
n, d = int(sys.argv[1]), json.loads(sys.argv[2])
assert d["errors"] == 0, d.get("error_messages")
assert d["changed"] == n, d["changed"]
PY
linked_homes_check "$t" "$N"
expect_exit 0 "$SEINSTALL" verify --root "$t" --no-progress
SEINSTALL_LINKS_MAX=1 expect_exit 0 "$SEINSTALL" verify --root "$t" --no-progress
assert_contains "verify with a table of 1 file" "$OUT" "every label matches"
expect_exit 2 env SEINSTALL_LINKS_MAX=0 "$SEINSTALL" relabel --root "$t" --no-progress
assert_contains "SEINSTALL_LINKS_MAX=0" "$ERR" "SEINSTALL_LINKS_MAX"
echo "ok: files with two names on $N filesystems labeled through their first name"
