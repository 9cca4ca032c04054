#!/bin/bash
# The project stands on its own: no tracked file cites a file outside the repository (the
# parent directory's shared/ folder, a Markdown file the tree does not have), every relative
# link and every repository path named in code spans of README.md, HACKING.md, docs/*.md and
# the installers' guides (installer-plugin/adapters/*/README.md) exists
# (tests/integration/lib/doc-refs.py says what counts), and nothing `make install` puts in a
# package cites a Markdown file, since a package ships none. The checker is first run on a
# scratch tree with one dangling reference of each kind, which it must report.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool python3 python3
refs=$TOP/tests/integration/lib/doc-refs.py

# The checker finds what it is for: each planted reference is reported, the good ones are not.
t=$(scratch_dir)
mkdir -p "$t/docs" "$t/installer-plugin/lib" "$t/installer-plugin/adapters/x" "$t/tests/integration"
up=..
cat >"$t/README.md" <<EOF
# Demo
## Using the library
The design: [design](docs/design.md#layers), [there](#using-the-library); not $up/shared/STYLE.md.
[gone](docs/gone.md) [no heading](docs/design.md#no-such-heading) [self](#nowhere)
\`tests/integration/kept.sh\`, \`tests/integration/adapter-*.sh\`, \`tests/integration/NAME.sh\`,
\`installer-plugin/lib/walk.c\`, \`lib/walk.c\`, \`walk.c\`, \`lib/x86_64-linux-gnu\`, \`grub.cfg\`
\`tests/integration/dropped.sh\` \`lib/dropped.c\` \`dropped.c\`
\`\`\`
tests/integration/in-a-code-block.sh
\`\`\`
A link [broken
across lines](docs/also-gone.md).
EOF
printf '# Design\n## Layers\n' >"$t/docs/design.md"
printf '# Hacking\n[run one](tests/gone-runner.sh)\n' >"$t/HACKING.md"
printf '# Guide\n`tests/integration/adapter-gone.sh`, [pic](../../../docs/gone.png), [ok](../../../HACKING.md#hacking)\n' \
        >"$t/installer-plugin/adapters/x/README.md"
printf '/* the verdict rules of %s.md "labeling" */\n' DESIGN >"$t/installer-plugin/lib/walk.c"
: >"$t/tests/integration/kept.sh"
: >"$t/tests/integration/adapter-x.sh"
(cd "$t" && find . -type f | sed 's|^\./||') >"$t.files"
on_exit "rm -f '$t.files'"
out=$(cd "$t" && xargs -d '\n' python3 "$refs" "$t" <"$t.files") && fail "doc-refs.py found nothing in the planted tree"
expected=(
        "README.md:3: cites $up/shared, outside the repository"
        "README.md:3: cites $up/shared/STYLE.md, which the repository does not have"
        "README.md:4: cites docs/gone.md, which the repository does not have"
        "README.md:4: links docs/gone.md: no such file in the repository"
        "README.md:4: links docs/design.md#no-such-heading: docs/design.md has no heading #no-such-heading"
        "README.md:4: links #nowhere: README.md has no heading #nowhere"
        "README.md:7: names \`tests/integration/dropped.sh\`, which the repository does not have"
        "README.md:7: names \`lib/dropped.c\`, not in installer-plugin/"
        "README.md:7: names \`dropped.c\`, no file of that name in the repository"
        "README.md:11: links docs/also-gone.md: no such file in the repository"
        "README.md:12: cites docs/also-gone.md, which the repository does not have"
        "installer-plugin/lib/walk.c:1: cites DESIGN.md, which the repository does not have"
        "HACKING.md:2: links tests/gone-runner.sh: no such file in the repository"
        "installer-plugin/adapters/x/README.md:2: names \`tests/integration/adapter-gone.sh\`, which the repository does not have"
        "installer-plugin/adapters/x/README.md:2: links ../../../docs/gone.png: no such file in the repository"
)
for e in "${expected[@]}"; do
        grep -qxF -- "$e" <<<"$out" || fail "doc-refs.py did not report '$e'; it said: $out"
done
[ "$(wc -l <<<"$out")" = "${#expected[@]}" ] || fail "doc-refs.py reported more than was planted: $out"
echo "ok: the checker reports each of ${#expected[@]} planted dangling references and nothing else"

# The repository: what a clone has (git's index), else (a release tarball) every file but build/.
# This file is read too, but not searched: its planted references above are meant to dangle.
if git_checkout; then
        git -C "$TOP" ls-files -z | tr '\0' '\n' >"$t.files"
else
        (cd "$TOP" && find . -path ./build -prune -o -type f -print | sed 's|^\./||') >"$t.files"
fi
n=$(wc -l <"$t.files")
[ "$n" -gt 100 ] || fail "only $n files listed in $TOP"
out=$(cd "$TOP" && SEINSTALL_DOC_REFS_SKIP=tests/integration/docs-links.sh \
        xargs -d '\n' python3 "$refs" "$TOP" <"$t.files") ||
        fail "dangling references in the repository:
$out"
echo "ok: $n files cite nothing outside the repository; README.md, HACKING.md, docs/*.md and the guides link and name only files it has"

# A package has no Markdown file: nothing installed may cite one.
dest=$(scratch_dir)
install_tree "$dest" PREFIX=/usr
cited=$(grep -rIlE '[A-Za-z0-9_-]\.md([^A-Za-z0-9_]|$)' "$dest") &&
        fail "installed files cite a Markdown file the package does not have: $cited"
[ -z "$(find "$dest" -name '*.md')" ] || fail "make install installed a Markdown file"
grep -q 'seinstall(8)' "$dest/usr/include/seinstall.h" || fail "the installed seinstall.h does not cite seinstall(8)"
echo "ok: the installed files cite no Markdown file; seinstall.h cites seinstall(8)"
