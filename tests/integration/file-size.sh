#!/bin/bash
# No C source file (.c or .h) under installer-plugin/ or firstboot/ is longer than 800 lines: a
# file that long holds several jobs (HACKING.md, the layers: one file per stage or concept), and
# this test fails naming each such file and its length, so that none grows back. A file may
# stay longer only as an exception below, with the reason written beside it. First the check
# itself, on a scratch tree with a file planted one line past the limit: it must fail there.
. "$(dirname "$0")/../lib.sh"

LIMIT=800
# Files allowed past LIMIT: "PATH|REASON", PATH relative to the top of the tree. An exception
# whose file is gone or back under the limit fails the test, so the list stays true.
EXCEPTIONS=(
        "installer-plugin/include/seinstall.h|the ABI, one job in one installed header (as libmount.h and libkmod.h are), each call with its contract; abi.sh compares it with libseinstall.sym"
)

# too_long ROOT: each C source under ROOT's installer-plugin/ and firstboot/ with more than
# LIMIT lines, as "PATH: N lines", PATH relative to ROOT, in name order. A last line without a
# line break counts (wc -l would not count it).
too_long() {
        (
                cd "$1" || exit 1
                find installer-plugin firstboot -type f \( -name '*.c' -o -name '*.h' \) \
                        -print0 | sort -z | xargs -0 -r awk -v limit="$LIMIT" '
                        FNR == 1 && name != "" && n > limit { print name ": " n " lines" }
                        FNR == 1 { name = FILENAME }
                        { n = FNR }
                        END { if (name != "" && n > limit) print name ": " n " lines" }'
        )
}

# reason PATH: the reason EXCEPTIONS gives for PATH, or nothing.
reason() {
        local e
        for e in "${EXCEPTIONS[@]}"; do
                [ "${e%%|*}" = "$1" ] && echo "${e#*|}" && return 0
        done
        return 1
}

# check ROOT: fail naming every file of too_long ROOT that is not an exception, and every
# exception that no longer holds.
check() {
        local long line path why e bad="" over=" "
        long=$(too_long "$1") || fail "cannot read the sources under $1"
        while IFS= read -r line; do
                [ -n "$line" ] || continue
                path=${line%: * lines}
                over+="$path "
                if why=$(reason "$path"); then
                        echo "exception: $line ($why)"
                else
                        bad+="${bad:+, }$line"
                fi
        done <<<"$long"
        for e in "${EXCEPTIONS[@]}"; do
                case $over in
                *" ${e%%|*} "*) ;;
                *) bad+="${bad:+, }the exception ${e%%|*} (no longer longer than $LIMIT lines, or gone: remove it)" ;;
                esac
        done
        [ -z "$bad" ] || fail "longer than $LIMIT lines: $bad (split each file along its jobs, as HACKING.md's table of files does)"
}

# The check itself: a file one line past the limit fails, one at the limit and files that are
# not C sources do not, a last line without its line break counts. (The tree's own exceptions
# do not apply to the scratch tree.)
kept=("${EXCEPTIONS[@]}")
EXCEPTIONS=()
d=$(scratch_dir)
mkdir -p "$d/installer-plugin/lib" "$d/firstboot" "$d/tests"
lines() { seq "$1" | sed 's/.*/int x;/'; }
lines 800 >"$d/installer-plugin/lib/limit.c"
lines 800 >"$d/firstboot/limit.h"
lines 900 >"$d/installer-plugin/lib/notes.txt"
lines 900 >"$d/tests/outside.c"
out=$( (check "$d") 2>&1) || fail "the check refused files of $LIMIT lines: $out"
echo "ok: files of $LIMIT lines pass; other files and other directories are not counted"
lines 801 >"$d/installer-plugin/lib/planted.c"
{ lines 800 && printf 'int y;'; } >"$d/firstboot/unterminated.h"
out=$( (check "$d") 2>&1) && fail "the check passed a tree with an 801-line file: $out"
assert_contains "the check's failure" "$out" "installer-plugin/lib/planted.c: 801 lines"
assert_contains "the check's failure" "$out" "firstboot/unterminated.h: 801 lines"
case $out in *limit.*) fail "the check named a file of $LIMIT lines: $out" ;; esac
echo "ok: the check fails naming each file past $LIMIT lines and its length"
# An exception lets its file through with its reason, and fails once it no longer holds.
EXCEPTIONS=("installer-plugin/lib/planted.c|planted by this test" "firstboot/unterminated.h|planted too")
out=$( (check "$d") 2>&1) || fail "the check refused files listed as exceptions: $out"
assert_contains "the check's exception" "$out" "installer-plugin/lib/planted.c: 801 lines (planted by this test)"
rm "$d/firstboot/unterminated.h"
out=$( (check "$d") 2>&1) && fail "the check kept an exception for a file that is gone: $out"
assert_contains "the check's stale exception" "$out" "the exception firstboot/unterminated.h"
EXCEPTIONS=("${kept[@]}")

# The tree itself (its sources counted, so that a find that saw none cannot pass).
n=$(find "$TOP/installer-plugin" "$TOP/firstboot" -type f \( -name '*.c' -o -name '*.h' \) | wc -l)
[ "$n" -gt 0 ] || fail "no C source found under $TOP/installer-plugin or $TOP/firstboot"
check "$TOP"
echo "ok: none of the $n C sources under installer-plugin/ or firstboot/ is longer than $LIMIT lines but ${#EXCEPTIONS[@]} exception(s)"
