#!/bin/bash
# `make install` installs the files it names, not whatever lies beside them: in a copy of the
# tree (under a directory whose name has a space) where Python left a __pycache__ next to the
# Calamares module, as a test run without PYTHONDONTWRITEBYTECODE or an interpreter importing
# it does, the DESTDIR holds no __pycache__ and no .pyc, and still the module's main.py. The
# tests themselves write no bytecode into the tree (tests/lib.sh): after the real tree's
# install, it has none either.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool python3 python3

bytecode() { find "$1" \( -name __pycache__ -o -name '*.py[co]' \) -print; }

d=$(scratch_dir)
src="$d/se install"
mkdir -p "$src"
if git_checkout; then
        (cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$src") || fail "copying the tree"
else
        (cd "$TOP" && tar -c --exclude=./build .) | tar -x -C "$src" || fail "copying the tree"
fi
mod=$src/installer-plugin/adapters/calamares/seinstall
python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)' "$mod/main.py" ||
        fail "py_compile $mod/main.py"
[ -n "$(bytecode "$mod")" ] || fail "py_compile left no bytecode in $mod: the test proves nothing"
echo "the copy holds: $(bytecode "$src" | sed "s|^$src/||" | tr '\n' ' ')"

dest=$d/dest
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$src" -j2 \
        ${SAN_FLAGS:+SANITIZE=1} install DESTDIR="$dest" >"$d/make.log" 2>&1 ||
        fail "make install from '$src': $(tail -n 20 "$d/make.log")"
echo "ok: make install DESTDIR=$dest from '$src'"
left=$(bytecode "$dest")
[ -z "$left" ] || fail "make install installed Python bytecode: $left"
[ -f "$dest/usr/share/seinstall/adapters/calamares/seinstall/main.py" ] ||
        fail "make install did not install the Calamares module's main.py"
echo "ok: the DESTDIR has the module's main.py and no __pycache__ or .pyc"

install_tree "$d/dest-top"
left=$(bytecode "$d/dest-top")
[ -z "$left" ] || fail "make install of $TOP installed Python bytecode: $left"
left=$(bytecode "$TOP/installer-plugin" "$TOP/tests")
[ -z "$left" ] || fail "the tree holds Python bytecode (a test wrote it?): $left"
echo "ok: neither $TOP nor its make install holds Python bytecode"
