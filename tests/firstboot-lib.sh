# shellcheck shell=bash disable=SC2034
# Helpers for the seinstall-firstboot tests: a target tree to work on, and a tmux session that
# shows the screen at 80x24 and is driven with keys as a person would. Source after lib.sh.

FIRSTBOOT=${FIRSTBOOT:-$SEINSTALL_FIRSTBOOT}
[ -x "$FIRSTBOOT" ] || fail "$FIRSTBOOT is not built (make all)"

# make_target DIR MODE [KERNEL [CMDLINE]]: an installed tree configured for MODE: its config,
# GRUB defaults, the kernel's config, a built policy, and the first-boot mark an install
# leaves. KERNEL is opt-in (Debian 12's, the default), default (Fedora-like: SELinux is the
# default LSM) or unknown (no /boot/config-*). CMDLINE defaults to what MODE needs on Debian.
make_target() {
        local t=$1 mode=$2 kernel=${3:-opt-in} args=${4:-}
        if [ -z "$args" ]; then
                args="quiet"
                [ "$mode" = disabled ] || args="quiet security=selinux"
        fi
        mkdir -p "$t/etc/selinux/default/policy" "$t/etc/default" "$t/boot" "$t/var/lib/seinstall"
        printf '# This file controls the state of SELinux on the system.\nSELINUX=%s\nSELINUXTYPE=default\n' \
                "$mode" >"$t/etc/selinux/config"
        # Applying only needs the policy to be built (the file present); nothing loads it here.
        : >"$t/etc/selinux/default/policy/policy.33"
        printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX_DEFAULT=""\nGRUB_CMDLINE_LINUX="%s"\n' \
                "$args" >"$t/etc/default/grub"
        case $kernel in
        opt-in)
                cat >"$t/boot/config-6.1.0-13-amd64" <<'EOF'
CONFIG_SECURITY=y
CONFIG_SECURITY_SELINUX=y
# CONFIG_SECURITY_SELINUX_BOOTPARAM is not set
CONFIG_SECURITY_SELINUX_DEVELOP=y
CONFIG_SECURITY_APPARMOR=y
CONFIG_DEFAULT_SECURITY_APPARMOR=y
CONFIG_LSM="landlock,lockdown,yama,integrity,apparmor"
EOF
                ;;
        default)
                cat >"$t/boot/config-6.5.6-300.fc39.x86_64" <<'EOF'
CONFIG_SECURITY=y
CONFIG_SECURITY_SELINUX=y
CONFIG_SECURITY_SELINUX_BOOTPARAM=y
CONFIG_SECURITY_SELINUX_DEVELOP=y
CONFIG_DEFAULT_SECURITY_SELINUX=y
CONFIG_LSM="lockdown,yama,integrity,selinux,bpf,landlock"
EOF
                ;;
        unknown) ;;
        *) fail "make_target: unknown kernel '$kernel'" ;;
        esac
        printf 'mode=%s\npolicy=default\nrelabel=done\n' "$mode" >"$t/var/lib/seinstall/firstboot"
}

# grub_args DIR: GRUB_CMDLINE_LINUX of the target, one argument a line.
grub_args() {
        sed -n 's/^GRUB_CMDLINE_LINUX="\(.*\)"$/\1/p' "$1/etc/default/grub" | tr ' ' '\n' |
                grep -v '^$'
}

# config_mode DIR: SELINUX= of the target's config.
config_mode() {
        sed -n 's/^SELINUX=//p' "$1/etc/selinux/config"
}

# fingerprint DIR: one line per file of the SELinux state (config, boot loader, relabel marks)
# with its checksum, to show that nothing changed.
fingerprint() {
        (cd "$1" && find etc/selinux/config etc/default .autorelabel etc/selinux/.autorelabel \
                -type f 2>/dev/null | sort | xargs -r sha256sum)
}

# ---- the screen in tmux --------------------------------------------------------------------
# Each screen gets its own tmux server: reusing one right after kill-server races with its
# exit ("server exited unexpectedly").
TMUX_DIR=
TMUX_N=0
tm() {
        tmux -S "$TMUX_DIR/sock$TMUX_N" -f /dev/null "$@"
}

# run_screen TERM LOCALE TARGET [ARGS...]: run seinstall-firstboot in a tmux pane of
# $SCREEN_SIZE (COLSxROWS, default 80x24); TERM "unset" runs it without TERM. Its stderr goes
# to a file, or with STDERR_ON_PANE=1 stays on the pane with what it prints.
run_screen() {
        local term=$1 locale=$2 target=$3 size=${SCREEN_SIZE:-80x24}
        shift 3
        command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
        [ -n "$TMUX_DIR" ] || TMUX_DIR=$(scratch_dir)
        [ "$TMUX_N" = 0 ] || tm kill-server 2>/dev/null
        TMUX_N=$((TMUX_N + 1))
        on_exit "tmux -S '$TMUX_DIR/sock$TMUX_N' kill-server"
        rm -f "$TMUX_DIR/rc" "$TMUX_DIR/err"
        : >"$TMUX_DIR/err"
        if [ "$term" = unset ]; then
                printf '%q ' env -u TERM >"$TMUX_DIR/cmd"
        else
                printf '%q ' env TERM="$term" >"$TMUX_DIR/cmd"
        fi
        printf '%q ' LANG="$locale" LC_ALL="$locale" "$FIRSTBOOT" --root "$target" "$@" \
                >>"$TMUX_DIR/cmd"
        # The screen needs the terminal as stdout too; what it prints at the end stays on the
        # pane (kept open) for wait_exit to read.
        [ "${STDERR_ON_PANE:-0}" = 1 ] || printf '2>%q' "$TMUX_DIR/err" >>"$TMUX_DIR/cmd"
        printf '; echo $? >%q; exec sleep 600\n' "$TMUX_DIR/rc" >>"$TMUX_DIR/cmd"
        tm new-session -d -x "${size%x*}" -y "${size#*x}" -s fb "sh $TMUX_DIR/cmd" ||
                fail "tmux could not start a session"
}

# start_screen TERM LOCALE TARGET [ARGS...]: run_screen, then wait for its first window:
# $FIRST_WINDOW (default: the choice's title).
start_screen() {
        run_screen "$@"
        wait_screen "${FIRST_WINDOW:-SELinux on this system}"
}

screen_text() {
        tm capture-pane -p -t fb 2>/dev/null
}

# wait_screen TEXT: wait (5 s at most) until the screen shows TEXT.
wait_screen() {
        local i
        for i in $(seq 50); do
                screen_text | grep -qF -- "$1" && return 0
                [ -e "$TMUX_DIR/rc" ] && break
                sleep 0.1
        done
        fail "the screen never showed '$1'; it shows:
$(screen_text)
stderr: $(cat "$TMUX_DIR/err" 2>/dev/null)"
}

# wait_gone TEXT: wait until the screen no longer shows TEXT.
wait_gone() {
        local i
        for i in $(seq 50); do
                screen_text | grep -qF -- "$1" || return 0
                sleep 0.1
        done
        fail "the screen still shows '$1':
$(screen_text)"
}

keys() {
        local k
        for k in "$@"; do
                tm send-keys -t fb "$k" || fail "tmux send-keys $k"
                sleep 0.15
        done
}

# wait_exit: wait (10 s at most) for the program to end; its status in $RC, the screen it left
# (what it printed at the end) in $OUT, its stderr in $ERR.
wait_exit() {
        local i
        for _ in $(seq 100); do
                [ -s "$TMUX_DIR/rc" ] && break
                sleep 0.1
        done
        [ -s "$TMUX_DIR/rc" ] || fail "seinstall-firstboot did not exit; the screen shows:
$(screen_text)"
        RC=$(cat "$TMUX_DIR/rc")
        OUT=$(screen_text)
        ERR=$(cat "$TMUX_DIR/err")
}

# assert_screen_words WHAT TEXT: TEXT is on the screen, wherever a window's text wraps it: the
# lines inside the windows' borders (newt draws them as 'x' or '│') joined by one space.
assert_screen_words() {
        local s
        s=$(screen_text | sed -E -e 's/^ *(x|│) //' -e 's/ *(x|│) *$//' -e 's/^ *//' | tr '\n' ' ' | tr -s ' ')
        case $s in
        *"$2"*) echo "ok: $1: screen shows '$2'" ;;
        *) fail "$1: the screen does not show '$2' (its text's lines joined); it shows:
$(screen_text)" ;;
        esac
}

# assert_not_screen WHAT TEXT: the screen does not show TEXT now.
assert_not_screen() {
        local s
        s=$(screen_text)
        case $s in
        *"$2"*) fail "$1: the screen shows '$2':
$s" ;;
        *) echo "ok: $1: screen does not show '$2'" ;;
        esac
}

# assert_fits WHAT: every window's bottom frame is above the terminal's last row (the help
# line): nothing of it is cut off by the terminal's end.
assert_fits() {
        local s rows frame size=${SCREEN_SIZE:-80x24}
        rows=${size#*x}
        s=$(screen_text)
        # └ in a UTF-8 locale; in the C locale tmux shows the line-drawing set as mqq...j
        frame=$(printf '%s\n' "$s" | grep -nE '└|mqqq' | tail -n 1 | cut -d: -f1)
        [ -n "$frame" ] || fail "$1: no bottom frame on the screen:
$s"
        [ "$frame" -lt "$rows" ] || fail "$1: a window reaches the last row ($rows):
$s"
        echo "ok: $1: the windows end on row $frame of $rows"
}

# assert_screen WHAT TEXT: the screen shows TEXT now.
assert_screen() {
        local s
        s=$(screen_text)
        case $s in
        *"$2"*) echo "ok: $1: screen shows '$2'" ;;
        *) fail "$1: the screen does not show '$2':
$s" ;;
        esac
}
