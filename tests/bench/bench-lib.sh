# shellcheck shell=bash disable=SC2034
# Helpers shared by tests/bench/bench.sh and bench-scale.sh. Source after tests/lib.sh.

BUILD=${SEINSTALL_BUILD:-build}
FC=/etc/selinux/default/contexts/files/file_contexts
[ -r "$FC" ] || skip "no $FC (make deps installs selinux-policy-default)"
command -v setfiles >/dev/null || skip "no setfiles (make deps installs policycoreutils)"
FLOOR=$TOP/$BUILD/tests/bench/floor
mkdir -p "$(dirname "$FLOOR")"
${CC:-cc} -O2 -Wall -Wextra -Werror -pthread -o "$FLOOR" "$TOP/tests/bench/floor.c" || fail "cannot build floor"

# The newest libselinux the archive serves, driven as setfiles -F -T N drives it (cached).
read -r NEWEST DRIVER < <("$TOP/tests/bench/upstream.sh" "$TOP/$BUILD" | tail -1)
[ -x "${DRIVER:-}" ] || skip "could not build the newest libselinux (tests/bench/upstream.sh)"
DEBIAN_V=$(dpkg-query -W -f '${Version}' libselinux1 2>/dev/null || echo "?")

# BENCH_UPSTREAM_SRC="DIR|TARBALL ...": policycoreutils' own setfiles built from each SELinux
# userspace source given (tests/bench/upstream-src.sh, cached in build/bench-upstream-NAME), run
# as image builders run it: tools NAME-T0 (setfiles -m -F -T 0) and NAME-A (the same with -A,
# no hard-link tracking), NAME without a leading "selinux-" (selinux-3.11.tar.xz: 3.11-T0).
UP_TOOLS=()
UP_DESC=
declare -A UP_BIN UP_OPTS
for src in ${BENCH_UPSTREAM_SRC:-}; do
        src=${src/#\~\//$HOME/}
        read -r up_name up_version up_bin < <("$TOP/tests/bench/upstream-src.sh" "$TOP/$BUILD" "$src" | tail -1)
        [ -x "${up_bin:-}" ] || fail "could not build setfiles from $src (tests/bench/upstream-src.sh)"
        up_label=${up_name#selinux-}
        UP_TOOLS+=("$up_label-T0" "$up_label-A")
        UP_BIN[$up_label-T0]=$up_bin
        UP_OPTS[$up_label-T0]="-m -F -T 0"
        UP_BIN[$up_label-A]=$up_bin
        UP_OPTS[$up_label-A]="-m -F -A -T 0"
        UP_DESC+="${UP_DESC:+; }$up_label: setfiles $up_version built from $(basename "$src")"
done
# up_cmd TOOL ROOT: the command line of upstream setfiles tool TOOL on ROOT
up_cmd() { echo "${UP_BIN[$1]} ${UP_OPTS[$1]} -r $2 $FC $2"; }
is_up() { [ -n "${UP_BIN[$1]:-}" ]; }

# The directories of this machine the trees are copied from.
SRC_DIRS="etc usr/bin usr/sbin usr/lib usr/share usr/include usr/local var/lib"

# copy_tree ROOT [--empty] DIR...: copy this machine's DIRs (names, types, modes; small files
# with their contents, files over 256 KiB — or all files with --empty — as empty files of the
# same name, since labeling never reads contents) into ROOT, with its policy and the usual
# top-level names. No labels are copied.
copy_tree() {
        local r=$1 empty=
        shift
        [ "${1:-}" = --empty ] && empty=1 && shift
        (cd / && find "$@" -xdev \( ! -type f -o -size -257k \) -print0 2>/dev/null |
                tar --null --no-recursion -cf - -T - 2>/dev/null) | tar -C "$r" -xf - 2>/dev/null
        (cd / && find "$@" -xdev -type f -size +256k -print0 2>/dev/null) |
                (cd "$r" && xargs -0 -r touch)
        if [ -n "$empty" ]; then
                find "$r" -xdev -type f -size +0 -print0 | xargs -0 -r truncate -s 0
        fi
        cp -a /etc/selinux "$r/etc/" 2>/dev/null || { mkdir -p "$r/etc" && cp -a /etc/selinux "$r/etc/"; }
        for l in bin sbin lib lib64; do [ -e "$r/$l" ] || ln -s "usr/$l" "$r/$l"; done
        mkdir -p "$r/home/user/.ssh" "$r/root" "$r/tmp" "$r/dev" "$r/run" "$r/srv"
}

# dump_labels ROOT FILE: every entry's label, sorted by name
dump_labels() {
        (cd "$1" && getfattr -R -h -n security.selinux --absolute-names . 2>/dev/null) >"$2"
}

drop_caches() {
        sync
        echo 3 >/proc/sys/vm/drop_caches
}

# timed OUTVAR command...: runs it, OUTVAR="seconds peak_rss_kib"; fails on a non-zero exit
timed() {
        local __v=$1 __tf __out __rc
        shift
        __tf=$(mktemp)
        /usr/bin/time -o "$__tf" -f '%e %M %x' "$@" >/dev/null 2>"$__tf.err"
        __out=$(tail -1 "$__tf")
        __rc=${__out##* }
        [ "$__rc" = 0 ] || { cat "$__tf.err" >&2; rm -f "$__tf" "$__tf.err"; fail "$* exited $__rc"; }
        rm -f "$__tf" "$__tf.err"
        printf -v "$__v" '%s' "${__out% *}"
}

median() { [ $# -gt 0 ] || return 0; printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { [ -n "$1" ] && [ -n "$2" ] && echo "scale=2; $1 / $2" | bc | sed 's/^\./0./' || echo "-"; }
machine() {
        echo "$(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), $(free -g | awk '/^Mem:/{print $2}') GiB, kernel $(uname -r)"
}
