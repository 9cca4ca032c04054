#!/bin/bash
# What the first-boot screen and --yes say, read back from tmux at 80x24 and 100x30 with TERM
# xterm-256color, linux and vt100: a long --root keeps the install's choice on the screen and
# its scroll hint under the state's box, not the plan's; a pending trial is shown and choosing
# Permissive says it cancels it; Enforcing after a relabel says the screen comes back for it,
# and then calls it "Chosen after install"; a config change lists only the keys that change;
# and every outcome ends with a line saying what now holds, also when nothing changes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)

# assert_not_contains WHAT HAYSTACK NEEDLE
assert_not_contains() {
        case $2 in
        *"$3"*) fail "$1: '$3' found in: $2" ;;
        *) echo "ok: $1: no '$3'" ;;
        esac
}

# wait_exit, with $OUT's lines as printed: the pane's wrapped lines joined (tmux -J).
wait_exit_joined() {
        wait_exit
        OUT=$(tm capture-pane -p -J -t fb)
}

for combo in "80x24 xterm-256color C.UTF-8" "100x30 linux C.UTF-8" "80x24 vt100 C"; do
        read -r SCREEN_SIZE term locale <<<"$combo"
        echo "== $SCREEN_SIZE TERM=$term LANG=$locale"

        # A long root path: the state is longer than its box at 80x24. The install's choice
        # stays in sight and the scroll hint is the line right under the state, above the
        # choices; the plan's box has no hint of its own.
        t=$d/$term-$(printf 'a%.0s' $(seq 60))/$(printf 'b%.0s' $(seq 60))/target
        make_target "$t" enforcing
        start_screen "$term" "$locale" "$t"
        assert_screen "the install's choice in sight" "Chosen at install: Enforcing."
        hint=$(screen_text | grep -n "The text above scrolls" | cut -d: -f1 | head -n 1)
        choice=$(screen_text | grep -n "(\*) Enforcing" | cut -d: -f1)
        if [ "$SCREEN_SIZE" = 80x24 ]; then
                [ -n "$hint" ] || fail "no scroll hint for the long state:
$(screen_text)"
                [ "$hint" -lt "$choice" ] || fail "the hint (row $hint) is not under the state, above the choices (row $choice):
$(screen_text)"
                echo "ok: the hint is on row $hint, under the state, above the choices (row $choice)"
                [ "$(screen_text | grep -c "The text above scrolls")" = 1 ] ||
                        fail "a second hint under the plan:
$(screen_text)"
                # Tab from the buttons wraps to the state: scrolled, the path's end shows
                keys Tab Tab Tab PageDown PageDown
                assert_screen_words "the root path's end, scrolled to" "/target (not the running"
        else
                [ -z "$hint" ] || fail "a scroll hint where the state fits:
$(screen_text)"
                assert_screen_words "the whole root path" "/target (not the running system)."
        fi
        keys Escape
        wait_exit

        # A pending trial is shown; Permissive says it cancels it, and applying does.
        t=$d/$term-trial
        rm -rf "$t"
        make_target "$t" enforcing
        "$FIRSTBOOT" --root "$t" --mode trial --yes >/dev/null || fail "--mode trial --yes"
        make_target "$t" permissive # the mark an install leaves; the trial stays pending
        assert_contains "trial pending" "$(cat "$t/var/lib/seinstall/trial")" "state=pending"
        start_screen "$term" "$locale" "$t"
        assert_screen_words "the pending trial" "A trial is pending: permissive until a boot logs no label denial, then enforcing."
        keys Up Up Space
        wait_screen "(*) Permissive"
        assert_screen_words "Permissive cancels the trial" "Cancels the pending trial."
        keys Enter
        wait_exit_joined
        assert_eq "exit status" 0 "$RC"
        assert_contains "the change" "$OUT" "pending trial cancelled"
        assert_contains "the outcome" "$OUT" "Chosen: Permissive, from when the target boots."
        assert_not_contains "the trial is no longer pending" "$(cat "$t/var/lib/seinstall/trial")" \
                "state=pending"

        # Enforcing from Disabled waits for the relabel: the plan, the confirmation and the
        # outcome say this screen comes back for it, not "choose enforcing on the first-boot
        # screen"; when it does come back it says the choice was made after install.
        t=$d/$term-enable
        rm -rf "$t"
        make_target "$t" disabled
        start_screen "$term" "$locale" "$t"
        keys Up Up Space
        wait_screen "(*) Enforcing"
        assert_screen_words "the plan" "then this screen comes back, set on Enforcing, to switch it on."
        assert_not_screen "no 'from this screen'" "from this screen"
        keys F12
        wait_screen "SELinux is disabled now"
        assert_screen_words "the confirmation" "This screen then comes back, set on your choice, to switch it on."
        keys Left Enter
        wait_exit_joined
        assert_eq "exit status" 0 "$RC"
        assert_not_contains "no to-do naming this very screen" "$OUT" "choose enforcing on the first-boot screen"
        assert_contains "the outcome" "$OUT" "Chosen: Enforcing. SELinux stays permissive until every file is relabeled; then this screen comes back, set on Enforcing, to switch it on."
        assert_contains "the mark notes it" "$(cat "$t/var/lib/seinstall/firstboot")" "chosen=after-install"
        rm -f "$t/.autorelabel" # the relabel ran
        start_screen "$term" "$locale" "$t"
        assert_screen "chosen after install" "Chosen after install: Enforcing."
        assert_not_screen "not the install's" "Chosen at install"
        keys Enter
        wait_exit_joined
        assert_contains "enforcing now" "$OUT" "Chosen: Enforcing, from when the target boots."
        assert_eq "config" enforcing "$(config_mode "$t")"
done

# --yes: a line for every outcome, and a change lists only the keys that change.
t=$d/yes
make_target "$t" enforcing
out=$("$FIRSTBOOT" --root "$t" --mode permissive --yes) || fail "--mode permissive --yes"
assert_contains "the change" "$out" "Changed /etc/selinux/config: SELINUX=permissive (was enforcing)"
assert_not_contains "no unchanged key listed" "$out" "SELINUXTYPE=default (was default)"
assert_contains "the outcome" "$out" "Chosen: Permissive, from when the target boots."
out=$("$FIRSTBOOT" --root "$t" --mode permissive --yes) || fail "--mode permissive --yes again"
assert_eq "nothing to change says so" "Nothing to change: the system is already set to Permissive." "$out"
out=$("$FIRSTBOOT" --root "$t" --mode disabled --yes) || fail "--mode disabled --yes"
assert_contains "disabled" "$out" "Chosen: Disabled, from when the target boots."
out=$("$FIRSTBOOT" --root "$t" --mode trial --yes) || fail "--mode trial --yes"
assert_contains "the trial" "$out" "Chosen: the trial. It boots permissive;"
