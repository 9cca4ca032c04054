#!/bin/bash
# The first-boot screen driven in tmux as a person would, at 80x24, once with TERM=xterm in a
# UTF-8 locale and once with TERM=vt100 in the C locale (a serial console): it shows the state
# and the three modes; F1 shows help; Down, Space, F12 from Enforcing chooses Permissive and
# the target's config follows; Cancel changes nothing and keeps the first-boot mark; Disabled
# warns before applying.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)

for combo in "xterm C.UTF-8" "vt100 C"; do
        read -r term locale <<<"$combo"
        echo "== TERM=$term LANG=$locale, 80x24"

        # The state and the three modes, starting on the current one.
        t=$d/$term-permissive
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        assert_screen "title" "SELinux on this system"
        assert_screen "state" "Next boot: Enforcing"
        assert_screen "state" "No relabel is pending"
        assert_screen "radio list starts on the current mode" "(*) Enforcing"
        assert_screen "radio list" "( ) Permissive"
        assert_screen "radio list" "( ) Disabled"
        assert_screen "line under Disabled" "new files get no labels"
        assert_screen "buttons" "Cancel"
        assert_screen "current choice" "nothing changes"

        # F1: help, and back.
        keys F1
        wait_screen "Relabel: gives every file"
        assert_screen "help" "Permissive: nothing is denied"
        keys Enter
        wait_gone "Relabel: gives every file"
        assert_screen "back from help" "(*) Enforcing"

        # Down, Space, F12: Permissive, applied to the target.
        keys Down Space
        wait_screen "(*) Permissive"
        assert_screen "what Permissive does" "SELINUX=permissive"
        keys F12
        wait_exit
        assert_eq "exit status after F12" 0 "$RC"
        assert_eq "target config after choosing Permissive" permissive "$(config_mode "$t")"
        assert_contains "GRUB keeps SELinux on" "$(cat "$t/etc/default/grub")" "security=selinux"
        [ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "the first-boot mark is still there"
        echo "ok: the first-boot mark is gone"

        # Select Permissive, then Cancel (Tab from Permissive past Disabled, the trial and OK):
        # nothing changes, and the mark stays so that the screen comes back.
        t=$d/$term-cancel
        make_target "$t" enforcing
        before=$(fingerprint "$t")
        start_screen "$term" "$locale" "$t"
        keys Down Space
        wait_screen "(*) Permissive"
        keys Tab Tab Enter # the choices, OK, Cancel
        wait_exit
        assert_eq "exit status after Cancel" 0 "$RC"
        assert_contains "Cancel says so" "$OUT" "nothing changed"
        assert_eq "config, boot loader and relabel marks after Cancel" "$before" \
                "$(fingerprint "$t")"
        [ -e "$t/var/lib/seinstall/firstboot" ] || fail "Cancel removed the first-boot mark"
        assert_contains "Cancel says the screen comes back" "$OUT" "comes back at the next boot"

        # Disabled: the warning about enabling later comes before anything is written.
        t=$d/$term-disabled
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        keys Down Down Space
        wait_screen "(*) Disabled"
        keys F12
        wait_screen "full relabel"
        assert_eq "config while the warning shows" enforcing "$(config_mode "$t")"
        # The focus starts on Back, the button that changes nothing: Enter goes back.
        keys Enter
        wait_gone "Disable SELinux?"
        assert_screen "Back returns to the choice" "(*) Disabled"
        assert_eq "config after Back" enforcing "$(config_mode "$t")"
        keys F12
        wait_screen "Disable SELinux?"
        keys Left Enter # Apply
        wait_exit
        assert_eq "exit status after Disabled" 0 "$RC"
        assert_eq "target config after choosing Disabled" disabled "$(config_mode "$t")"
        case $(cat "$t/etc/default/grub") in
        *security=selinux*) fail "GRUB still enables SELinux: $(cat "$t/etc/default/grub")" ;;
        esac
        echo "ok: GRUB no longer has security=selinux"

        # The trial, the fourth choice: the config says permissive, the trial is pending with
        # its unit enabled, the first-boot mark goes (the unit decides, not this screen).
        t=$d/$term-trial
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        assert_screen "the fourth choice" "( ) Enforcing after a clean boot (trial)"
        assert_screen "line under the trial" "enforcing on its own once a boot logs no label"
        keys Down Down Down Space
        wait_screen "(*) Enforcing after a clean boot (trial)"
        assert_screen "what the trial does" "seinstall-trial.service makes it enforcing"
        keys F12
        wait_exit
        assert_eq "exit status after the trial" 0 "$RC"
        assert_eq "config after choosing the trial" permissive "$(config_mode "$t")"
        assert_contains "the trial is pending" "$(cat "$t/var/lib/seinstall/trial")" "state=pending"
        [ -L "$t/etc/systemd/system/multi-user.target.wants/seinstall-trial.service" ] ||
                fail "seinstall-trial.service is not enabled in the target"
        [ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "the trial left the first-boot mark"
        echo "ok: trial pending, its unit enabled, the first-boot mark gone"

        # A pending trial (a trial install's first boot): the screen starts on it, and a
        # timeout leaves it to the unit.
        start_screen "$term" "$locale" "$t" --timeout 2
        assert_screen "starts on the pending trial" "(*) Enforcing after a clean boot (trial)"
        wait_exit
        assert_contains "timeout" "$OUT" "No answer"
        assert_contains "still pending after the timeout" "$(cat "$t/var/lib/seinstall/trial")" \
                "state=pending"
done
