#!/bin/bash
# A read-only or full target is refused up front by check, relabel, install and apply, with one line
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
before=$(snapshot "$d/t")
expect_exit 3 "$SEINSTALL" apply --root "$d/t" --mode enforcing
assert_eq "apply on a read-only target: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
assert_contains "apply names the mount and the file" "$ERR" \
        "/ (in $d/t) is mounted read-only: seinstall cannot write /.autorelabel there. Nothing was changed."
assert_contains "apply's fix" "$ERR" "Remount it read-write: mount -o remount,rw $d/t"
case $ERR in *"rw $d/t/"*) fail "the fix names a path with a trailing slash: $ERR" ;; esac
expect_exit 3 "$SEINSTALL" apply --root "$d/t" --mode enforcing --json
json_assert <(echo "$OUT") -- 'd["error"]["errno"] == "EROFS"' || fail "apply --json: $OUT"
expect_exit 0 "$SEINSTALL" apply --root "$d/t" --mode enforcing --dry-run
assert_eq "files after apply on a read-only target" "$before" "$(snapshot "$d/t")"
echo "ok: apply on a read-only target is refused before any write, naming the mount; its dry run runs"
# a separate read-only /boot: refused for the boot loader's file, the config left as it was
mount -o remount,rw "$d/t" || fail "remount rw"
mkdir -p "$d/t/boot/loader/entries"
printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda1 quiet\n' >"$d/t/boot/loader/entries/debian.conf"
make_fs_image "$d/b.img" ext4 16
mount_image "$d/b.img" "$d/t/boot"
mkdir -p "$d/t/boot/loader/entries"
printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda1 quiet\n' >"$d/t/boot/loader/entries/debian.conf"
mount -o remount,ro "$d/t/boot" || fail "remount /boot ro"
before=$(snapshot "$d/t")
expect_exit 3 "$SEINSTALL" apply --root "$d/t" --mode enforcing
assert_contains "apply names /boot" "$ERR" "/boot (in $d/t) is mounted read-only: seinstall cannot write /boot/loader/entries/debian.conf there."
assert_contains "apply's fix for /boot" "$ERR" "mount -o remount,rw $d/t/boot"
assert_eq "files after apply with a read-only /boot" "$before" "$(snapshot "$d/t")"
umount "$d/t/boot" || fail "umount /boot"
rm -rf "$d/t/boot/loader"
echo "ok: a read-only /boot is named, and nothing in / was changed either"
# a read-only bind of the root's own filesystem on /boot: the same st_dev as /, so the mount
# is told by its mount ID
mkdir -p "$d/t/boot/loader/entries"
printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda1 quiet\n' >"$d/t/boot/loader/entries/debian.conf"
mount --bind "$d/t/boot" "$d/t/boot" || fail "bind /boot"
on_exit "umount '$d/t/boot' 2>/dev/null"
mount -o remount,bind,ro "$d/t/boot" || fail "remount the bind of /boot ro"
expect_exit 3 "$SEINSTALL" apply --root "$d/t" --mode enforcing
assert_contains "apply names the read-only bind" "$ERR" "/boot (in $d/t) is mounted read-only: seinstall cannot write /boot/loader/entries/debian.conf there."
umount "$d/t/boot" || fail "umount the bind of /boot"
rm -rf "$d/t/boot/loader"
echo "ok: a read-only bind mount of the root's own filesystem is named as its own mount"
# an apply with nothing to change runs on a read-only target
expect_exit 0 "$SEINSTALL" apply --root "$d/t" --mode permissive
mount -o remount,ro "$d/t" || fail "remount ro"
expect_exit 0 "$SEINSTALL" apply --root "$d/t" --mode permissive
echo "ok: an apply with nothing to write runs on a read-only target"

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
