#!/bin/bash
# make bench: how fast `seinstall relabel` labels a real tree, next to Debian's setfiles.
#
# A tree of at least 150,000 entries copied from this machine's own /usr, /etc and /var (the
# names, types and small files as they are; files over 256 KiB are copied as empty files of
# the same name, since labeling never reads contents) on a loop-mounted ext4. Every timed run
# starts from the same wrong labels (everything tmp_t) and warm caches, and writes every label:
#   seinstall      seinstall relabel (one thread per CPU)
#   setfiles-T0    setfiles -F -T 0 (libselinux 3.4, as many threads as CPUs)
#   setfiles       setfiles -F (one thread)
#   floor          tests/bench/floor: walk + lgetxattr + lsetxattr of one constant label, one
#                  thread, no lookup: what any relabel must spend at least
# BENCH_RUNS runs each (default 3); medians, ratios and peak RSS are printed, and the labels
# seinstall and setfiles wrote are compared. Not part of `make check` (it takes minutes).
. "$(dirname "$0")/../lib.sh"
require_loop
RUNS=${BENCH_RUNS:-3}
FC=/etc/selinux/default/contexts/files/file_contexts
[ -r "$FC" ] || skip "no $FC (make deps installs selinux-policy-default)"
command -v setfiles >/dev/null || skip "no setfiles (make deps installs policycoreutils)"
BUILD=${SEINSTALL_BUILD:-build}
FLOOR=$TOP/$BUILD/tests/bench/floor
mkdir -p "$(dirname "$FLOOR")"
${CC:-cc} -O2 -Wall -Wextra -Werror -o "$FLOOR" "$TOP/tests/bench/floor.c" || fail "cannot build floor"

d=$(scratch_dir)
R=$d/root
truncate -s 6G "$d/root.img"
mkfs.ext4 -q -F -N 600000 "$d/root.img" || fail "mkfs.ext4"
mount_image "$d/root.img" "$R"

echo "building the tree (copies of this machine's files)..."
t0=$(date +%s)
(cd / && find etc usr/bin usr/sbin usr/lib usr/share usr/include usr/local var/lib -xdev \
        \( ! -type f -o -size -257k \) -print0 2>/dev/null |
        tar --null --no-recursion -cf - -T - 2>/dev/null) | tar -C "$R" -xf - 2>/dev/null
(cd / && find etc usr/bin usr/sbin usr/lib usr/share usr/include usr/local var/lib -xdev -type f \
        -size +256k -print0 2>/dev/null) | (cd "$R" && xargs -0 -r touch)
cp -a /etc/selinux "$R/etc/" # the target's policy and file contexts, whole
for l in bin sbin lib lib64; do [ -e "$R/$l" ] || ln -s "usr/$l" "$R/$l"; done
mkdir -p "$R/home/user/.ssh" "$R/root" "$R/tmp" "$R/dev" "$R/run" "$R/srv"
ENTRIES=$(find "$R" -xdev | wc -l)
echo "tree: $ENTRIES entries ($(du -sh "$R" | cut -f1)), built in $(($(date +%s) - t0)) s"
[ "$ENTRIES" -ge 150000 ] || fail "only $ENTRIES entries; the benchmark needs at least 150,000"

printf '/.*\tsystem_u:object_r:tmp_t:s0\n' >"$d/scramble_fc"
scramble() {
        "$SEINSTALL" relabel --root "$R" --file-contexts "$d/scramble_fc" --no-progress \
                --threads 2 >/dev/null 2>&1 || fail "could not reset the labels"
}
dump() {
        (cd "$R" && getfattr -R -h -n security.selinux --absolute-names . 2>/dev/null) >"$1"
}

# name command...: RUNS timed runs, each after a reset; prints "name median_s peak_rss_kb"
declare -A MED RSS
run() {
        local name=$1 times=() rss=0 i out t m
        shift
        for i in $(seq 1 "$RUNS"); do
                scramble
                out=$(/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1)
                t=${out% *}
                m=${out#* }
                times+=("$t")
                [ "$m" -gt "$rss" ] && rss=$m
                echo "  $name run $i: ${t} s, ${m} KiB"
        done
        MED[$name]=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
        RSS[$name]=$rss
}

scramble
dump /dev/null # warm the caches
echo "timing ($RUNS runs each, $(nproc) CPUs)..."
run seinstall "$SEINSTALL" relabel --root "$R" --no-progress
dump "$d/labels.seinstall"
run floor "$FLOOR" "$R" system_u:object_r:usr_t:s0
run setfiles-T0 setfiles -F -T 0 -r "$R" "$FC" "$R"
dump "$d/labels.setfiles"
run setfiles setfiles -F -r "$R" "$FC" "$R"

ndiff=$(diff "$d/labels.seinstall" "$d/labels.setfiles" | grep -c '^<')
nlab=$(grep -c '^security.selinux' "$d/labels.seinstall")

ratio() { echo "scale=1; $1 / $2" | bc; }
echo
echo "relabel of $ENTRIES entries on ext4, $(nproc) CPUs, median of $RUNS runs"
printf '%-14s %10s %12s\n' tool seconds "peak RSS"
for n in seinstall setfiles-T0 setfiles floor; do
        printf '%-14s %10s %9s MiB\n' "$n" "${MED[$n]}" "$((RSS[$n] / 1024))"
done
echo "setfiles -T 0 / seinstall: $(ratio "${MED[setfiles-T0]}" "${MED[seinstall]}")x"
echo "setfiles      / seinstall: $(ratio "${MED[setfiles]}" "${MED[seinstall]}")x"
echo "seinstall / floor:         $(ratio "${MED[seinstall]}" "${MED[floor]}")x"
echo "labels: $nlab entries compared with setfiles -F -T 0, $ndiff differ"
[ "$ndiff" = 0 ] || diff "$d/labels.seinstall" "$d/labels.setfiles" | head -20

# The first-boot relabel under QEMU, seinstall against Debian's fixfiles (tests/bench/firstboot-bench.sh).
"$TOP/tests/bench/firstboot-bench.sh"
