#!/bin/bash
# Relabel stays on the target's own mounts, decided by mount ID for every entry (issue 18,
# item 4): a directory bind-mounted from the installer's own filesystem (a package cache, as
# mkosi and mmdebstrap bind one: same st_dev as the target), and a bind-mounted single file
# (the installer's resolv.conf). Their labels, checksums and modes stay as they were; the
# target's own files are labeled.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
mkdir -p "$d/cache/archives" "$t/var/cache/apt" "$t/etc"
printf 'deb\n' >"$d/cache/archives/pkg.deb"
printf 'nameserver 10.0.0.1\n' >"$d/resolv.conf"
: >"$t/etc/resolv.conf"
outside_label=system_u:object_r:user_home_t:s0
for f in "$d/cache" "$d/cache/archives" "$d/cache/archives/pkg.deb" "$d/resolv.conf"; do
        setfattr -h -n security.selinux -v "$outside_label" "$f" 2>/dev/null ||
                skip "this filesystem ($(stat -f -c %T "$d")) does not take security.selinux"
done
[ "$(stat -c %d "$d/cache")" = "$(stat -c %d "$t")" ] || skip "the target and the cache are not on one filesystem"
mount --bind "$d/cache" "$t/var/cache/apt" || fail "bind mount"
on_exit "umount -l '$t/var/cache/apt'"
mount --bind "$d/resolv.conf" "$t/etc/resolv.conf" || fail "file bind mount"
on_exit "umount -l '$t/etc/resolv.conf'"

snapshot() {
        for f in "$d/cache" "$d/cache/archives" "$d/cache/archives/pkg.deb" "$d/resolv.conf"; do
                echo "$f $(stat -c '%a %u:%g' "$f") $(label_of "$f") $( [ -f "$f" ] && sha256sum <"$f")"
        done
}
before=$(snapshot)
for threads in 1 2; do
        expect_exit 0 "$SEINSTALL" relabel --root "$t" --threads "$threads" --no-progress
        [ "$before" = "$(snapshot)" ] || fail "--threads $threads: relabel changed files outside: $(diff <(echo "$before") <(snapshot))"
        echo "ok: --threads $threads left the bound directory and file alone"
done
[ -n "$(label_of "$t/usr/bin/true")" ] || fail "the target's own files were not labeled"
expect_exit 0 "$SEINSTALL" relabel --root "$t" --no-progress --json
assert_contains "skipped" "$OUT" "/var/cache/apt"
assert_contains "skipped" "$OUT" "/etc/resolv.conf"
