#!/bin/bash
# make bench: how fast `seinstall relabel` labels a real tree, next to the newest setfiles the
# Debian archive serves, Debian 12's setfiles and the syscall floor, side by side in one run.
#
# The tree: this machine's /etc, /usr and /var/lib copied onto a loop-mounted ext4 (names,
# types and small files as they are; files over 256 KiB as empty files of the same name, since
# labeling never reads contents), with the machine's policy. Tools, each on the same tree:
#   seinstall      seinstall relabel (one thread per CPU)
#   newest-T0      setfiles -F -T 0 of the newest libselinux Debian's source archive serves,
#                  built once into build/bench-upstream by tests/bench/upstream.sh
#                  (setfiles-driver.c makes setfiles' exact library calls)
#   newest-T1      the same, -T 1 (one thread, setfiles' default)
#   NAME-T0        BENCH_UPSTREAM_SRC="DIR|TARBALL ..." only: policycoreutils' own setfiles
#                  built from each SELinux userspace source given (a git archive of
#                  SELinuxProject/selinux; tests/bench/upstream-src.sh, once, into
#                  build/bench-upstream-NAME), run as image builders run it:
#                  setfiles -m -F -T 0 -r ROOT file_contexts ROOT
#   NAME-A         the same with -A (3.10's option: no hard-link tracking)
#   debian-T0      Debian 12's own setfiles -F -T 0 (libselinux 3.4)
#   firstboot      seinstall-relabel.service's work (tests/bench/firstboot-walks.sh): one
#                  relabel --under-mounts (the tree, then what the mounts on it hide)
#   floor          tests/bench/floor: walk + lgetxattr (+ lsetxattr of one constant label when
#                  the tree is unlabeled), one thread, no lookup: what any relabel must spend
#   floor-2T       the same calls split over two threads (floor -j 2): the floor on two cores
#   verify         seinstall verify (labeled state only: it must report nothing and exit 0)
#   newest-n       the newest setfiles -n -F -T 0 (dry run; labeled state only)
#   base           BENCH_BASE=PATH only: another seinstall binary (say, main's before a
#                  change), for a before/after comparison in the same run
# States: "unlabeled" (no security.selinux on any entry, as after mkfs and unpacking) and
# "labeled" (every label already right: a second run, or a first-boot check); caches "warm"
# (the tree just read) and "cold" (drop_caches right before the run). BENCH_RUNS rounds
# (default 3) of every tool in every state (Debian 12's setfiles, at about 50 s a run on an idle
# machine, only BENCH_DEBIAN_RUNS of them, default 1); medians, ratios and peak RSS are
# printed, and the labels seinstall wrote are compared with the newest libselinux's (and each
# NAME-T0's and NAME-A's) on every entry.
# Not part of `make check` (it takes several minutes). `make bench-scale` is the 1M-entry one.
. "$(dirname "$0")/../lib.sh"
require_loop
. "$TOP/tests/bench/bench-lib.sh"
RUNS=${BENCH_RUNS:-3}
DEBIAN_RUNS=${BENCH_DEBIAN_RUNS:-1}
out=
# BENCH_TOOLS, BENCH_STATES, BENCH_CACHES pick a part (all by default)
read -r -a TOOLS <<<"${BENCH_TOOLS:-seinstall verify newest-T0 newest-n newest-T1 debian-T0 floor floor-2T firstboot}"
TOOLS+=("${UP_TOOLS[@]}")
[ -n "${BENCH_BASE:-}" ] && TOOLS+=(base)
STATES=${BENCH_STATES:-unlabeled labeled}
CACHES=${BENCH_CACHES:-warm cold}
START_LOAD=$(uptime)

d=$(scratch_dir)
R=$d/root
truncate -s 6G "$d/root.img"
mkfs.ext4 -q -F -N 600000 "$d/root.img" || fail "mkfs.ext4"
mount_image "$d/root.img" "$R"

echo "building the tree (copies of this machine's files)..."
t0=$(date +%s)
# shellcheck disable=SC2086
copy_tree "$R" $SRC_DIRS
ENTRIES=$(find "$R" -xdev | wc -l)
echo "tree: $ENTRIES entries ($(du -sh "$R" | cut -f1)), built in $(($(date +%s) - t0)) s"
[ "$ENTRIES" -ge 150000 ] || fail "only $ENTRIES entries; the benchmark needs at least 150,000"

cmd() {
        is_up "$1" && { up_cmd "$1" "$R"; return; }
        case $1 in
        seinstall) echo "$SEINSTALL relabel --root $R --no-progress" ;;
        base) echo "$BENCH_BASE relabel --root $R --no-progress" ;;
        verify) echo "$SEINSTALL verify --root $R --no-progress" ;;
        newest-n) echo "$DRIVER -n -F -T 0 -r $R $FC $R" ;;
        newest-T0) echo "$DRIVER -F -T 0 -r $R $FC $R" ;;
        newest-T1) echo "$DRIVER -F -T 1 -r $R $FC $R" ;;
        debian-T0) echo "setfiles -F -T 0 -r $R $FC $R" ;;
        firstboot) echo "$TOP/tests/bench/firstboot-walks.sh $SEINSTALL $R" ;;
        floor) [ "$2" = unlabeled ] && echo "$FLOOR $R system_u:object_r:usr_t:s0" ||
                echo "$FLOOR $R --read" ;;
        floor-2T) [ "$2" = unlabeled ] && echo "$FLOOR -j 2 $R system_u:object_r:usr_t:s0" ||
                echo "$FLOOR -j 2 $R --read" ;;
        esac
}
# set_state STATE: make the tree unlabeled, or labeled as the policy says
set_state() {
        if [ "$1" = unlabeled ]; then
                "$FLOOR" "$R" --remove >/dev/null || fail "could not remove the labels"
        else
                "$SEINSTALL" relabel --root "$R" --no-progress >/dev/null 2>&1 ||
                        fail "could not label the tree"
        fi
}

declare -A T RSS MED
echo "timing: $RUNS rounds of ${TOOLS[*]} in each state, $(nproc) CPUs; load: $START_LOAD"
for state in $STATES; do
        for cache in $CACHES; do
                for i in $(seq 1 "$RUNS"); do
                        for tool in "${TOOLS[@]}"; do
                                [ "$tool" = debian-T0 ] && [ "$i" -gt "$DEBIAN_RUNS" ] && continue
                                # the read-only checks only make sense on a labeled tree
                                case $tool in verify | newest-n) [ "$state" = labeled ] || continue ;; esac
                                set_state "$state"
                                if [ "$cache" = cold ]; then drop_caches; else "$FLOOR" "$R" --read >/dev/null; fi
                                # shellcheck disable=SC2046
                                timed out $(cmd "$tool" "$state")
                                k="$tool $state $cache"
                                T[$k]="${T[$k]:-} ${out% *}"
                                [ "${out#* }" -gt "${RSS[$tool]:-0}" ] && RSS[$tool]=${out#* }
                                echo "  $state $cache round $i: $tool ${out% *} s, ${out#* } KiB"
                                if [ "$state $cache $i" = "unlabeled warm 1" ]; then
                                        case $tool in
                                        seinstall) dump_labels "$R" "$d/labels.seinstall" ;;
                                        newest-T0) dump_labels "$R" "$d/labels.newest" ;;
                                        debian-T0) dump_labels "$R" "$d/labels.debian" ;;
                                        *) if is_up "$tool"; then dump_labels "$R" "$d/labels.$tool"; fi ;;
                                        esac
                                fi
                        done
                done
                for tool in "${TOOLS[@]}"; do
                        # shellcheck disable=SC2086
                        MED[$tool $state $cache]=$(median ${T[$tool $state $cache]:-})
                done
        done
done
END_LOAD=$(uptime)

touch "$d/labels.seinstall" "$d/labels.newest" "$d/labels.debian"
ndiff=$(diff "$d/labels.seinstall" "$d/labels.newest" | grep -c '^<')
ndeb=$(diff "$d/labels.seinstall" "$d/labels.debian" | grep -c '^<')
# A tool left out (BENCH_TOOLS) wrote no labels to compare with.
[ -s "$d/labels.newest" ] || ndiff="(not run)"
[ -s "$d/labels.debian" ] || ndeb="(not run)"
nlab=$(grep -c '^security.selinux' "$d/labels.seinstall")

echo
echo "relabel of $ENTRIES entries (this machine's /etc, /usr, /var/lib) on ext4 on a loop device"
echo "machine: $(machine)"
echo "load: before $START_LOAD"
echo "      after  $END_LOAD"
echo "seinstall $({ git_checkout && git -C "$TOP" describe --always --dirty; } || echo '?');" \
        "newest: $NEWEST (setfiles-driver); Debian 12: setfiles, libselinux $DEBIAN_V"
[ -n "$UP_DESC" ] && echo "upstream: $UP_DESC (setfiles -m -F [-A] -T 0)"
echo "median of $RUNS runs (debian-T0: $DEBIAN_RUNS), seconds; beside each, its time / seinstall's"
# the tools of the main table, in this order, those that ran
MAIN=()
for tool in seinstall "${UP_TOOLS[@]}" newest-T0 newest-T1 debian-T0 floor floor-2T; do
        [[ " ${TOOLS[*]} " = *" $tool "* ]] && MAIN+=("$tool")
done
# the setfiles of the newest releases: "fastest" is the quickest of them in each state
SETFILES=()
for tool in "${UP_TOOLS[@]}" newest-T0 newest-T1; do
        [[ " ${TOOLS[*]} " = *" $tool "* ]] && SETFILES+=("$tool")
done
W=16
for tool in "${MAIN[@]}"; do [ ${#tool} -lt $W ] || W=$((${#tool} + 1)); done
printf '\n%-*s' $W tool
for state in $STATES; do for cache in $CACHES; do printf ' %16s' "$state $cache"; done; done
printf ' %8s\n' "peak MiB"
for tool in "${MAIN[@]}"; do
        printf '%-*s' $W "$tool"
        for state in $STATES; do
                for cache in $CACHES; do
                        m=${MED[$tool $state $cache]:-}
                        if [ "$tool" = seinstall ]; then
                                printf ' %8s %7s' "$m" ""
                        else
                                printf ' %8s %6sx' "$m" "$(ratio "$m" "${MED[seinstall $state $cache]:-}")"
                        fi
                done
        done
        printf ' %8s\n' "$((${RSS[$tool]:-0} / 1024))"
done
# fastest STATE CACHE: "TOOL SECONDS" of the quickest of SETFILES
fastest() {
        local t best=
        for t in "${SETFILES[@]}"; do
                [ -n "${MED[$t $1 $2]:-}" ] || continue
                if [ -z "$best" ] || [ "$(echo "${MED[$t $1 $2]} < ${best#* }" | bc)" = 1 ]; then
                        best="$t ${MED[$t $1 $2]}"
                fi
        done
        echo "$best"
}
which=
if [ ${#SETFILES[@]} -gt 0 ]; then
        printf '%-*s' $W "fastest/sei"
        for state in $STATES; do
                for cache in $CACHES; do
                        f=$(fastest "$state" "$cache")
                        printf ' %15sx' "$(ratio "${f#* }" "${MED[seinstall $state $cache]:-}")"
                        which+="${which:+, }$state $cache ${f% *}"
                done
        done
        echo
fi
for fl in floor floor-2T; do
        [[ " ${TOOLS[*]} " = *" $fl "* ]] || continue
        printf '%-*s' $W "sei/$fl"
        for state in $STATES; do
                for cache in $CACHES; do
                        printf ' %15sx' "$(ratio "${MED[seinstall $state $cache]:-}" "${MED[$fl $state $cache]:-}")"
                done
        done
        echo
done
[ -z "$which" ] || echo "fastest setfiles: $which"
if [[ " ${TOOLS[*]} " = *" firstboot "* ]]; then
        echo "first-boot service (seinstall-relabel.service's two walks: the tree, then a bind mount of it), same tree:"
        for state in $STATES; do
                for cache in $CACHES; do
                        f=${MED[firstboot $state $cache]:-}
                        printf '  %-10s %-5s %9s s   %sx seinstall relabel\n' "$state" "$cache" "$f" \
                                "$(ratio "$f" "${MED[seinstall $state $cache]:-}")"
                done
        done
fi
if [[ " ${TOOLS[*]} " = *" verify "* ]] && [[ " $STATES " = *" labeled "* ]]; then
        echo
        echo "checking the labeled tree without writing (verify must find nothing): median seconds"
        printf '%-10s %-5s %9s %9s %9s | %9s %9s\n' state cache verify relabel newest-n \
                n/verify relabel/verify
        for cache in $CACHES; do
                v=${MED[verify labeled $cache]:-}
                printf '%-10s %-5s %9s %9s %9s | %8sx %13sx\n' labeled "$cache" "$v" \
                        "${MED[seinstall labeled $cache]:-}" "${MED[newest-n labeled $cache]:-}" \
                        "$(ratio "${MED[newest-n labeled $cache]:-}" "$v")" \
                        "$(ratio "${MED[seinstall labeled $cache]:-}" "$v")"
        done
fi
if [ -n "${BENCH_BASE:-}" ]; then
        echo
        echo "before/after: $BENCH_BASE (base) against $SEINSTALL: median seconds"
        for state in $STATES; do
                for cache in $CACHES; do
                        printf '%-10s %-5s base %7s  seinstall %7s  base/seinstall %sx\n' "$state" "$cache" \
                                "${MED[base $state $cache]:-}" "${MED[seinstall $state $cache]:-}" \
                                "$(ratio "${MED[base $state $cache]:-}" "${MED[seinstall $state $cache]:-}")"
                done
        done
fi
printf '%-16s' "peak RSS (MiB):"
for tool in "${TOOLS[@]}"; do printf ' %s %s' "$tool" "$((RSS[$tool] / 1024))"; done
echo
echo "labels: $nlab entries compared with $NEWEST (setfiles -F -T 0): $ndiff differ;" \
        "with Debian 12's setfiles: $ndeb differ"
updiff=0
for tool in "${UP_TOOLS[@]}"; do
        [ -s "$d/labels.$tool" ] || continue
        n=$(diff "$d/labels.seinstall" "$d/labels.$tool" | grep -c '^<')
        echo "labels: $nlab entries compared with $tool: $n differ"
        [ "$n" = 0 ] || { diff "$d/labels.seinstall" "$d/labels.$tool" | head -20; updiff=1; }
done
[ "$ndiff" = 0 ] || [ "$ndiff" = "(not run)" ] || { diff "$d/labels.seinstall" "$d/labels.newest" | head -40; fail "labels differ"; }
[ "$ndeb" = 0 ] || [ "$ndeb" = "(not run)" ] || diff "$d/labels.seinstall" "$d/labels.debian" | head -10
[ "$updiff" = 0 ] || fail "labels differ from upstream setfiles'"

# The first-boot relabel under QEMU, seinstall against Debian's fixfiles (tests/bench/firstboot-bench.sh).
[ "${BENCH_FIRSTBOOT:-1}" = 0 ] || "$TOP/tests/bench/firstboot-bench.sh"
