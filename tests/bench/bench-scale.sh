#!/bin/bash
# make bench-scale: seinstall relabel and the newest setfiles (-F -T 0, see bench.sh) at about
# 100,000 and 1,000,000 entries, time and peak memory, and a tree of 100,000 hard links. With
# BENCH_UPSTREAM_SRC="DIR|TARBALL ..." also policycoreutils' own setfiles built from each
# (NAME-T0: setfiles -m -F -T 0, NAME-A: the same with -A; see bench.sh).
#
# The trees replicate this machine's /etc, /usr and /var/lib (names, types and modes; every
# file empty, since labeling never reads contents) on loop-mounted ext4:
#   100k  /etc, /usr/{bin,sbin,lib,include}, /var/lib once
#   1M    the whole copy (about 170k entries here) under the root, then copies of it under
#         /srv/replica-N/ until the tree holds 1,000,000 entries
#   links SCALE_LINK_FILES files (default 100,000) in directories of 100, then each given
#         SCALE_LINK_NAMES more names (default 1: 100,000 hard links, 200,000 names in all)
# Every run has warm caches and starts from an unlabeled tree, then (SCALE_STATES, default
# "unlabeled labeled") from one already labeled as the policy says. SCALE_TREES=0 runs only the
# hard-link part. The checks:
# - seinstall's peak memory at 1M stays within SCALE_RSS_GROWTH_MIB (default 16) of its peak at
#   100k: memory follows the depth and width of the tree, not its size;
# - on the hard-link tree seinstall writes each inode's label once (lsetxattr/fsetxattr/setxattr
#   calls counted with strace), labels match the newest setfiles, and its peak memory stays
#   within SCALE_LINKS_RSS_MIB (default 16) above that of the same tree without the extra names
#   (walk-links.c bounds it by construction: at most 64 MiB, whatever the number of links);
# - with BENCH_UPSTREAM_SRC: seinstall's peak memory no more than the smallest of the NAME-A
#   setfiles' (which keep no table of hard links) at 100k and at 1M, and seinstall at least
#   SCALE_MIN_SPEEDUP (default 2) times faster than the fastest setfiles in each state at 1M.
. "$(dirname "$0")/../lib.sh"
require_loop
. "$TOP/tests/bench/bench-lib.sh"
START_LOAD=$(uptime)
GROWTH_MAX=${SCALE_RSS_GROWTH_MIB:-16}
LINKS_MAX=${SCALE_LINKS_RSS_MIB:-16}
TARGET=${SCALE_ENTRIES:-1000000}
LINK_FILES=${SCALE_LINK_FILES:-100000}
LINK_NAMES=${SCALE_LINK_NAMES:-1}
MIN_SPEEDUP=${SCALE_MIN_SPEEDUP:-2}
SCALE_STATES=${SCALE_STATES:-unlabeled labeled}
# the tools timed on the two trees: the setfiles among them are all but seinstall
SCALE_TOOLS=(seinstall newest-T0 "${UP_TOOLS[@]}")

d=$(scratch_dir)
declare -A TIME RSS

# measure NAME ROOT: warm runs of every tool on ROOT in each state; RSS[TOOL NAME]: the
# largest peak of its runs there
measure() {
        local name=$1 r=$2 out state tool mib
        for state in $SCALE_STATES; do
                for tool in "${SCALE_TOOLS[@]}"; do
                        "$FLOOR" "$r" --remove >/dev/null || fail "could not remove the labels"
                        if [ "$state" = labeled ]; then
                                "$SEINSTALL" relabel --root "$r" --no-progress >/dev/null 2>&1 ||
                                        fail "could not label the tree"
                        fi
                        "$FLOOR" "$r" --read >/dev/null
                        # shellcheck disable=SC2046 # the command line, split
                        case $tool in
                        seinstall) timed out "$SEINSTALL" relabel --root "$r" --no-progress ;;
                        newest-T0) timed out "$DRIVER" -F -T 0 -r "$r" "$FC" "$r" ;;
                        *) timed out $(up_cmd "$tool" "$r") ;;
                        esac
                        mib=$((${out#* } / 1024))
                        TIME[$tool $name $state]=${out% *}
                        [ "$mib" -gt "${RSS[$tool $name]:-0}" ] && RSS[$tool $name]=$mib
                        echo "  $name $state: $tool ${out% *} s, $mib MiB"
                done
        done
}

new_fs() { # new_fs NAME SIZE INODES: a mounted empty ext4 at $d/NAME
        truncate -s "$2" "$d/$1.img"
        mkfs.ext4 -q -F -N "$3" "$d/$1.img" || fail "mkfs.ext4"
        mount_image "$d/$1.img" "$d/$1"
}

if [ "${SCALE_TREES:-1}" = 1 ]; then
t0=$(date +%s)
echo "building the 100k tree..."
new_fs small 3G 300000
copy_tree "$d/small" --empty etc usr/bin usr/sbin usr/lib usr/include var/lib
N_SMALL=$(find "$d/small" -xdev | wc -l)
echo "building the 1M tree..."
new_fs big 12G 1300000
# shellcheck disable=SC2086
copy_tree "$d/big" --empty $SRC_DIRS
base=$(find "$d/big" -xdev | wc -l)
n=$base
i=1
while [ "$n" -lt "$TARGET" ]; do
        mkdir -p "$d/big/srv/replica-$i"
        for x in etc usr var; do cp -a --attributes-only "$d/big/$x" "$d/big/srv/replica-$i/"; done
        n=$(find "$d/big" -xdev | wc -l)
        i=$((i + 1))
done
N_BIG=$n
echo "trees: $N_SMALL and $N_BIG entries, built in $(($(date +%s) - t0)) s"

echo "timing..."
measure 100k "$d/small"
dump_labels "$d/small" "$d/small.newest"
measure 1M "$d/big"
fi

echo "the hard-link tree..."
new_fs links 4G $((LINK_FILES * 2 + 50000))
L=$d/links
mkdir -p "$L/etc" "$L/usr/share/data" "$L/var/lib/data"
cp -a /etc/selinux "$L/etc/"
# flat: LINK_FILES files, one name each; then the same files given LINK_NAMES more names each
for dd in $(seq 1 $(((LINK_FILES + 99) / 100))); do
        mkdir -p "$L/usr/share/data/d$dd"
        (cd "$L/usr/share/data/d$dd" && touch $(seq -f 'f%g' 1 100))
done
N_FLAT=$(find "$L" -xdev | wc -l)
"$FLOOR" "$L" --remove >/dev/null
timed out "$SEINSTALL" relabel --root "$L" --no-progress
RSS_FLAT=$((${out#* } / 1024))
for k in $(seq 1 "$LINK_NAMES"); do
        cp -al "$L/usr/share/data" "$L/var/lib/data/n$k" || fail "cp -al"
done
N_LINKS=$(find "$L" -xdev | wc -l)
N_INODES=$(find "$L" -xdev -printf '%i\n' | sort -u | wc -l)
"$FLOOR" "$L" --remove >/dev/null
timed out "$SEINSTALL" relabel --root "$L" --no-progress
T_LINKS=${out% *}
RSS_LINKS=$((${out#* } / 1024))
dump_labels "$L" "$d/links.seinstall"
"$FLOOR" "$L" --remove >/dev/null
timed out "$DRIVER" -F -T 0 -r "$L" "$FC" "$L"
T_LINKS_NEW=${out% *}
RSS_LINKS_NEW=$((${out#* } / 1024))
dump_labels "$L" "$d/links.newest"
"$FLOOR" "$L" --remove >/dev/null
WRITES=
if command -v strace >/dev/null; then
        strace -f -c -o "$d/strace" -e trace=setxattr,lsetxattr,fsetxattr \
                "$SEINSTALL" relabel --root "$L" --no-progress >/dev/null 2>&1
        WRITES=$(awk '$NF ~ /setxattr$/ {n += $4} END {print n + 0}' "$d/strace")
fi
# Labels that differ, and how many of them are on files with one name: the newest setfiles
# gives a file with several names the label of whichever name its walk meets first (ext4's
# directory order), seinstall that of the name that sorts first, on purpose (docs/bench.md).
(cd "$L" && find . -xdev -type f -links +1) >"$d/multi"
read -r ldiff lsingle < <(python3 - "$d/links.seinstall" "$d/links.newest" "$d/multi" <<'PY'
import sys
def dump(f):
    d, name = {}, None
    for line in open(f, errors="surrogateescape"):
        if line.startswith("# file: "):
            name = line[8:].rstrip("\n")
        elif line.startswith("security.selinux=") and name is not None:
            d[name] = line.rstrip("\n")
    return d
a, b = dump(sys.argv[1]), dump(sys.argv[2])
multi = set(l.rstrip("\n") for l in open(sys.argv[3], errors="surrogateescape"))
diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
print(len(diff), sum(1 for k in diff if k not in multi))
PY
)

echo
echo "scale: seinstall relabel and the newest setfiles ($NEWEST, setfiles-driver -F -T 0)"
echo "machine: $(machine)"
echo "load: before $START_LOAD"
echo "      after  $(uptime)"
echo "warm caches, one run of each tool in each state ($SCALE_STATES); every file empty"
if [ "${SCALE_TREES:-1}" = 1 ]; then
        [ -n "$UP_DESC" ] && echo "upstream: $UP_DESC (setfiles -m -F [-A] -T 0)"
        echo "trees: 100k = $N_SMALL entries, 1M = $N_BIG entries; seconds, and beside each its time / seinstall's"
        W=12
        for tool in "${SCALE_TOOLS[@]}"; do [ ${#tool} -lt $W ] || W=$((${#tool} + 1)); done
        printf '\n%-*s' $W tool
        for name in 100k 1M; do
                for state in $SCALE_STATES; do printf ' %16s' "$name $state"; done
        done
        printf ' %9s %9s %8s\n' "100k MiB" "1M MiB" growth
        for tool in "${SCALE_TOOLS[@]}"; do
                printf '%-*s' $W "$tool"
                for name in 100k 1M; do
                        for state in $SCALE_STATES; do
                                t=${TIME[$tool $name $state]}
                                if [ "$tool" = seinstall ]; then
                                        printf ' %8s %7s' "$t" ""
                                else
                                        printf ' %8s %6sx' "$t" "$(ratio "$t" "${TIME[seinstall $name $state]}")"
                                fi
                        done
                done
                printf ' %9s %9s %7sx\n' "${RSS[$tool 100k]}" "${RSS[$tool 1M]}" \
                        "$(ratio "${RSS[$tool 1M]}" "${RSS[$tool 100k]}")"
        done
fi
echo
echo "hard links: $N_LINKS names, $N_INODES inodes: seinstall $T_LINKS s, $RSS_LINKS MiB" \
        "($RSS_FLAT MiB for the same $N_FLAT-entry tree before the extra names);" \
        "newest-T0 $T_LINKS_NEW s, $RSS_LINKS_NEW MiB"
[ -n "$WRITES" ] && echo "hard links: seinstall wrote $WRITES labels for $N_INODES inodes"
echo "labels on the hard-link tree: $ldiff differ from the newest setfiles', $lsingle of them on files with one name"

if [ "${SCALE_TREES:-1}" = 1 ]; then
        big_rss=${RSS[seinstall 1M]}
        small_rss=${RSS[seinstall 100k]}
        grow=$((big_rss - small_rss))
        [ "$grow" -le "$GROWTH_MAX" ] ||
                fail "seinstall's peak memory grew by $grow MiB from 100k to 1M (bound: $GROWTH_MAX MiB)"
        echo "ok: peak memory +$grow MiB from 100k to 1M (bound $GROWTH_MAX)"
fi
# The comparison with upstream setfiles: all of it printed, then the first failure, if any.
up_failed=
if [ "${SCALE_TREES:-1}" = 1 ] && [ ${#UP_TOOLS[@]} -gt 0 ]; then
        for name in 100k 1M; do
                least=
                for tool in "${UP_TOOLS[@]}"; do
                        [ "${tool%-A}" != "$tool" ] || continue
                        [ -n "$least" ] && [ "${RSS[$tool $name]}" -ge "${RSS[$least $name]}" ] ||
                                least=$tool
                done
                s=${RSS[seinstall $name]}
                if [ "$s" -le "${RSS[$least $name]}" ]; then
                        echo "ok: peak memory at $name: seinstall $s MiB, $least ${RSS[$least $name]} MiB"
                else
                        echo "FAILED: peak memory at $name: seinstall $s MiB, more than $least's ${RSS[$least $name]} MiB"
                        up_failed=${up_failed:-"seinstall's peak memory at $name: $s MiB, more than $least's ${RSS[$least $name]} MiB"}
                fi
        done
        for state in $SCALE_STATES; do
                best=
                for tool in "${SCALE_TOOLS[@]}"; do
                        [ "$tool" != seinstall ] || continue
                        [ -n "$best" ] && [ "$(echo "${TIME[$tool 1M $state]} >= ${TIME[$best 1M $state]}" | bc)" = 1 ] ||
                                best=$tool
                done
                s=${TIME[seinstall 1M $state]}
                x=$(ratio "${TIME[$best 1M $state]}" "$s")
                if [ "$(echo "$s * $MIN_SPEEDUP <= ${TIME[$best 1M $state]}" | bc)" = 1 ]; then
                        echo "ok: 1M $state: seinstall $s s, ${x}x faster than the fastest setfiles ($best, ${TIME[$best 1M $state]} s)"
                else
                        echo "FAILED: 1M $state: seinstall $s s, only ${x}x faster than $best (${TIME[$best 1M $state]} s; bound ${MIN_SPEEDUP}x)"
                        up_failed=${up_failed:-"seinstall at 1M $state only ${x}x faster than $best (bound ${MIN_SPEEDUP}x)"}
                fi
        done
fi
[ $((RSS_LINKS - RSS_FLAT)) -le "$LINKS_MAX" ] ||
        fail "100,000 hard links took $((RSS_LINKS - RSS_FLAT)) MiB more (bound: $LINKS_MAX MiB)"
# (+1: seinstall's check that the filesystem keeps security.selinux, on an O_TMPFILE)
[ -z "$WRITES" ] || [ "$WRITES" -le $((N_INODES + 1)) ] ||
        fail "seinstall wrote $WRITES labels for $N_INODES inodes"
[ "$lsingle" = 0 ] || { diff "$d/links.seinstall" "$d/links.newest" | head -20; fail "labels differ on files with one name"; }
echo "ok: +$((RSS_LINKS - RSS_FLAT)) MiB for $((N_LINKS - N_FLAT)) extra names of $LINK_FILES files (bound $LINKS_MAX)"
[ -z "$up_failed" ] || fail "$up_failed"
