#!/bin/bash
# A read-only or full target is refused up front by check, relabel and install, with one line
# naming the mount and the fix (remount read-write; ENOSPC and the space needed), not a hundred
# failed writes; relabel counts only what it wrote, and many errors end with "and N more"
# (issue 34, item 4). Loop-mounted ext4 images, made read-only and full for real.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop

d=$(scratch_dir)
make_fs_image "$d/t.img" ext4 96
mount_image "$d/t.img" "$d/t"
make_target "$d/t"
snapshot() { (cd "$1" && find . -xdev -printf '%p %m %s %T@\n' | sort); }

# read-only
mount -o remount,ro "$d/t" || fail "remount ro"
expect_exit 1 "$SEINSTALL" check --root "$d/t"
assert_contains "check names the read-only mount" "$OUT" "is mounted read-only: seinstall cannot write"
assert_contains "check's fix" "$OUT" "fix: remount it read-write: mount -o remount,rw $d/t"
expect_exit 1 "$SEINSTALL" check --root "$d/t" --unsupported warn
echo "ok: --unsupported warn does not accept a read-only target"
expect_exit 3 "$SEINSTALL" relabel --root "$d/t" --no-progress
assert_eq "relabel on a read-only target: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
assert_contains "relabel says it" "$ERR" "is mounted read-only"
assert_contains "relabel's fix" "$ERR" "mount -o remount,rw $d/t"
expect_exit 3 "$SEINSTALL" relabel --root "$d/t" --no-progress --json
assert_json_error 3
json_assert <(echo "$OUT") -- 'd["error"]["errno"] == "EROFS"' || fail "relabel --json: $OUT"
echo "ok: relabel --json: EROFS"
expect_exit 0 "$SEINSTALL" relabel --root "$d/t" --no-progress --dry-run
echo "ok: a dry run on a read-only target writes nothing and may run"
expect_exit 1 "$SEINSTALL" install --root "$d/t" --mode enforcing --no-cmdline
assert_contains "install refused" "$OUT" "Refused: nothing in the target was changed."
assert_contains "install names the mount" "$OUT" "is mounted read-only"
case $OUT$ERR in *"first boot"*) fail "install on a read-only target speaks of the first boot: $OUT" ;; esac

# full
mount -o remount,rw "$d/t" || fail "remount rw"
dd if=/dev/zero of="$d/t/fill" bs=1M 2>/dev/null
sync
before=$(snapshot "$d/t")
expect_exit 1 "$SEINSTALL" check --root "$d/t" --json
json_assert <(echo "$OUT") -- 'd["verdict"] == "refuse"' \
        '"ENOSPC" in d["mounts"][0]["reason"] and "KiB free" in d["mounts"][0]["reason"]' \
        '"free at least 1024 KiB" in d["mounts"][0]["fix"]' || fail "check --json on a full target: $OUT"
echo "ok: check --json: a full target refused, ENOSPC and the space needed"
expect_exit 3 "$SEINSTALL" relabel --root "$d/t" --no-progress --json
json_assert <(echo "$OUT") -- 'd["error"]["errno"] == "ENOSPC"' || fail "relabel --json on a full target: $OUT"
echo "ok: relabel --json on a full target: ENOSPC, not EIO"
expect_exit 1 "$SEINSTALL" install --root "$d/t" --mode enforcing --no-cmdline
assert_eq "files after install on a full target" "$before" "$(snapshot "$d/t")"
rm "$d/t/fill"

# errors a write cannot get past: counted, not counted as changed, and "and N more"
mkdir "$d/t/stuck"
for i in $(seq 150); do : >"$d/t/stuck/f$i"; done
chattr +i "$d/t"/stuck/f* || skip "chattr +i does not work here"
on_exit "chattr -i '$d/t'/stuck/f*"
expect_exit 3 "$SEINSTALL" relabel --root "$d/t" --no-progress --json
json_assert <(echo "$OUT") -- 'd["relabel"]["errors"] == 150' || fail "relabel --json with 150 immutable files: $OUT"
echo "ok: 150 errors counted"
expect_exit 0 "$SEINSTALL" relabel --root "$d/t" --no-progress --dry-run
expect_exit 3 "$SEINSTALL" relabel --root "$d/t" --no-progress
assert_contains "the errors end with how many more" "$ERR" "seinstall: and 50 more"
assert_eq "error lines" 101 "$(grep -c "^seinstall: Could not set the label\|^seinstall: and 50 more" <<<"$ERR")"
changed=$(grep -o '[0-9]* changed' <<<"$OUT" | head -n1)
assert_eq "changed counts only what was written (the first run labeled the rest)" "0 changed" "$changed"
