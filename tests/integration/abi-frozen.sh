#!/bin/bash
# The released ABI stays as released: each released version node of libseinstall.sym lists
# exactly the calls its committed list names (tests/abi/NODE.symbols, SEINSTALL_1.0 first), and
# libseinstall.so.0 exports exactly those at that version. New calls go into a new node that
# names the one before it ('SEINSTALL_1.1 { ... } SEINSTALL_1.0;'). The checker
# (tests/integration/lib/sym-nodes.sh) is also shown failing on a call added to SEINSTALL_1.0,
# one removed from it, and a later node that does not name its predecessor.
. "$(dirname "$0")/../lib.sh"

symfile=$TOP/installer-plugin/lib/libseinstall.sym
abidir=$TOP/tests/abi
checker=$TOP/tests/integration/lib/sym-nodes.sh
so=$SEINSTALL_BUILD_DIR/lib/libseinstall.so.0
[ -f "$so" ] || fail "$so not built (run make)"
d=$(scratch_dir)
export LC_ALL=C

# 1. The version script against the released lists.
[ -f "$abidir/SEINSTALL_1.0.symbols" ] || fail "$abidir/SEINSTALL_1.0.symbols is missing: 1.0 is released, its calls are listed there"
bash "$checker" "$symfile" "$abidir" "$d/nodes" || fail "libseinstall.sym leaves its released nodes (above)"

# 2. The library as built: each released node's calls exported at that version, no others.
nm -D --defined-only --with-symbol-versions "$so" >"$d/nm" || fail "nm -D $so failed"
for list in "$abidir"/*.symbols; do
        node=$(basename "$list" .symbols)
        awk '$2 != "A" {print $3}' "$d/nm" | sed -n "s/@@*${node//./\\.}\$//p" | sort -u >"$d/exported"
        diff -u "$list" "$d/exported" >"$d/diff" ||
                fail "libseinstall.so.0 does not export at $node what $list lists (- listed, + exported): $(cat "$d/diff")"
        echo "ok: libseinstall.so.0 exports the $(wc -l <"$list") calls of $node at $node"
done

# 3. The checker fails when it should, on copies of the real files.
mkdir "$d/abi"
cp "$abidir"/*.symbols "$d/abi/"
first=$(head -n 1 "$abidir/SEINSTALL_1.0.symbols")

sed "s/^\([[:space:]]*\)$first;/&\n\1seinstall_frozen_extra;/" "$symfile" >"$d/added.sym"
expect_exit 1 bash "$checker" "$d/added.sym" "$d/abi"
assert_contains "a call added to SEINSTALL_1.0" "$ERR" "'seinstall_frozen_extra' was added to node SEINSTALL_1.0, which is released and frozen: new calls go into a new node after the newest, 'SEINSTALL_1.1 { global: seinstall_frozen_extra; } SEINSTALL_1.0;'"

sed "/^[[:space:]]*$first;/d" "$symfile" >"$d/removed.sym"
expect_exit 1 bash "$checker" "$d/removed.sym" "$d/abi"
assert_contains "a call removed from SEINSTALL_1.0" "$ERR" "'$first' was removed from node SEINSTALL_1.0, which is released"

# A call in a new node that names SEINSTALL_1.0 is how the ABI grows: accepted.
{ cat "$symfile"; printf 'SEINSTALL_1.1 {\nglobal:\n        seinstall_frozen_extra;\n} SEINSTALL_1.0;\n'; } >"$d/next.sym"
expect_exit 0 bash "$checker" "$d/next.sym" "$d/abi"

{ cat "$symfile"; printf 'SEINSTALL_1.1 {\nglobal:\n        seinstall_frozen_extra;\n};\n'; } >"$d/orphan.sym"
expect_exit 1 bash "$checker" "$d/orphan.sym" "$d/abi"
assert_contains "a node naming no predecessor" "$ERR" "node SEINSTALL_1.1 does not name the node before it: end it with '} SEINSTALL_1.0;'"

{ cat "$d/next.sym"; printf 'SEINSTALL_1.2 {\nglobal:\n        seinstall_frozen_later;\n} SEINSTALL_1.0;\n'; } >"$d/skip.sym"
expect_exit 1 bash "$checker" "$d/skip.sym" "$d/abi"
assert_contains "a node naming an older one" "$ERR" "node SEINSTALL_1.2 names SEINSTALL_1.0 as the one before it, but that is SEINSTALL_1.1"
assert_contains "a node released without its list" "$ERR" "node SEINSTALL_1.1 comes before SEINSTALL_1.2, so it was released, but $d/abi/SEINSTALL_1.1.symbols does not list its calls"

{ cat "$d/next.sym"; printf 'SEINSTALL_1.2 {\nglobal:\n        seinstall_frozen_extra;\n} SEINSTALL_1.1;\n'; } >"$d/twice.sym"
echo seinstall_frozen_extra >"$d/abi/SEINSTALL_1.1.symbols"
expect_exit 1 bash "$checker" "$d/twice.sym" "$d/abi"
assert_contains "a call in two nodes" "$ERR" "'seinstall_frozen_extra' is listed in more than one node"
echo "ok: the checker refuses a call added to or removed from SEINSTALL_1.0 and a node that does not name the one before it"
