# shellcheck shell=bash
# Helpers for the hardening tests (tests/integration/harden-*.sh). Source after lib.sh.

BUILD_DIR=$TOP/${SEINSTALL_BUILD:-build}
ROOTFS_TOOL=$BUILD_DIR/tests/helpers/rootfs-tool

require_rootfs_tool() {
        [ -x "$ROOTFS_TOOL" ] || fail "$ROOTFS_TOOL not built (make ${SEINSTALL_BUILD:+SANITIZE=1 }$ROOTFS_TOOL)"
}

require_strace() {
        command -v strace >/dev/null || skip "strace is not installed (apt-get install strace)"
        strace -qq -o /dev/null -e trace=getpid -e inject=getpid:error=EIO:when=1 true 2>/dev/null ||
                skip "strace cannot inject faults here (no ptrace in this container?)"
}

# syscalls_after MARKER TRACE: print "NAME INDEX" for every system call in the strace output
# TRACE from the first line (not the execve) that contains MARKER on. INDEX counts calls of NAME from the start
# of the process, which is what strace's inject=NAME:...:when=INDEX counts.
# In a SANITIZE=1 build the allocator's own calls are left out: ASan aborts when its mmap fails.
syscalls_after() {
        local skip=
        [[ ${SEINSTALL_BUILD:-build} == */san ]] && skip=" mmap munmap mprotect madvise brk "
        awk -v marker="$1" -v skip="$skip" '
                { sub(/^[0-9]+ +/, "") }
                match($0, /^[a-z_0-9]+\(/) {
                        name = substr($0, 1, RLENGTH - 1)
                        n[name]++
                        if (!on && name != "execve" && index($0, marker)) on = 1
                        if (on && name != "exit_group" && name != "exit" && !index(skip, " " name " "))
                                print name, n[name]
                }' "$2"
}

# inject NAME INDEX FAULT CMD...: run CMD under strace with FAULT (error=ENOSPC, signal=KILL,
# ...) injected into the INDEX-th call of NAME; returns CMD's exit status (128+N when killed).
inject() {
        local name=$1 idx=$2 fault=$3
        shift 3
        under_strace -qq -f -o /dev/null -e trace="$name" -e inject="$name:$fault:when=$idx" "$@"
}

# strace ARGS...: LeakSanitizer cannot work under ptrace, so a SANITIZE=1 build leaves out its
# leak check in traced runs (the same calls run untraced elsewhere, with it).
under_strace() {
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}
