#!/bin/bash
# Each goal installs the Debian packages it needs and no others (the Makefile's DEPS_FOR_goal,
# through the one deps recipe): make demo no QEMU, Calamares or the bench's flex; make check
# everything its tests run (the end-to-end and adapter tests' too) but not the bench's flex and
# bc; plain make deps all of them. Every name is one apt knows, so a misspelt package fails
# here rather than on a new machine. Nothing is installed: deps-list prints, make -n prints.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

GOALS="demo check hosts e2e bench bench-scale fuzz"
has() { grep -qx "$2" <<<"$1"; }
declare -A L
for g in $GOALS; do
        L[$g]=$(run_make -s deps-list GOAL="$g" 2>&1) || fail "make deps-list GOAL=$g: ${L[$g]}"
        [ -n "${L[$g]}" ] || fail "make deps-list GOAL=$g prints nothing"
done
all=$(run_make -s deps-list 2>&1) || fail "make deps-list: $all"
run_make -s deps-list GOAL=no-such-goal >/dev/null 2>&1 && fail "make deps-list takes an unknown GOAL"

# The packages the dry run of `make GOAL` would look for: the deps recipe's loop, as make runs it.
dry() {
        run_make -n "$1" 2>/dev/null | sed -n 's/^.*for p in \(.*\); do.*$/\1/p' | head -n 1 | tr ' ' '\n' |
                sed '/^$/d'
}
for g in $GOALS deps; do
        want=${L[$g]:-$all}
        got=$(dry "$g")
        [ "$got" = "$want" ] || fail "make -n $g looks for other packages than deps-list GOAL=$g:
$(diff <(echo "$want") <(echo "$got"))"
done
echo "ok: make $GOALS and deps each look for their own list (make -n)"

for p in qemu-system-x86 qemu-utils mmdebstrap calamares mkosi flex bc libqt5svg5-dev; do
        has "${L[demo]}" "$p" && fail "make demo installs $p"
done
for p in build-essential libselinux1-dev selinux-policy-default e2fsprogs xfsprogs dosfstools \
        reiserfsprogs util-linux attr; do
        has "${L[demo]}" "$p" || fail "make demo does not install $p (tests/demo.sh needs it)"
done
echo "ok: make demo installs the build and what tests/demo.sh runs, $(wc -l <<<"${L[demo]}") packages"

for p in flex bc; do
        has "${L[check]}" "$p" && fail "make check installs $p, the bench's"
done
for g in e2e hosts; do
        while read -r p; do
                has "${L[check]}" "$p" || fail "make check runs the $g tests but does not install $p"
        done <<<"${L[$g]}"
done
for p in qemu-system-x86 mmdebstrap calamares debian-installer-12-netboot-amd64 mkosi strace time \
        shellcheck python3-jsonschema bubblewrap; do
        has "${L[check]}" "$p" || fail "make check does not install $p"
done
for p in qemu-system-x86 calamares flex; do
        has "${L[fuzz]}" "$p" && fail "make fuzz installs $p"
done
has "${L[fuzz]}" clang || fail "make fuzz does not install clang"
for p in flex bc time strace; do
        if ! has "${L[bench]}" "$p" || ! has "${L[bench-scale]}" "$p"; then
                fail "make bench or bench-scale does not install $p"
        fi
done
echo "ok: make check installs the end-to-end and adapter tests' packages, not the bench's flex and bc"

# What check does not install, no test it runs uses: the commands of those packages appear in
# no line of code of the tests (tests/bench is make bench's; this one names them).
code=()
for f in "$TOP"/tests/integration/*.sh "$TOP"/tests/*.sh "$TOP"/qemu/*.sh; do
        [ "$f" -ef "$0" ] || code+=("$f")
done
for p in $(comm -23 <(echo "$all") <(echo "${L[check]}")); do
        # not installed (make check does not install it): the package's name as its command
        bins=$(dpkg -L "$p" 2>/dev/null | sed -n 's|^/usr/s\?bin/||p')
        [ -n "$bins" ] || bins=$p
        for b in $bins; do
                re=${b//./\\.} && re=${re//+/\\+}
                hits=$(grep -nE "(^|[^[:alnum:]_./-])$re([^[:alnum:]_./-]|$)" \
                        "${code[@]}" |
                        grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
                [ -z "$hits" ] || fail "make check does not install $p, but a test runs $b: $hits"
        done
done
echo "ok: no test of make check runs a command of a package only make deps installs"

union=$(for g in $GOALS; do echo "${L[$g]}"; done | sort -u)
[ "$union" = "$all" ] || fail "the goals' lists together are not make deps' list:
$(diff <(echo "$all") <(echo "$union"))"
echo "ok: make deps installs the union of the goals' lists, $(wc -l <<<"$all") packages"

# apt's package lists name every package (a machine with none, a chroot before apt-get update,
# cannot say).
compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null ||
        skip "apt has no package lists here (apt-get update) to look the $(wc -l <<<"$all") names up in"
mapfile -t names <<<"$all"
known=$(apt-cache --no-all-versions show "${names[@]}" 2>/dev/null | sed -n 's/^Package: //p' | sort -u)
unknown=$(comm -23 <(echo "$all") <(echo "$known"))
[ -z "$unknown" ] || fail "apt-cache show knows no package ${unknown//$'\n'/ }"
echo "ok: apt knows every package of every list"
echo PASS
