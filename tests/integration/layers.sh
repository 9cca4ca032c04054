#!/bin/bash
# The layers the build keeps, read from the objects' symbols (tests/integration/lib/layers.py):
# no cycle between the files of the library, of the command or of the first-boot screen, and
# no call from the library into a front end. Then the checker itself, on objects made to break
# each rule: it must find the cycle and the upward call.
. "$(dirname "$0")/../lib.sh"
require_tool nm binutils
require_tool python3 python3
check=$TOP/tests/integration/lib/layers.py
out=$(python3 "$check" "$SEINSTALL_BUILD_DIR" 2>&1) || fail "layers: $out"
printf '%s\n' "$out"
echo "ok: no cycle between files and no call from the library into a front end"

# The checker fails where it must: two files that call each other, a library file calling
# the command's code.
d=$(scratch_dir)
mkdir -p "$d/installer-plugin/lib" "$d/installer-plugin/cli" "$d/firstboot"
cc_o() { printf '%s\n' "$2" | ${CC:-cc} -c -x c -o "$1" - || fail "cc $1"; }
cc_o "$d/installer-plugin/lib/a.o" 'int b(void); int a(void) { return b(); }'
cc_o "$d/installer-plugin/lib/b.o" 'int a(void); int cli_x(void); int b(void) { return a() + cli_x(); }'
cc_o "$d/installer-plugin/cli/x.o" 'int cli_x(void) { return 0; }'
cc_o "$d/firstboot/y.o" 'int y(void) { return 0; }'
expect_exit 1 python3 "$check" "$d"
assert_contains "the checker's cycle" "$OUT" "a cycle in installer-plugin/lib: a.c b.c"
assert_contains "the checker's symbols" "$OUT" "a.c -> b.c: b"
assert_contains "the checker's upward call" "$OUT" "installer-plugin/lib/b.c calls a front end: cli_x"
echo "ok: the checker finds a cycle and an upward call in objects made to have them"
