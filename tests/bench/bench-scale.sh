#!/bin/bash
# make bench-scale: seinstall relabel and the newest setfiles (-F -T 0, see bench.sh) at about
# 100,000 and 1,000,000 entries, time and peak memory, and a tree of 100,000 hard links.
#
# The trees replicate this machine's /etc, /usr and /var/lib (names, types and modes; every
# file empty, since labeling never reads contents) on loop-mounted ext4:
#   100k  /etc, /usr/{bin,sbin,lib,include}, /var/lib once
#   1M    the whole copy (about 170k entries here) under the root, then copies of it under
#         /srv/replica-N/ until the tree holds 1,000,000 entries
#   links SCALE_LINK_FILES files (default 100,000) in directories of 100, then each given
#         SCALE_LINK_NAMES more names (default 1: 100,000 hard links, 200,000 names in all)
# Every run starts from an unlabeled tree with warm caches. SCALE_TREES=0 runs only the
# hard-link part. The checks:
# - seinstall's peak memory at 1M stays within SCALE_RSS_GROWTH_MIB (default 16) of its peak at
#   100k: memory follows the depth and width of the tree, not its size;
# - on the hard-link tree seinstall writes each inode's label once (lsetxattr/fsetxattr/setxattr
#   calls counted with strace), labels match the newest setfiles, and its peak memory stays
#   within SCALE_LINKS_RSS_MIB (default 16) above that of the same tree without the extra names
#   (walk-links.c bounds it by construction: at most 64 MiB, whatever the number of links).
. "$(dirname "$0")/../lib.sh"
require_loop
. "$TOP/tests/bench/bench-lib.sh"
START_LOAD=$(uptime)
GROWTH_MAX=${SCALE_RSS_GROWTH_MIB:-16}
LINKS_MAX=${SCALE_LINKS_RSS_MIB:-16}
TARGET=${SCALE_ENTRIES:-1000000}
LINK_FILES=${SCALE_LINK_FILES:-100000}
LINK_NAMES=${SCALE_LINK_NAMES:-1}

d=$(scratch_dir)
declare -A TIME RSS

# measure NAME ROOT: unlabeled warm runs of seinstall and newest-T0 on ROOT
measure() {
        local name=$1 r=$2 out
        for tool in seinstall newest-T0; do
                "$FLOOR" "$r" --remove >/dev/null || fail "could not remove the labels"
                "$FLOOR" "$r" --read >/dev/null
                if [ "$tool" = seinstall ]; then
                        timed out "$SEINSTALL" relabel --root "$r" --no-progress
                else
                        timed out "$DRIVER" -F -T 0 -r "$r" "$FC" "$r"
                fi
                TIME[$tool $name]=${out% *}
                RSS[$tool $name]=$((${out#* } / 1024))
                echo "  $name: $tool ${out% *} s, $((${out#* } / 1024)) MiB"
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
echo "unlabeled trees, warm caches, one run each; every file empty"
if [ "${SCALE_TREES:-1}" = 1 ]; then
printf '\n%-26s %10s %10s %10s %10s\n' tree "seinstall" "newest-T0" "sei MiB" "new MiB"
printf '%-26s %9ss %9ss %10s %10s\n' "100k ($N_SMALL entries)" "${TIME[seinstall 100k]}" \
        "${TIME[newest-T0 100k]}" "${RSS[seinstall 100k]}" "${RSS[newest-T0 100k]}"
printf '%-26s %9ss %9ss %10s %10s\n' "1M ($N_BIG entries)" "${TIME[seinstall 1M]}" \
        "${TIME[newest-T0 1M]}" "${RSS[seinstall 1M]}" "${RSS[newest-T0 1M]}"
printf '%-26s %9sx %9sx %9sx %9sx\n' "growth 100k -> 1M" \
        "$(ratio "${TIME[seinstall 1M]}" "${TIME[seinstall 100k]}")" \
        "$(ratio "${TIME[newest-T0 1M]}" "${TIME[newest-T0 100k]}")" \
        "$(ratio "${RSS[seinstall 1M]}" "${RSS[seinstall 100k]}")" \
        "$(ratio "${RSS[newest-T0 1M]}" "${RSS[newest-T0 100k]}")"
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
[ $((RSS_LINKS - RSS_FLAT)) -le "$LINKS_MAX" ] ||
        fail "100,000 hard links took $((RSS_LINKS - RSS_FLAT)) MiB more (bound: $LINKS_MAX MiB)"
# (+1: seinstall's check that the filesystem keeps security.selinux, on an O_TMPFILE)
[ -z "$WRITES" ] || [ "$WRITES" -le $((N_INODES + 1)) ] ||
        fail "seinstall wrote $WRITES labels for $N_INODES inodes"
[ "$lsingle" = 0 ] || { diff "$d/links.seinstall" "$d/links.newest" | head -20; fail "labels differ on files with one name"; }
echo "ok: +$((RSS_LINKS - RSS_FLAT)) MiB for $((N_LINKS - N_FLAT)) extra names of $LINK_FILES files (bound $LINKS_MAX)"
