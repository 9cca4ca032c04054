#!/bin/bash
# The plugin ABI: what libseinstall.so.0 exports is exactly what seinstall.h declares with
# SEINSTALL_EXPORT and what libseinstall.sym lists, every exported symbol carries a version
# from the .sym file, nothing else leaks out (the calls seinstall-internal.h declares for the
# commands included), and every exported call has its documentation comment in the header. On
# a mismatch it says which line to add where. Each enum keeps to its own prefix.
. "$(dirname "$0")/../lib.sh"

header=$TOP/installer-plugin/include/seinstall.h
symfile=$TOP/installer-plugin/lib/libseinstall.sym
so=$SEINSTALL_BUILD_DIR/lib/libseinstall.so.0
[ -f "$so" ] || fail "$so not built (run make)"
d=$(scratch_dir)

# shellcheck disable=SC2020 # one statement per line: ; { } each end one
# 1. Declared: functions declared with SEINSTALL_EXPORT, comments stripped by the preprocessor
#    (macros are left alone with -fpreprocessed), one statement per line.
gcc -fpreprocessed -dD -E -P "$header" 2>"$d/cpp.err" | grep -v '^#' | tr '\n' ' ' | tr ';{}' '\n\n\n' |
        grep -w SEINSTALL_EXPORT | grep -o 'seinstall_[A-Za-z0-9_]*[[:space:]]*(' |
        sed 's/[[:space:]]*($//' | sort -u >"$d/declared"
[ -s "$d/cpp.err" ] && fail "preprocessing $header: $(cat "$d/cpp.err")"
[ -s "$d/declared" ] || fail "no SEINSTALL_EXPORT declarations found in $header"
echo "ok: $(wc -l <"$d/declared") calls declared with SEINSTALL_EXPORT in seinstall.h"

# 2. Exported: the dynamic symbol table, with versions.
nm -D --defined-only --with-symbol-versions "$so" >"$d/nm" || fail "nm -D $so failed"
# Version nodes appear as absolute symbols named after the node.
nodes=$(sed -n 's/^[[:space:]]*\([A-Z][A-Z0-9_.]*\)[[:space:]]*{.*/\1/p' "$symfile")
[ -n "$nodes" ] || fail "no version node found in $symfile"
awk '$2 != "A" {print $3}' "$d/nm" | sed 's/@.*//' | sort -u >"$d/exported"
awk '$2 == "A" {print $3}' "$d/nm" | sed 's/@.*//' | sort -u >"$d/nodes-exported"
echo "ok: $(wc -l <"$d/exported") symbols exported by libseinstall.so.0"

problems=0
problem() {
        echo "ABI: $*" >&2
        problems=$((problems + 1))
}

# Every exported symbol: a seinstall_ call, versioned with a node of the .sym file.
while read -r _ type sym; do
        [ "$type" = A ] && continue
        name=${sym%%@*}
        version=${sym#*@}
        version=${version#@}
        case $name in
        seinstall_*) ;;
        *) problem "'$name' is exported but is not a seinstall_ call: make it static, or hidden (the build uses -fvisibility=hidden; is it marked SEINSTALL_EXPORT by mistake?)" ;;
        esac
        if [ "$version" = "$sym" ] || ! grep -qx "$version" <<<"$nodes"; then
                problem "'$name' is exported without a version node of libseinstall.sym (got '${version}')"
        fi
done <"$d/nm"

# Declared in the header but not exported: the .sym file lacks it (or it is not defined).
newest=$(tail -n 1 <<<"$nodes")
# A released node (tests/abi/NODE.symbols, abi-frozen.sh) takes no new call: a new node does.
where="node $newest"
if [ -f "$TOP/tests/abi/$newest.symbols" ]; then
        minor=${newest##*.}
        where="a new node '${newest%.*}.$((minor + 1)) { global: ...; } $newest;' after the released $newest"
fi
comm -23 "$d/declared" "$d/exported" >"$d/missing"
while read -r name; do
        [ -n "$name" ] || continue
        problem "'$name' is declared SEINSTALL_EXPORT in seinstall.h but libseinstall.so.0 does not export it: add the line '        $name;' under 'global:' in $where of installer-plugin/lib/libseinstall.sym (and define the call in installer-plugin/lib/)"
done <"$d/missing"

# Exported but not declared: an ABI nobody documented.
comm -13 "$d/declared" "$d/exported" >"$d/undeclared"
while read -r name; do
        [ -n "$name" ] || continue
        problem "'$name' is exported but not declared SEINSTALL_EXPORT in seinstall.h: declare and document it there, or drop it from libseinstall.sym and make it static"
done <"$d/undeclared"

# 3. The version script lists each call by name; a wildcard would export whatever anyone
#    names seinstall_* next.
globals=$(awk '/global:/ {g = 1; next} /local:/ {g = 0} g' "$symfile" | tr -d ' \t' |
        tr ';' '\n' | sed '/^$/d; /^\/\*/d; /^\*/d')
if grep -q '[*?]' <<<"$globals"; then
        problem "libseinstall.sym exports by wildcard ($(grep '[*?]' <<<"$globals" | tr '\n' ' ')): list each call by name"
else
        sort -u <<<"$globals" >"$d/listed"
        while read -r name; do
                problem "'$name' is declared in seinstall.h but not listed in libseinstall.sym: add '        $name;' under 'global:' in $where"
        done < <(comm -23 "$d/declared" "$d/listed")
        while read -r name; do
                problem "'$name' is listed in libseinstall.sym but not declared SEINSTALL_EXPORT in seinstall.h: declare and document it, or remove it (only from a node not yet released)"
        done < <(comm -13 "$d/declared" "$d/listed")
        echo "ok: libseinstall.sym lists $(wc -l <"$d/listed") calls by name"
fi
# Only local: * hides the rest.
tr -d ' \t\n' <"$symfile" | grep -q 'local:\*;' ||
        problem "libseinstall.sym has no 'local: *;': everything not listed would be exported"

# 4. Documentation: each SEINSTALL_EXPORT declaration belongs to a group (no blank line in
#    between) that a comment opens.
awk -v file="$header" '
        /^[[:space:]]*$/ { documented = 0; next }
        /^[[:space:]]*\/\*/ || /^[[:space:]]*\*/ { documented = 1 }
        /^#define/ { next }
        /SEINSTALL_EXPORT/ && !documented {
                match($0, /seinstall_[A-Za-z0-9_]*[[:space:]]*\(/)
                name = substr($0, RSTART, RLENGTH - 1)
                if (name == "") name = $0
                printf "ABI: %s:%d: %s has no documentation comment: say in 2-3 lines above it what it does, who owns what, which errors\n", file, NR, name
                bad++
        }
        END { exit bad > 0 }
' "$header" >&2 || problems=$((problems + 1))

# 5. The calls the commands use beyond the ABI (seinstall-internal.h: status, avc, trial,
#    profiles) stay out of it: declared there without SEINSTALL_EXPORT, not also in seinstall.h,
#    not exported.
internal_h=$TOP/installer-plugin/lib/seinstall-internal.h
# shellcheck disable=SC2020 # as in 1.
gcc -fpreprocessed -dD -E -P "$internal_h" 2>"$d/cpp.err" | grep -v '^#' | tr '\n' ' ' |
        tr ';{}' '\n\n\n' | grep -o 'seinstall_[A-Za-z0-9_]*[[:space:]]*(' |
        sed 's/[[:space:]]*($//' | sort -u >"$d/internal"
[ -s "$d/cpp.err" ] && fail "preprocessing $internal_h: $(cat "$d/cpp.err")"
[ -s "$d/internal" ] || fail "no calls found in $internal_h"
grep -n SEINSTALL_EXPORT "$internal_h" >&2 &&
        problem "seinstall-internal.h marks calls SEINSTALL_EXPORT (lines above): its calls are not part of the ABI"
while read -r name; do
        problem "'$name' is declared in both seinstall.h and seinstall-internal.h: keep it in one"
done < <(comm -12 "$d/internal" "$d/declared")
while read -r name; do
        problem "'$name' (seinstall-internal.h) is exported: drop it from libseinstall.sym"
done < <(comm -12 "$d/internal" "$d/exported")
echo "ok: $(wc -l <"$d/internal") internal calls (seinstall-internal.h), none exported"

# 7. The README's library section says how many calls there are.
n_public=$(wc -l <"$d/declared")
grep -q "($n_public calls)" "$TOP/README.md" ||
        problem "README.md (Using the library) does not say '($n_public calls)': update the count there"

[ "$problems" = 0 ] || fail "$problems ABI problem(s), listed above"
echo "ok: exports = SEINSTALL_EXPORT declarations, each versioned and documented"

# 8. One prefix per enum (tests/integration/lib/enum-prefixes.py): enum seinstall_NAME's values
#    are SEINSTALL_NAME_*, a flags enum's SEINSTALL_NAME_* without _FLAGS, and no value reads as
#    another enum's. The checker is shown to fail on a header that mixes a count with a flag.
# Last, so that without python3 (a package build's chroot) everything above was checked.
command -v python3 >/dev/null || skip "python3 is not installed: the enums' prefixes are not checked (everything else passed)"
prefixes=$TOP/tests/integration/lib/enum-prefixes.py
python3 "$prefixes" "$header" || fail "an enum's values leave its prefix (above)"
printf '%s\n' 'enum seinstall_x_flags {' '        SEINSTALL_X_DRY_RUN = 1,' '        SEINSTALL_X_COUNT_BAD = 2,' '};' \
        'enum seinstall_x_count {' '        SEINSTALL_X_CHANGED,' '};' >"$d/mixed.h"
expect_exit 1 python3 "$prefixes" "$d/mixed.h"
assert_contains "the prefix checker" "$OUT" "SEINSTALL_X_CHANGED does not start with SEINSTALL_X_COUNT_"
assert_contains "the prefix checker" "$OUT" "SEINSTALL_X_COUNT_BAD starts with SEINSTALL_X_COUNT_"
echo "ok: every enum keeps to its prefix"

