#!/bin/bash
# The Makefile follows packaging conventions: a distribution's build with the flags
# `dpkg-buildflags --export=make` gives (hardening: -fstack-protector-strong,
# -D_FORTIFY_SOURCE=2, -Wl,-z,relro ...) builds everything, and uses those flags; -Werror is
# not forced on it, even in a git checkout (only the project's checks ask for it); CC, AR and
# PKG_CONFIG are variables; every output lands under the build directory, none in the source
# tree; a library pkg-config does not find is named before anything is compiled. `make deps` with everything installed
# needs no network (run in a network namespace without one).
. "$(dirname "$0")/../lib.sh"
command -v dpkg-buildflags >/dev/null || skip "dpkg-buildflags is not installed (dpkg-dev)"
command -v git >/dev/null || skip "git is needed to see what a build leaves in the tree"

d=$(scratch_dir)
b=$d/build
DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=make >"$d/flags.mk"
grep -q 'CFLAGS' "$d/flags.mk" || fail "dpkg-buildflags gave no CFLAGS: $(cat "$d/flags.mk")"

# What the tree holds outside build/ before (untracked and ignored files included).
tree_state() {
        if git_checkout; then
                git -C "$TOP" status --porcelain --ignored --untracked-files=all | grep -v ' build/' | sort
        else
                find "$TOP" -path "$TOP/build" -prune -o -printf '%P %s %T@\n' | sort
        fi
}
before=$(tree_state)

# A wrapper proves AR is used as given; PKG_CONFIG likewise.
printf '#!/bin/sh\necho ar >>"%s/tools.log"\nexec ar "$@"\n' "$d" >"$d/my-ar"
printf '#!/bin/sh\necho pkg-config >>"%s/tools.log"\nexec pkg-config "$@"\n' "$d" >"$d/my-pkg-config"
chmod +x "$d/my-ar" "$d/my-pkg-config"

log=$d/make.log
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL MAKEFILES="$d/flags.mk" \
        make -C "$TOP" --no-print-directory -j2 V=1 BUILD="$b" AR="$d/my-ar" \
        PKG_CONFIG="$d/my-pkg-config" all "$b/libseinstall-internal.a" >"$log" 2>&1 ||
        fail "make with dpkg-buildflags' flags failed: $(tail -n 30 "$log")"
echo "ok: make all with dpkg-buildflags --export=make (hardening=+all) (no WERROR given, in a git checkout)"

for f in "$b/bin/seinstall" "$b/bin/seinstall-firstboot" "$b/lib/libseinstall.so.0" \
        "$b/lib/seinstall.pc" "$b/po/seinstall.pot"; do
        [ -e "$f" ] || fail "$f was not built"
done
echo "ok: the library, both commands, the .pc file and the template are under BUILD"
"$b/bin/seinstall" --version >/dev/null || fail "$b/bin/seinstall does not run"
echo "ok: $b/bin/seinstall runs (the library linked in, no rpath)"

cc_lines=$(grep -E -- ' -c installer-plugin/lib/util.c' "$log")
[ -n "$cc_lines" ] || fail "no compile line for util.c in: $(head -n 20 "$log")"
for flag in -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Werror=format-security -std=c11 -Wall; do
        grep -qF -- "$flag" <<<"$cc_lines" || fail "util.c compiled without $flag: $cc_lines"
done
grep -qF -- -Werror <<<"${cc_lines//-Werror=format-security/}" &&
        fail "-Werror on by default (only the project's checks ask for it): $cc_lines"
echo "ok: dpkg's CFLAGS and CPPFLAGS reach the compiler, -Werror does not"
warnings=$(grep -c 'warning:' "$log")
[ "$warnings" = 0 ] || fail "$warnings compiler warnings with dpkg's flags: $(grep -A3 'warning:' "$log" | head -n 20)"
echo "ok: no compiler warning with dpkg's flags (FORTIFY_SOURCE, format-security)"
ld_line=$(grep -F -- "-o $b/lib/libseinstall.so.0" "$log")
grep -qF -- "-Wl,-z,relro" <<<"$ld_line" || fail "the library linked without dpkg's LDFLAGS: $ld_line"
readelf -l "$b/lib/libseinstall.so.0" | grep -q GNU_RELRO || fail "libseinstall.so.0 has no RELRO"
readelf -d "$b/bin/seinstall" | grep -q 'BIND_NOW\|FLAGS.*NOW' || fail "seinstall is not linked -z now"
echo "ok: dpkg's LDFLAGS reach the linker (RELRO, BIND_NOW)"
grep -qx ar "$d/tools.log" || fail "AR=$d/my-ar was not used"
grep -qx pkg-config "$d/tools.log" || fail "PKG_CONFIG=$d/my-pkg-config was not used"
echo "ok: AR and PKG_CONFIG as given"

assert_eq "files left in the source tree by the build" "$before" "$(tree_state)"

if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
        out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL unshare -n make -C "$TOP" --no-print-directory deps 2>&1) ||
                fail "make deps without a network failed (a package missing?): $out"
        [ -z "$out" ] || fail "make deps without a network printed: $out"
        echo "ok: make deps needs no network when everything is installed"
else
        skip "not root or no unshare -n: make deps without a network not tried (the build checks above passed)"
fi

# A library pkg-config cannot find stops the build before the first compile, named.
printf '#!/bin/sh\nfor a; do [ "$a" = libsemanage ] && exit 1; done\nexec pkg-config "$@"\n' >"$d/no-semanage"
chmod +x "$d/no-semanage"
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory BUILD="$d/b2" \
        PKG_CONFIG="$d/no-semanage" all 2>&1) && fail "make without libsemanage succeeded: $out"
assert_contains "make without libsemanage" "$out" "pkg-config finds no libsemanage"
[ -z "$(find "$d/b2" -name '*.o' 2>/dev/null)" ] || fail "objects were compiled before the missing library was named"
echo "ok: nothing compiled"
