#!/bin/bash
# What a stopped test leaves behind, taken away; used by tests/run-tests.sh.
#
# reap.sh now SID DIR [GRACE]
#                       end every process of session SID (the test's: run-tests.sh starts each
#                       test with setsid, so its QEMU guests are there too, even those that
#                       `timeout` moved into a process group of their own): TERM, up to 10 s
#                       for the test's own cleanups to run, then KILL (after GRACE seconds
#                       for them to end by themselves: a test that just ended). Then unmount what is
#                       mounted at or below DIR (the test's TMPDIR), deepest first, and detach
#                       the loop devices whose backing file is below DIR. Prints what it did.
# reap.sh watch DIR     wait until standard input ends (the runner holds the pipe's other end:
#                       it ends however the runner ends, SIGKILL included), then `now` with
#                       the session and directory named in DIR/.session (the running test's,
#                       if any), and remove both directories.
set -u
trap '' PIPE # the runner's output may be gone: finish anyway

# The processes of session $1, this one excepted, from /proc (a build chroot may have no ps):
# the fields after the command name's closing parenthesis are state, ppid, pgrp, session.
session_pids() {
        local sid=$1 f line pid
        for f in /proc/[0-9]*/stat; do
                { IFS= read -r line <"$f"; } 2>/dev/null || continue
                pid=${f#/proc/}
                pid=${pid%/stat}
                [ "$pid" != "$$" ] || continue
                # shellcheck disable=SC2086 # the fields, split
                set -- ${line##*) }
                [ "${4:-}" = "$sid" ] && echo "$pid"
        done
}

end_session() {
        local sid=$1 grace=${2:-0} pids i
        [[ $sid =~ ^[0-9]+$ ]] && [ "$sid" -gt 1 ] || return 0
        for ((i = 0; i < grace * 10; i++)); do
                [ -n "$(session_pids "$sid")" ] || return 0
                sleep 0.1
        done
        pids=$(session_pids "$sid")
        [ -n "$pids" ] || return 0
        echo "reap: ending session $sid: $(for p in $pids; do cat "/proc/$p/comm" 2>/dev/null; done | sort | uniq -c | awk '{ print $2 " x" $1 }' | paste -sd, | sed 's/,/, /g')"
        # shellcheck disable=SC2086 # pids: numbers
        kill -TERM $pids 2>/dev/null
        for i in $(seq 1 100); do
                pids=$(session_pids "$sid")
                [ -n "$pids" ] || return 0
                # shellcheck disable=SC2086 # pids: numbers; again for what started meanwhile
                [ "$i" = 50 ] && kill -TERM $pids 2>/dev/null
                sleep 0.1
        done
        echo "reap: session $sid did not end on TERM within 10 s: KILL"
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null
        for _ in $(seq 1 50); do
                [ -n "$(session_pids "$sid")" ] || return 0
                sleep 0.1
        done
}

# Mount points at or below $1, deepest first (/proc/self/mounts escapes blanks as \040).
mounts_below() {
        awk '{ print $2 }' /proc/self/mounts | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g' |
                while IFS= read -r m; do
                        m=$(printf '%b' "$m")
                        case $m in "$1" | "$1"/*) printf '%s\n' "$m" ;; esac
                done | sort -r
}

clean_dir() {
        local dir=$1 m dev back
        [ -n "$dir" ] && [ -d "$dir" ] || return 0
        while IFS= read -r m; do
                [ -n "$m" ] || continue
                echo "reap: unmounting $m"
                umount -l "$m" 2>/dev/null
        done < <(mounts_below "$dir")
        command -v losetup >/dev/null || return 0
        while read -r dev back; do
                case $back in "$dir"/*)
                        echo "reap: detaching $dev ($back)"
                        losetup -d "$dev" 2>/dev/null
                        ;;
                esac
        done < <(losetup -l -n --raw -O NAME,BACK-FILE 2>/dev/null)
}

case ${1:-} in
now)
        [ $# = 3 ] || [ $# = 4 ] || { echo "usage: reap.sh now SID DIR [GRACE]" >&2; exit 2; }
        end_session "$2" "${4:-0}"
        clean_dir "$3"
        ;;
watch)
        [ $# = 2 ] || { echo "usage: reap.sh watch DIR" >&2; exit 2; }
        cat >/dev/null
        { read -r sid && read -r dir; } <"$2/.session" 2>/dev/null
        end_session "${sid:-}"
        for d in ${dir:+"$dir"} "$2"; do
                clean_dir "$d"
                # Only once nothing is mounted there any more (rm never crosses into a mount).
                [ -z "$(mounts_below "$d")" ] && rm -rf --one-file-system "$d"
        done
        ;;
*)
        echo "usage: reap.sh now SID DIR [GRACE] | watch DIR" >&2
        exit 2
        ;;
esac
exit 0
