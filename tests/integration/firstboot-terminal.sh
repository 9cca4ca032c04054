#!/bin/bash
# The first-boot screen on each terminal it may meet, driven in tmux and read back with
# capture-pane: at 80x24 (a serial console, TERM=vt100, C locale) and 120x40 (xterm, UTF-8)
# the plan box never keeps a line of the previous choice, the help can be read to its end, a
# plan longer than its box says it scrolls, and every window ends above the help line. Below
# 80x24, with TERM=dumb or unset, it draws nothing, says why and what to use instead
# (--mode M --yes) and exits 2, the target untouched. Cancel keeps the first-boot mark (the
# screen comes back) and says so; a timeout applies the mode chosen at install.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)

# long_target DIR: a disabled install with three boot loader files: enabling SELinux edits all
# three, a plan of more lines than 80x24 leaves its box.
long_target() {
        make_target "$1" disabled
        mkdir -p "$1/etc/kernel" "$1/boot/loader/entries"
        echo "root=/dev/vda1 quiet" >"$1/etc/kernel/cmdline"
        printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda1 quiet\n' \
                >"$1/boot/loader/entries/debian.conf"
}

for combo in "80x24 vt100 C" "120x40 xterm C.UTF-8"; do
        read -r SCREEN_SIZE term locale <<<"$combo"
        echo "== $SCREEN_SIZE TERM=$term LANG=$locale"

        # No stale text: Permissive's plan (two lines on a target) then Enforcing's (one).
        t=$d/$term-stale
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        assert_fits "the choice"
        assert_screen "buttons" "<Cancel>"
        keys Down Space
        wait_screen "(*) Permissive"
        assert_screen_words "Permissive's plan, its last words" "when the target boots."
        keys Up Space
        wait_screen "(*) Enforcing"
        assert_screen "Enforcing's plan" "This is the current setting: nothing changes."
        assert_not_screen "no line left of Permissive's plan" "target boots"
        assert_not_screen "no line left of Permissive's plan" "SELINUX=permissive"

        # F1: the whole help, scrolled to its end where it does not fit.
        keys F1
        wait_screen "SELinux confines each program"
        assert_fits "the help"
        if [ "$SCREEN_SIZE" = 80x24 ]; then
                assert_screen "the help says it scrolls" "The text above scrolls: Down or PgDn"
                assert_not_screen "the help's end is below" "Esc cancels, F1 shows this help"
                keys PageDown PageDown PageDown
        else
                assert_not_screen "no scroll hint where it fits" "The text above scrolls"
        fi
        assert_screen "the help's last sentence" "Esc cancels, F1 shows this help"
        assert_screen "the help's OK" "OK"
        keys Enter
        wait_gone "SELinux confines each program"
        keys Tab Tab Enter # the choices are one stop: OK, Cancel
        wait_exit

        # A plan longer than its box: a line under it says it scrolls (80x24), or it fits.
        t=$d/$term-long
        long_target "$t"
        start_screen "$term" "$locale" "$t"
        keys Down Space # from Disabled: the trial, the longest plan
        wait_screen "(*) Enforcing after a clean boot (trial)"
        assert_fits "the choice with a long plan"
        assert_screen "buttons under a long plan" "<Cancel>"
        if [ "$SCREEN_SIZE" = 80x24 ]; then
                assert_screen "the long plan says it scrolls" \
                        "The text above scrolls: Tab to it, then Down or PgDn."
                assert_not_screen "its end is below" "/etc/selinux/config: SELINUX"
                keys Tab PageDown PageDown PageDown PageDown
                assert_screen_words "scrolled to the plan's end" "when the target boots."
                keys BTab # back to the trial's radio button
        else
                assert_not_screen "no scroll hint where the plan fits" "The text above scrolls"
                assert_screen_words "the whole plan" "when the target boots."
        fi
        keys Up Space
        wait_screen "(*) Disabled"
        assert_not_screen "the trial's plan is gone" "seinstall-trial.service makes it"
        assert_not_screen "so is its hint" "The text above scrolls"
done
SCREEN_SIZE=80x24

# Refused: too small, or a terminal newt cannot draw on. Exit 2, the reason and the way
# without the screen on the terminal, nothing drawn, the target untouched.
for combo in "79x24 vt100 too-small" "80x23 xterm too-small" "80x24 dumb cannot-show" \
        "80x24 unset not-set" "120x40 unset not-set"; do
        read -r SCREEN_SIZE term why <<<"$combo"
        echo "== refused: $SCREEN_SIZE TERM=$term"
        t=$d/refused
        rm -rf "$t"
        make_target "$t" enforcing
        before=$(fingerprint "$t")
        STDERR_ON_PANE=1 run_screen "$term" C "$t"
        wait_exit
        assert_eq "exit status, $SCREEN_SIZE TERM=$term" 2 "$RC"
        case $why in
        too-small) assert_contains "the size and the need" "$OUT" \
                "the terminal is ${SCREEN_SIZE}; the screen needs at least 80x24" ;;
        cannot-show) assert_contains "why" "$OUT" "the terminal TERM=dumb cannot show the screen" ;;
        not-set) assert_contains "why" "$OUT" "TERM is not set" ;;
        esac
        assert_contains "the way without the screen" "$OUT" "Use --mode MODE --yes"
        case $OUT in
        *"SELinux on this system"* | *┌* | *lqqq*) fail "a window was drawn: $OUT" ;;
        esac
        assert_eq "target untouched" "$before" "$(fingerprint "$t")"
        [ -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark went"
        echo "ok: nothing drawn, the mark stays"
done
SCREEN_SIZE=80x24

# Cancel with the install's mark: nothing changes, the mark stays (the screen comes back at
# the next boot) and the terminal says so and how to keep the install's choice without it.
t=$d/cancel
make_target "$t" enforcing
before=$(fingerprint "$t")
mark=$(cat "$t/var/lib/seinstall/firstboot")
start_screen vt100 C "$t"
keys Down Space
wait_screen "(*) Permissive"
keys Tab Tab Enter # the choices (one stop), OK, Cancel
wait_exit
assert_eq "exit status after Cancel" 0 "$RC"
assert_contains "Cancel says" "$OUT" "Cancelled: nothing changed."
assert_contains "what happens next" "$OUT" "this screen comes back at the next boot"
# the command names the screen's --root (a long one wraps on the 80 columns)
assert_contains "the way without it" "$(tr -d '\n' <<<"$OUT")" \
        "seinstall-firstboot --root $t --mode enforcing --yes"
assert_eq "nothing changed" "$before" "$(fingerprint "$t")"
assert_eq "the mark, with the install's choice" "$mark" "$(cat "$t/var/lib/seinstall/firstboot")"
# ... and it does come back: the next run shows the screen on the install's choice.
start_screen vt100 C "$t"
assert_screen "the screen again, on the install's choice" "(*) Enforcing"
keys F12
wait_exit
assert_eq "exit status after F12" 0 "$RC"
[ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark stayed after a choice"

# A timeout with the mark: the install's mode is applied (here the config had drifted to
# permissive, the mark says enforcing) and the mark goes; the terminal says what happened.
t=$d/timeout
make_target "$t" enforcing
sed -i 's/^SELINUX=.*/SELINUX=permissive/' "$t/etc/selinux/config"
start_screen vt100 C "$t" --timeout 2
wait_exit
assert_eq "exit status after the timeout" 0 "$RC"
assert_contains "timeout says" "$OUT" "No answer: keeping enforcing, the mode chosen at install."
assert_contains "what changed" "$OUT" "Changed /etc/selinux/config"
assert_contains "what happens next" "$OUT" "This screen does not come back by itself"
assert_eq "config after the timeout" enforcing "$(config_mode "$t")"
[ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark survived the timeout"

# A timeout while a relabel is pending: nothing changes and the mark stays for after it.
t=$d/timeout-relabel
make_target "$t" enforcing
echo "-F" >"$t/.autorelabel"
before=$(fingerprint "$t")
start_screen vt100 C "$t" --timeout 2
wait_exit
assert_eq "exit status" 0 "$RC"
assert_contains "timeout says" "$OUT" "No answer: nothing changed."
assert_contains "what happens next" "$OUT" "this screen comes back at the next boot"
assert_eq "nothing changed" "$before" "$(fingerprint "$t")"
[ -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark went while a relabel is pending"
echo "ok: the mark stays while a relabel is pending"
