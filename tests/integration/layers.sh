#!/bin/bash
# The layers HACKING.md's picture writes down, checked against the objects' symbols
# (tests/integration/lib/layers.py): each library file in one layer, no call up a layer, no
# cycle between the files of the library, of the command or of the first-boot screen, and no
# call from the library into a front end. Then the checker itself, on objects and a picture
# made to break each rule: it must find every break.
. "$(dirname "$0")/../lib.sh"
require_tool nm binutils
require_tool python3 python3
check=$TOP/tests/integration/lib/layers.py
out=$(python3 "$check" "$SEINSTALL_BUILD_DIR" 2>&1) || fail "layers: $out"
printf '%s\n' "$out"
assert_contains "the layers' count" "$out" "0 upward calls"
echo "ok: each library file in one layer of HACKING.md, no upward call, no cycle, no call into a front end"

# The checker fails where it must: two files that call each other, a library file calling
# the command's code, a call up a layer, a file the picture leaves out, a name it keeps for a
# file that is gone.
d=$(scratch_dir)
mkdir -p "$d/installer-plugin/lib" "$d/installer-plugin/cli" "$d/firstboot"
cc_o() { printf '%s\n' "$2" | ${CC:-cc} -c -x c -o "$1" - || fail "cc $1"; }
cc_o "$d/installer-plugin/lib/a.o" 'int b(void); int a(void) { return b(); }'
cc_o "$d/installer-plugin/lib/b.o" 'int a(void); int cli_x(void); int b(void) { return a() + cli_x(); }'
cc_o "$d/installer-plugin/lib/low.o" 'int top(void); int low(void) { return top(); }'
cc_o "$d/installer-plugin/lib/top.o" 'int top(void) { return 1; }'
cc_o "$d/installer-plugin/lib/stray.o" 'int stray(void) { return 2; }'
cc_o "$d/installer-plugin/cli/x.o" 'int cli_x(void) { return 0; }'
cc_o "$d/firstboot/y.o" 'int y(void) { return 0; }'
cat >"$d/HACKING.md" <<'PIC'
## The layers

```
 front ends     installer-plugin/cli/ (main.c)
 stages         top.c a.c b.c
                gone.c
 core           low.c
```
PIC
expect_exit 1 python3 "$check" "$d" "$d/HACKING.md"
assert_contains "the checker's cycle" "$OUT" "a cycle in installer-plugin/lib: a.c b.c"
assert_contains "the checker's symbols" "$OUT" "a.c -> b.c: b"
assert_contains "the checker's upward call" "$OUT" "an upward call: low.c (core) -> top.c (stages): top"
assert_contains "the checker's unplaced file" "$OUT" "installer-plugin/lib/stray.c stands in no layer"
assert_contains "the checker's stale name" "$OUT" "the picture names gone.c in stages, and no such file"
assert_contains "the checker's call into a front end" "$OUT" "installer-plugin/lib/b.c calls a front end: cli_x"
case $OUT in *main.c*) fail "the checker read a front end's file into a layer: $OUT" ;; esac
echo "ok: the checker finds a cycle, an upward call, a file out of the picture, a stale name and a call into a front end"
