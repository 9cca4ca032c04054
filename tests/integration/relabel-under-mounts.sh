#!/bin/bash
# relabel --under-mounts (issue 15, item 3): one run labels the live tree and then what the
# mounts on the root's filesystem hide there (the mount-point directories and the files below
# them), with the contexts of their paths in the tree, visiting only those. Reference: the same
# tree relabeled with nothing mounted. A tmpfs over /dev hides a device node and a file, a tmpfs
# over /srv/www a file, a single file is bind-mounted over /etc/machine-id, a tmpfs over
# /dev/pts sits on the /dev tmpfs (not on the root's filesystem: not walked again).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
command -v getfattr >/dev/null || skip "no getfattr (attr, make deps)"

d=$(scratch_dir)
t=$d/t
make_fs_image "$d/root.img" ext4 64
mount_image "$d/root.img" "$t"
make_target "$t"
mkdir -p "$t/dev/pts" "$t/srv/www"
mknod "$t/dev/console" c 5 1 || fail "mknod"
mknod "$t/dev/null" c 1 3 || fail "mknod"
echo hidden >"$t/dev/stray"
echo hidden >"$t/srv/www/index.html"
echo 0123456789abcdef0123456789abcdef >"$t/etc/machine-id"

labels() {
        (cd "$t" && getfattr -R -h -d -m security.selinux --absolute-names . 2>/dev/null) |
                awk '/^# file: /{f=substr($0, 9)} /^security.selinux=/{print f, $0}' | sort
}
entries() {
        python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d[sys.argv[2]] if sys.argv[3] == "-" else d[sys.argv[2]][sys.argv[3]])' "$OUT" "$@"
}

# The reference: every file labeled with nothing mounted.
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress
ref=$(labels)
ref_console=$(label_of "$t/dev/console")
assert_contains "/dev/console's label from its path in the tree" "$ref_console" console_device_t
[ "$(label_of "$t/dev/null")" != "$ref_console" ] || fail "/dev/null and /dev/console got one label"
assert_contains "/srv/www/index.html's label" "$(label_of "$t/srv/www/index.html")" httpd_sys_content_t

# Wrong labels on what will be hidden, then the mounts.
wrong=system_u:object_r:user_home_t:s0
for f in dev dev/console dev/null dev/stray srv/www srv/www/index.html etc/machine-id; do
        setfattr -h -n security.selinux -v "$wrong" "$t/$f" || fail "setfattr $f"
done
mount -t tmpfs tmpfs "$t/dev" || fail "mount tmpfs on dev"
mkdir "$t/dev/pts" && echo live >"$t/dev/live"
mount -t tmpfs tmpfs "$t/dev/pts" || fail "mount tmpfs on dev/pts"
mount -t tmpfs tmpfs "$t/srv/www" || fail "mount tmpfs on srv/www"
echo outside >"$d/machine-id"
mount --bind "$d/machine-id" "$t/etc/machine-id" || fail "file bind mount"
on_exit "_umount_below '$t'"

# Without the option the hidden entries stay wrong (what the test below would catch).
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --json
plain_entries=$(entries entries -)
assert_eq "no pass below the mounts without --under-mounts" None "$(entries under_mounts -)"

expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --under-mounts --json
assert_eq "mount points walked below" "['/dev', '/etc/machine-id', '/srv/www']" \
        "$(entries under_mounts mountpoints)"
# /dev, console, null, stray, pts (the directory below the /dev/pts mount; <<none>> in the
# file contexts: left as it is) + machine-id + /srv/www, index.html: 8 entries, 7 labels that were
# wrong. Nothing else is visited twice.
assert_eq "entries visited below the mounts" 8 "$(entries under_mounts entries)"
assert_eq "labels changed below the mounts" 7 "$(entries under_mounts changed)"
assert_eq "total entries: the live walk plus the hidden ones" $((plain_entries + 8)) \
        "$(entries entries -)"
assert_eq "no errors" 0 "$(entries errors -)"

# A second run finds nothing to change below them (dry run, same count).
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --under-mounts --dry-run --json
assert_eq "dry run: entries below the mounts" 8 "$(entries under_mounts entries)"
assert_eq "dry run: labels to change below the mounts" 0 "$(entries under_mounts changed)"
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --under-mounts
assert_contains "text summary" "$OUT" "under mounts: 8 entries below 3 mount point(s), 0 changed"

# Unmounted, the whole tree carries the labels of the reference: the hidden entries the
# contexts of their paths in the tree (/dev/console, not /console), the rest unchanged.
_umount_below "$t"
got=$(labels)
[ "$ref" = "$got" ] || fail "labels differ from a relabel with nothing mounted: $(diff <(echo "$ref") <(echo "$got"))"
echo "ok: every label equals the unmounted relabel's ($(echo "$got" | wc -l) entries)"
assert_eq "/dev/console below the mount" "$ref_console" "$(label_of "$t/dev/console")"
