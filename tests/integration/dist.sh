#!/bin/bash
# `make dist` makes build/seinstall-VERSION.tar.gz of what git tracks at HEAD, and a release
# built from it works as a clone does: `make` builds everything, the unit tests build and pass
# (the whole `make check` from a tarball is what a packager's build runs; here the unit tests
# stand for it, the rest needs nothing the tarball could lack that a clone has: the file lists
# are compared), and -Werror is not forced on a build outside the project's checks.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
command -v git >/dev/null || skip "git is not installed: make dist archives the git checkout"
git_checkout || skip "no git checkout (or no git): a release tarball has nothing to archive"

d=$(scratch_dir)
run_make -s dist BUILD="$d/b" >"$d/dist.log" 2>&1 || fail "make dist failed: $(cat "$d/dist.log")"
version=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^VERSION := //p' | head -n 1)
tarball=$d/b/seinstall-$version.tar.gz
[ -s "$tarball" ] || fail "no $tarball: $(cat "$d/dist.log")"
echo "ok: make dist made ${tarball##*/}"

# Exactly the tracked files, under seinstall-VERSION/.
tar -tzf "$tarball" | grep -v '/$' | sed "s|^seinstall-$version/||" | sort >"$d/in-tar"
git -C "$TOP" ls-tree -r --name-only HEAD | sort >"$d/tracked"
diff -u "$d/tracked" "$d/in-tar" >"$d/diff" || fail "the tarball and git's HEAD differ: $(cat "$d/diff")"
echo "ok: the tarball holds the $(wc -l <"$d/tracked") files git tracks, nothing else"

tar -xzf "$tarball" -C "$d" || fail "cannot unpack $tarball"
src=$d/seinstall-$version
[ ! -e "$src/.git" ] || fail "the tarball carries .git"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE make -C "$src" -s -j2 >"$d/build.log" 2>&1 ||
        fail "make in the unpacked release failed: $(tail -n 20 "$d/build.log")"
"$src/build/bin/seinstall" --version | grep -qx "seinstall $version" ||
        fail "the release's seinstall --version is not 'seinstall $version'"
echo "ok: make builds the release; seinstall --version says $version"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE make -C "$src" -s -j2 WERROR=-Werror tests check-format >"$d/tests.log" 2>&1 ||
        fail "make tests check-format in the release failed: $(tail -n 20 "$d/tests.log")"
(cd "$src" && tests/run-tests.sh $(find build/tests/unit -maxdepth 1 -type f -perm -u+x -name "test-*" | sort)) >"$d/unit.log" 2>&1 ||
        fail "the release's unit tests failed: $(tail -n 20 "$d/unit.log")"
echo "ok: the release's unit tests: $(tail -n 1 "$d/unit.log")"
