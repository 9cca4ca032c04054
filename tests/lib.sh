# Shell helpers for integration tests. Source it: . "$(dirname "$0")/../lib.sh"
# Tests print what they check; `fail` exits 1; `skip REASON` exits 77 with the reason as the
# last line, which the runner shows next to SKIPPED.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything `make` builds is under SEINSTALL_BUILD (build, build/san for SANITIZE=1).
SEINSTALL_BUILD_DIR=${SEINSTALL_BUILD:-build}
[[ $SEINSTALL_BUILD_DIR == /* ]] || SEINSTALL_BUILD_DIR=$TOP/$SEINSTALL_BUILD_DIR
SEINSTALL=${SEINSTALL:-$SEINSTALL_BUILD_DIR/bin/seinstall}
SEINSTALL_FIRSTBOOT=${SEINSTALL_FIRSTBOOT:-$SEINSTALL_BUILD_DIR/bin/seinstall-firstboot}
# What tests fetch or build once and keep between runs: Debian's kernel and a Debian root for
# QEMU (E2E_CACHE), the installers' environments (HOSTS_CACHE). A new machine has neither
# directory, and .ci/run names new, empty ones: every test makes what it uses (cache_dir).
E2E_CACHE=${SEINSTALL_E2E_CACHE:-/var/cache/seinstall-e2e}
HOSTS_CACHE=${SEINSTALL_HOSTS_CACHE:-/var/cache/seinstall-hosts}
_cleanups=()
# The commands speak the locale's language (po/): the tests assert English, so they run in
# C.UTF-8 whatever the person's locale is; the tests of the translations set LANG and LC_ALL
# for each command they run.
export LANG=C.UTF-8
unset LC_ALL LC_MESSAGES LANGUAGE
# Python run by a test writes no __pycache__ beside what it imports: into the tree, it would end
# up in what a package build installs from it.
export PYTHONDONTWRITEBYTECODE=1
# A sanitized tree (SANITIZE=1): leaks of libraries seinstall cannot fix are listed, with why.
[[ $SEINSTALL_BUILD_DIR == */san ]] &&
        export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=\"$TOP/tests/lsan.supp\" # quoted: blanks

fail() {
        echo "FAIL: $*" >&2
        exit 1
}
# A command the test runs that the shell cannot find (a misspelt helper, a tool the test never
# required) fails the test: without `set -e` the shell would print an error and go on, and the
# test could pass. bash runs this handler in a subshell, so it signals the test's own shell,
# which fails at once (cleanups run).
command_not_found_handle() {
        echo "FAIL: command not found: $1" >&2
        kill -USR2 $$
        return 127
}
trap 'fail "a command the test runs was not found (see above)"' USR2
# Is the tree a git checkout this machine can read (a release tarball is not; a package
# build's chroot may have no git)?
git_checkout() { command -v git >/dev/null 2>&1 && git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; }
skip() {
        echo "SKIPPED: $*"
        exit 77
}
# Run "$@" at exit, last registered first.
on_exit() {
        _cleanups=("$*" "${_cleanups[@]}")
}
_run_cleanups() {
        local c d
        for c in "${_cleanups[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
        # Scratch directories last: they hold the images and mount points the cleanups above
        # were undoing.
        while read -r d; do
                _umount_below "$d" >/dev/null 2>&1
                rm -rf "$d"
        done <"$_scratch_list"
        rm -f "$_errf" "$_scratch_list"
}
trap _run_cleanups EXIT
_errf=$(mktemp)
# scratch_dir runs in a command substitution, a subshell whose on_exit would be lost: it
# records its directories in this file instead, which the test's own shell reads at exit.
_scratch_list=$(mktemp)

# seconds_since T0: the seconds since T0 (a `date +%s%N`), to the millisecond ("12.345"),
# without bc (make check does not install it: the bench's).
seconds_since() {
        local ms=$((($(date +%s%N) - $1) / 1000000))
        printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000))
}

require_root() {
        [ "$(id -u)" = 0 ] || skip "needs root (loop devices and mounts)"
}
# require_tool COMMAND PACKAGE: skip the test when COMMAND is missing, naming the Debian package
# (a package build's `make test` runs with only the build dependencies installed).
require_tool() {
        command -v "$1" >/dev/null || skip "$1 is not installed (Debian package $2; make deps installs it)"
}
# require_static_busybox WHAT: a static /bin/busybox (busybox-static) to copy into a target or
# guest as WHAT ("the target's shell"...): a dynamic one would need the host's libraries there.
require_static_busybox() {
        if [ ! -x /bin/busybox ] || ldd /bin/busybox >/dev/null 2>&1; then
                skip "needs a static /bin/busybox (busybox-static) $1"
        fi
}
# require_unit_verify: skip unless `systemd-analyze verify` works here. It creates /run/systemd
# when that is missing, which a non-root user cannot (a package build's chroot); the skip says
# so with systemd's own words.
require_unit_verify() {
        local u out
        command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed"
        u=$(mktemp -d)
        printf '[Service]\nType=oneshot\nExecStart=/bin/true\n' >"$u/probe.service"
        out=$(systemd-analyze verify --man=no "$u/probe.service" 2>&1)
        rm -rf "$u"
        case $out in
        *"/run/systemd"*) skip "systemd-analyze verify cannot run as $(id -un) here: $(head -n 1 <<<"$out")" ;;
        esac
}
require_loop() {
        require_root
        [ -e /dev/loop-control ] || skip "no /dev/loop-control: this kernel has no loop devices"
}

# Unmount everything mounted below DIR, deepest first. (findmnt -R only walks below a mount
# point, and a scratch directory is not one: it found nothing.)
_umount_below() {
        awk -v d="$1/" 'index($2, d) == 1 {print $2}' /proc/self/mounts | sort -r | xargs -r umount -l
}

# cache_dir DIR: make DIR (and its parents) when missing, saying so; fails the test when it
# cannot. What a test then fetches into DIR stays for the next run.
cache_dir() {
        [ -d "$1" ] && return 0
        echo "cache: $1 does not exist yet: creating it (what this test fetches is kept there)"
        mkdir -p "$1" || fail "cannot create the cache directory $1"
}

# A scratch directory removed at exit (unmounting anything left below it first).
scratch_dir() {
        local d
        d=$(mktemp -d "${TMPDIR:-/tmp}/seinstall-it.XXXXXX")
        echo "$d" >>"$_scratch_list"
        echo "$d"
}

# _mkfs_package FSTYPE: the Debian package of mkfs.FSTYPE.
_mkfs_package() {
        case $1 in
        ext*) echo e2fsprogs ;;
        xfs) echo xfsprogs ;;
        btrfs) echo btrfs-progs ;;
        vfat) echo dosfstools ;;
        reiserfs) echo reiserfsprogs ;;
        nilfs2) echo nilfs-tools ;;
        exfat) echo exfatprogs ;;
        f2fs) echo f2fs-tools ;;
        *) echo unknown ;;
        esac
}
# make_fs_image FILE FSTYPE [SIZE_MB]: a filesystem image made by the real mkfs. The default
# size is each mkfs's minimum or 64 MB (the file is sparse: it costs only what mkfs writes).
make_fs_image() {
        local img=$1 fs=$2 size=${3:-}
        if [ -z "$size" ]; then
                case $fs in
                xfs) size=320 ;;
                btrfs | nilfs2) size=256 ;;
                *) size=64 ;;
                esac
        fi
        # As a user, PATH often lacks /usr/sbin, where most mkfs programs are.
        command -v "mkfs.$fs" >/dev/null ||
                skip "mkfs.$fs is not on PATH (Debian package $(_mkfs_package "$fs"); as a user, add /usr/sbin to PATH)"
        truncate -s "${size}M" "$img"
        case $fs in
        ext4 | ext3 | ext2) mkfs."$fs" -q -F "$img" ;;
        xfs) mkfs.xfs -q -f "$img" ;;
        btrfs) mkfs.btrfs -q -f "$img" ;;
        vfat) mkfs.vfat "$img" >/dev/null ;;
        reiserfs) mkfs.reiserfs -q -f "$img" >/dev/null 2>&1 ;;
        nilfs2) mkfs.nilfs2 -q -f "$img" ;;
        exfat) mkfs.exfat "$img" >/dev/null ;;
        f2fs) mkfs.f2fs -q -f "$img" >/dev/null ;;
        *) fail "make_fs_image: no mkfs for $fs" ;;
        esac || fail "mkfs.$fs $img failed"
}

# mount_image IMG DIR [OPTIONS]: loop-mount an image (skips the test when the kernel lacks the
# filesystem), unmounted at exit.
mount_image() {
        local img=$1 dir=$2 opts=${3:-}
        mkdir -p "$dir"
        if ! mount -o "loop${opts:+,$opts}" "$img" "$dir" 2>"$_errf"; then
                if grep -qi 'unknown filesystem type' "$_errf"; then
                        skip "kernel cannot mount $(blkid -o value -s TYPE "$img") ($(cat "$_errf"))"
                fi
                fail "mount $img $dir: $(cat "$_errf")"
        fi
        on_exit "umount -l '$dir'"
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
        [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
        echo "ok: $1 = '$3'"
}
# assert_contains WHAT HAYSTACK NEEDLE
assert_contains() {
        case $2 in
        *"$3"*) echo "ok: $1 mentions '$3'" ;;
        *) fail "$1: '$3' not found in: $2" ;;
        esac
}
# expect_exit CODE CMD...: run CMD, check its exit status, leave its stdout in $OUT and
# stderr in $ERR.
expect_exit() {
        local want=$1 rc
        shift
        OUT=$("$@" 2>"$_errf") && rc=0 || rc=$?
        ERR=$(cat "$_errf")
        [ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $ERR"
        echo "ok: '$*' exited $rc"
}
# json_assert FILE [NAME=VALUE ...] -- EXPR ...: FILE is one strict JSON object (strict UTF-8,
# no lone surrogate, no duplicate key, no NaN) for which each Python EXPR holds, with d the
# document, raw its bytes, each NAME the bytes of VALUE and B(o, k) the original bytes of member
# k (tests/helpers/json-validate.py --check). Returns non-zero, the reason on stderr, if not.
json_assert() {
        python3 "$TOP/tests/helpers/json-validate.py" --check "$@"
}
# json_assert_rejects_loose: json_assert fails on documents that are not strict JSON (a lone
# surrogate, a duplicate key, NaN), so that a test built on it can fail.
json_assert_rejects_loose() {
        local bad f
        f=$(scratch_dir)/loose.json
        for bad in '{"k": "\udcff"}' '{"k": "a", "k": "b"}' '{"k": NaN}' '["not an object"]'; do
                printf '%s' "$bad" >"$f"
                if json_assert "$f" -- True 2>/dev/null; then
                        fail "the strict JSON check accepted $bad"
                fi
        done
        echo "ok: the strict JSON check rejects a lone surrogate, a duplicate key, NaN, a non-object"
}
# assert_json_error CODE: $OUT (of a failed --json run) is exactly one JSON error document,
# {"error": {"message": M, "errno": NAME|null, "exit": CODE}} (NAME an errno's or one of
# seinstall's own codes), its message the one on stderr.
assert_json_error() {
        python3 - "$1" "$OUT" "$ERR" <<'PY' || fail "--json error document: $OUT"
import json, sys
code, out, err = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.loads(out)
e = d["error"]
assert e["exit"] == code, e
assert e["errno"] is None or e["errno"].startswith(("E", "SEINSTALL_ERROR_")), e
assert e["message"] and e["message"].split(":")[0] in err, (e, err)
PY
        echo "ok: one JSON error document, exit $1"
}
