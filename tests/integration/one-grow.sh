#!/bin/bash
# One way to grow an array: the library (installer-plugin/lib), the command (installer-plugin/cli)
# and seinstall-firstboot (firstboot) grow their arrays with SI_GROW() (util.h), which doubles,
# checks the size for overflow and leaves the array as it was on failure. This test fails naming
# each call of realloc() or reallocarray() there outside util.c, where si_grow() makes its one
# call, so that no hand-written growth comes back. A call may stay only as an exception below,
# with the reason written beside it. Comments do not count. First the check itself, on a scratch
# tree with calls planted: it must fail there.
. "$(dirname "$0")/../lib.sh"

DIRS=(installer-plugin/lib installer-plugin/cli firstboot)
# Files allowed their calls: "PATH|N|REASON", PATH relative to the top of the tree, N the number
# of calls it holds. A file with more calls or fewer (a new one, or the exception gone) fails the
# test, so the list stays true.
EXCEPTIONS=(
        "installer-plugin/lib/util.c|1|si_grow() itself, the one growth"
        "installer-plugin/lib/fileio.c|1|read_fd_bounded() grows its buffer up to the caller's limit and one read past it, where doubling would allocate up to twice the limit"
)

# calls ROOT: each call of realloc() or reallocarray() in a C source under ROOT's DIRS, as
# "PATH:LINE: TEXT", PATH relative to ROOT, in name order; text inside /* */ comments is not
# looked at.
calls() {
        (
                cd "$1" || exit 1
                find "${DIRS[@]}" -type f \( -name '*.c' -o -name '*.h' \) -print0 | sort -z |
                        xargs -0 -r awk '
                        FNR == 1 { comment = 0 }
                        {
                                s = $0
                                code = ""
                                while (s != "") {
                                        if (comment) {
                                                i = index(s, "*/")
                                                if (!i)
                                                        break
                                                s = substr(s, i + 2)
                                                comment = 0
                                        } else {
                                                i = index(s, "/*")
                                                if (!i) {
                                                        code = code s
                                                        break
                                                }
                                                code = code substr(s, 1, i - 1)
                                                s = substr(s, i + 2)
                                                comment = 1
                                        }
                                }
                                if (code ~ /(^|[^A-Za-z0-9_])(realloc|reallocarray)[ \t]*\(/) {
                                        t = $0
                                        sub(/^[ \t]+/, "", t)
                                        print FILENAME ":" FNR ": " t
                                }
                        }'
        )
}

# check ROOT: fail naming every call of calls ROOT in a file that is not an exception, and every
# exception whose file holds another number of calls than it says.
check() {
        local found line e n have allowed=" " bad=""
        found=$(calls "$1") || fail "cannot read the sources under $1"
        for e in "${EXCEPTIONS[@]}"; do
                allowed+="${e%%|*} "
        done
        while IFS= read -r line; do
                case $line in
                "") ;;
                *) [[ $allowed == *" ${line%%:*} "* ]] || bad+=$'\n  '"$line" ;;
                esac
        done <<<"$found"
        for e in "${EXCEPTIONS[@]}"; do
                n=${e#*|}
                n=${n%%|*}
                have=$(awk -F: -v p="${e%%|*}" '$1 == p { n++ } END { print n + 0 }' <<<"$found")
                if [ "$have" = "$n" ]; then
                        echo "exception: ${e%%|*}: $n call(s) (${e##*|})"
                else
                        bad+=$'\n  '"the exception ${e%%|*} allows $n call(s) but the file has $have (convert a new one to SI_GROW(), or correct the list)"
                fi
        done
        [ -z "$bad" ] || fail "an array grown by hand, not with SI_GROW() (util.h):$bad"
}

# The check itself: planted calls fail, named by file and line; a call in a comment, a name that
# only ends in realloc and files outside DIRS do not count; an exception lets its calls through
# and fails once its count no longer holds. (The tree's own exceptions do not apply here.)
kept=("${EXCEPTIONS[@]}")
EXCEPTIONS=()
d=$(scratch_dir)
mkdir -p "$d/installer-plugin/lib" "$d/installer-plugin/cli" "$d/firstboot" "$d/tests"
cat >"$d/installer-plugin/lib/clean.c" <<'EOF'
/* a comment may say realloc(p, n) */
/* and so may one
 * of several lines: p = realloc(p, n); */
static int x = 1; /* realloc(p, n) */
#define my_realloc(p, n) SI_GROW(p, n, 1)
int y = my_realloc(a, b);
EOF
printf 'void *p = realloc(q, 8);\n' >"$d/tests/outside.c"
printf 'void *p = realloc(q, 8);\n' >"$d/installer-plugin/lib/notes.txt"
out=$( (check "$d") 2>&1) || fail "the check refused a tree without calls: $out"
echo "ok: comments, names ending in realloc and files outside ${DIRS[*]} are not counted"
printf 'int f(void)\n{\n        v = realloc(v, n * sizeof(*v));\n}\n' >"$d/installer-plugin/lib/planted.c"
printf 'static int g(void) { q = reallocarray (q, n, 4); }\n' >"$d/installer-plugin/cli/planted.h"
printf '/* x */ w = realloc(w, 2);\n' >"$d/firstboot/planted.c"
out=$( (check "$d") 2>&1) && fail "the check passed a tree with planted calls: $out"
assert_contains "the check's failure" "$out" "installer-plugin/lib/planted.c:3: v = realloc(v, n * sizeof(*v));"
assert_contains "the check's failure" "$out" "installer-plugin/cli/planted.h:1:"
assert_contains "the check's failure" "$out" "firstboot/planted.c:1:"
case $out in *clean.c*) fail "the check named a file without calls: $out" ;; esac
echo "ok: the check fails naming each planted call by file and line"
EXCEPTIONS=("installer-plugin/lib/planted.c|1|planted by this test" "installer-plugin/cli/planted.h|1|planted too"
        "firstboot/planted.c|1|planted too")
out=$( (check "$d") 2>&1) || fail "the check refused calls listed as exceptions: $out"
assert_contains "the check's exception" "$out" "installer-plugin/lib/planted.c: 1 call(s) (planted by this test)"
printf 'void h(void) { v = realloc(v, 1); }\n' >>"$d/installer-plugin/lib/planted.c"
out=$( (check "$d") 2>&1) && fail "the check passed a second call in a file allowed one: $out"
assert_contains "the check's exception" "$out" "the exception installer-plugin/lib/planted.c allows 1 call(s) but the file has 2"
rm "$d/installer-plugin/lib/planted.c"
out=$( (check "$d") 2>&1) && fail "the check kept an exception for a file that is gone: $out"
assert_contains "the check's stale exception" "$out" "the exception installer-plugin/lib/planted.c allows 1 call(s) but the file has 0"
echo "ok: an exception lets its calls through and fails once its count no longer holds"
EXCEPTIONS=("${kept[@]}")

# The tree itself (util.c's exception makes sure the scan sees a real call).
check "$TOP"
echo "ok: no array in ${DIRS[*]} grows by hand but in ${#EXCEPTIONS[@]} exception(s)"
