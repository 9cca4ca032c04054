#!/bin/bash
# The first-boot screen through resizes of its terminal (tmux resize-window, which sends
# SIGWINCH), with TERM xterm-256color, linux and vt100: from 80x24 down to 72x20 it says how
# large the terminal must be, back at 80x24 the whole window is there again (border, choices,
# buttons, key line, the choice kept), at 100x30 it is laid out for the larger screen; a resize
# under the confirmation of Disabled shows it again. Keys as whiptail's: Enter on a choice is
# OK on the selected one, Esc is Cancel, and Cancel is two Tabs away.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)

resize() {
        tm resize-window -t fb -x "${1%x*}" -y "${1#*x}" || fail "tmux resize-window $1"
        SCREEN_SIZE=$1
}

# assert_whole WHAT: the choice's window is all there: title, border, a choice, both
# buttons, the key line on the terminal's last row, and the bottom frame above it.
assert_whole() {
        local last
        assert_screen "$1: title" "SELinux on this system"
        assert_screen "$1: the choices" "Enforcing after a clean boot (trial)"
        assert_screen "$1: OK" "<OK>"
        assert_screen "$1: Cancel" "<Cancel>"
        last=$(screen_text | sed -n "${SCREEN_SIZE#*x}p")
        case $last in
        *"F1 help"*) echo "ok: $1: the key line is on the last row" ;;
        *) fail "$1: the last row is '$last', not the key line:
$(screen_text)" ;;
        esac
        assert_fits "$1"
}

for term in xterm-256color linux vt100; do
        locale=C.UTF-8
        [ "$term" = vt100 ] && locale=C
        echo "== TERM=$term LANG=$locale"
        SCREEN_SIZE=80x24
        t=$d/$term
        rm -rf "$t"
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        assert_whole "80x24 at the start"
        keys Down Space
        wait_screen "(*) Permissive"

        resize 72x20
        wait_screen "The terminal is 72x20; this screen needs at least 80x24."
        assert_not_screen "no window drawn too small" "<Cancel>"
        keys Down Space # nothing to act on while too small
        resize 80x24
        wait_screen "SELinux on this system"
        assert_whole "back at 80x24"
        assert_screen "the choice is kept" "(*) Permissive"
        assert_screen "and its plan" "SELINUX=permissive"
        assert_not_screen "the notice is gone" "The terminal is"

        resize 100x30
        wait_screen "SELinux on this system"
        sleep 0.3
        assert_whole "at 100x30"
        assert_screen "still the choice" "(*) Permissive"
        # centred in the larger screen: the border starts further right than at 80x24
        case $(screen_text | grep -m1 -E '┌|lqq') in
        "            "*) echo "ok: at 100x30 the window is centred again" ;;
        *) fail "the window was not laid out again for 100x30:
$(screen_text)" ;;
        esac

        # A resize under the confirmation of Disabled shows it again, on Back.
        keys Down Space
        wait_screen "(*) Disabled"
        keys F12
        wait_screen "Disable SELinux?"
        resize 80x24
        wait_screen "Disable SELinux?"
        sleep 0.3
        assert_screen "the confirmation again, after the resize" "Apply"
        assert_screen "over the whole choice, drawn again" "<Cancel>"
        assert_fits "the confirmation at 80x24"
        keys Enter # Back
        wait_gone "Disable SELinux?"
        assert_whole "back from the confirmation"
        assert_eq "nothing applied" enforcing "$(config_mode "$t")"

        # F1 help survives a resize too, and Esc closes it.
        keys F1
        wait_screen "SELinux confines each program"
        resize 100x30
        sleep 0.5
        assert_screen "the help again, after the resize" "SELinux confines each program"
        keys Escape
        wait_gone "SELinux confines each program"
        assert_whole "back from the help at 100x30"

        # Esc on the choice is Cancel: nothing changes, the mark stays.
        before=$(fingerprint "$t")
        keys Escape
        wait_exit
        assert_eq "exit status after Esc" 0 "$RC"
        assert_contains "Esc cancels" "$OUT" "Cancelled: nothing changed."
        assert_eq "nothing changed by Esc" "$before" "$(fingerprint "$t")"
        [ -e "$t/var/lib/seinstall/firstboot" ] || fail "Esc removed the first-boot mark"

        # Too small, Esc leaves as Cancel does.
        SCREEN_SIZE=80x24
        start_screen "$term" "$locale" "$t"
        resize 72x20
        wait_screen "The terminal is 72x20"
        keys Escape
        wait_exit
        assert_eq "exit status after Esc on the notice" 0 "$RC"
        assert_contains "Esc on the notice cancels" "$OUT" "Cancelled: nothing changed."

        # Enter on a choice is OK on the selected one (Space selects; arrows only move).
        SCREEN_SIZE=80x24
        start_screen "$term" "$locale" "$t"
        keys Down Space
        wait_screen "(*) Permissive"
        keys Enter
        wait_exit
        assert_eq "exit status after Enter" 0 "$RC"
        assert_eq "Enter applied the selected choice" permissive "$(config_mode "$t")"

        # Cancel is two Tabs away: the choices are one stop, then OK, then Cancel.
        make_target "$t" enforcing
        before=$(fingerprint "$t")
        start_screen "$term" "$locale" "$t"
        keys Down Space Tab Tab Enter
        wait_exit
        assert_contains "Tab Tab Enter is Cancel" "$OUT" "Cancelled: nothing changed."
        assert_eq "nothing changed by Cancel" "$before" "$(fingerprint "$t")"
done
