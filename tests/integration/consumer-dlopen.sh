#!/bin/bash
# A plugin host that loads the installed libseinstall.so.0 with dlopen: no link-time
# dependency, every call resolved at version SEINSTALL_1.0, and none of the library's private
# functions reachable through dlsym, whatever their name.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

d=$(scratch_dir)
dest=$d/dest
install_tree "$dest"
libdir=$dest/usr/lib/$MULTIARCH

# shellcheck disable=SC2086
gcc -std=c11 -Wall -Wextra -Werror $SAN_FLAGS -I"$dest/usr/include" -o "$d/dlopen" \
        "$TOP/tests/consumer/dlopen.c" 2>"$d/cc.err" || fail "building dlopen.c: $(cat "$d/cc.err")"
if readelf -d "$d/dlopen" | grep NEEDED | grep -q seinstall; then
        fail "the dlopen host links libseinstall at build time"
fi
echo "ok: the host has no link-time dependency on libseinstall"

# The private functions: every global function of the library's objects that
# libseinstall.sym does not list, the internal seinstall_ calls the commands use
# (seinstall-internal.h: status, avc, trial, profiles) among them.
ar=$TOP/$BUILD_DIR/libseinstall-internal.a
[ -f "$ar" ] || fail "$ar not built (run make check-quick)"
sed -n 's/^[[:space:]]*\(seinstall_[A-Za-z0-9_]*\);.*/\1/p' "$TOP/installer-plugin/lib/libseinstall.sym" |
        sort -u >"$d/public"
[ -s "$d/public" ] || fail "no calls listed in libseinstall.sym"
mapfile -t private < <(nm --defined-only "$ar" 2>/dev/null | awk '$2 == "T" {print $3}' | sort -u |
        comm -23 - "$d/public")
[ "${#private[@]}" -gt 0 ] || fail "no private functions found in $ar: is the archive empty?"
internal=$(printf '%s\n' "${private[@]}" | grep -c '^seinstall_')
[ "$internal" -gt 0 ] || fail "no internal seinstall_ call found in $ar (seinstall_status_read...)"
echo "ok: ${#private[@]} private functions in $ar, $internal of them seinstall_ calls"

mkdir -p "$d/root"
expect_exit 0 "$d/dlopen" "$libdir/libseinstall.so.0" "$d/root" "${private[@]}"
echo "$OUT"
assert_contains "dlopen output" "$OUT" "${#private[@]} private symbols checked unreachable"
assert_contains "dlopen output" "$OUT" "dlopen: ok"
