#!/bin/bash
# sym-nodes.sh SYMFILE ABIDIR [NODES_OUT]: checks the version nodes of a linker version script
# against the released nodes' lists in ABIDIR (ABIDIR/NODE.symbols, one name per line, sorted).
# A released node keeps exactly its list: no call added, none removed. Every node after the
# first ends with '} PREVIOUS;', naming the node before it, and every node before the newest is
# released (it has a list). Problems go to stderr as "ABI: ...", one a line, and make it exit 1;
# NODES_OUT, if given, receives "NODE NAME" lines for the calls of every node.
set -u
export LC_ALL=C
symfile=$1 abidir=$2 nodes_out=${3:-/dev/null}

d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT

problems=0
problem() {
        echo "ABI: $*" >&2
        problems=$((problems + 1))
}

# The script as tokens: comments dropped, then NODE name / SYM name / PRED name / END, one a line.
awk '
        { text = text $0 "\n" }
        END {
                out = ""
                while ((i = index(text, "/*")) > 0) {
                        out = out substr(text, 1, i - 1)
                        text = substr(text, i + 2)
                        if ((j = index(text, "*/")) == 0) { print "ERROR an unterminated comment"; exit }
                        text = substr(text, j + 2)
                }
                text = out text
                gsub(/[{};]/, " & ", text)
                n = split(text, tok, /[ \t\n]+/)
                state = "top"
                for (k = 1; k <= n; k++) {
                        t = tok[k]
                        if (t == "") continue
                        if (state == "top") {
                                if (t !~ /^[A-Za-z_][A-Za-z0-9_.]*$/) { print "ERROR \"" t "\" where a node name belongs"; exit }
                                print "NODE", t; state = "open"
                        } else if (state == "open") {
                                if (t != "{") { print "ERROR \"" t "\" after a node name, not {"; exit }
                                state = "body"; section = "global"
                        } else if (state == "body") {
                                if (t == "global:") section = "global"
                                else if (t == "local:") section = "local"
                                else if (t == "}") state = "close"
                                else if (t != ";" && section == "global") print "SYM", t
                        } else if (state == "close") {
                                if (t == ";") { print "END"; state = "top" }
                                else { print "PRED", t; state = "pred" }
                        } else if (state == "pred") {
                                if (t != ";") { print "ERROR \"" t "\" after a node'"'"'s predecessor, not ;"; exit }
                                print "END"; state = "top"
                        }
                }
                if (state != "top") print "ERROR the last node is not closed with };"
        }
' "$symfile" >"$d/tokens" || exit 2
if grep -q '^ERROR' "$d/tokens"; then
        problem "$symfile: cannot read it: $(sed -n 's/^ERROR //p' "$d/tokens" | head -n 1)"
        exit 1
fi

: >"$d/order"
: >"$nodes_out"
while read -r kind name; do
        case $kind in
        NODE)
                node=$name
                grep -qx "$node" "$d/order" && problem "node $node appears twice in $symfile"
                echo "$node" >>"$d/order"
                : >"$d/calls.$node"
                : >"$d/pred.$node"
                ;;
        SYM)
                echo "$name" >>"$d/calls.$node"
                echo "$node $name" >>"$nodes_out"
                ;;
        PRED) echo "$name" >"$d/pred.$node" ;;
        END) sort -o "$d/calls.$node" "$d/calls.$node" ;;
        esac
done <"$d/tokens"
[ -s "$d/order" ] || {
        problem "$symfile has no version node"
        exit 1
}
newest=$(tail -n 1 "$d/order")
major=${newest%%.*} minor=${newest##*.}
case $minor in *[!0-9]* | '') next="the next node" ;; *) next=$major.$((minor + 1)) ;; esac

# Each node names the one before it; the first names none.
prev=
while read -r node; do
        named=$(cat "$d/pred.$node")
        if [ -z "$prev" ] && [ -n "$named" ]; then
                problem "node $node is the first in $symfile but ends with '} $named;': the first node names no other"
        elif [ -n "$prev" ] && [ -z "$named" ]; then
                problem "node $node does not name the node before it: end it with '} $prev;'"
        elif [ -n "$prev" ] && [ "$named" != "$prev" ]; then
                problem "node $node names $named as the one before it, but that is $prev: end it with '} $prev;'"
        fi
        prev=$node
done <"$d/order"

# A call in two nodes is a call whose version depends on the linker.
sort "$d"/calls.* | uniq -d >"$d/twice"
while read -r name; do
        problem "'$name' is listed in more than one node of $symfile: keep it in the oldest"
done <"$d/twice"

# Released nodes: their lists, unchanged.
for list in "$abidir"/*.symbols; do
        [ -e "$list" ] || continue
        node=$(basename "$list" .symbols)
        if ! sort -c -u "$list" 2>/dev/null || grep -qv '^seinstall_[A-Za-z0-9_]*$' "$list"; then
                problem "$list is not one call name per line, sorted (LC_ALL=C sort -u)"
                continue
        fi
        if ! grep -qx "$node" "$d/order"; then
                problem "node $node is released ($list) but gone from $symfile: a released node is never removed"
                continue
        fi
        while read -r name; do
                problem "'$name' was added to node $node, which is released and frozen: new calls go into a new node after the newest, '$([ "$newest" = "$node" ] && echo "$next" || echo "$newest") { global: $name; } $newest;' (then $node keeps what $list lists)"
        done < <(comm -13 "$list" "$d/calls.$node")
        while read -r name; do
                problem "'$name' was removed from node $node, which is released: programs linked against $node call it; put it back (a released call is never removed)"
        done < <(comm -23 "$list" "$d/calls.$node")
done

# Every node before the newest is released, so it has a list.
while read -r node; do
        [ "$node" = "$newest" ] && continue
        [ -f "$abidir/$node.symbols" ] ||
                problem "node $node comes before $newest, so it was released, but $abidir/$node.symbols does not list its calls: commit the list (grep the node's calls, one a line, sorted)"
done <"$d/order"

[ "$problems" = 0 ] || exit 1
echo "ok: $(wc -l <"$d/order") node(s) in $(basename "$symfile"), each naming the one before; the released ones as $abidir lists them"
