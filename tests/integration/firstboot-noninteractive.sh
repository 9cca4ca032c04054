#!/bin/bash
# seinstall-firstboot without a screen: --status, --mode M --yes, the errors, and the case of
# no terminal at all (it must exit 2 at once, never wait). Then the screen's two ways to end
# without an answer: enabling from Disabled explains the relabel first, and a timeout keeps
# the mode chosen at install.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)

# --status: the state and what each choice would do.
t=$d/status
make_target "$t" enforcing
expect_exit 0 "$FIRSTBOOT" --root "$t" --status
assert_contains "--status" "$OUT" "Next boot: Enforcing"
assert_contains "--status" "$OUT" "First-boot mark: present"
assert_contains "--status, Permissive" "$OUT" "Permissive: SELINUX=permissive"
assert_contains "--status, Disabled" "$OUT" "security=selinux"

# --mode M --yes.
t=$d/yes
make_target "$t" enforcing
expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --mode permissive --yes </dev/null
assert_eq "config after --mode permissive --yes" permissive "$(config_mode "$t")"
[ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "--yes left the first-boot mark"
expect_exit 0 "$FIRSTBOOT" --root "$t" --status
assert_contains "--status after" "$OUT" "Next boot: Permissive"
# A second run changes nothing.
before=$(fingerprint "$t")
expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --mode permissive --yes </dev/null
assert_eq "second --yes run" "$before" "$(fingerprint "$t")"

expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --mode disabled --yes </dev/null
assert_eq "config after --mode disabled --yes" disabled "$(config_mode "$t")"
case $(cat "$t/etc/default/grub") in
*security=selinux*) fail "GRUB still enables SELinux: $(cat "$t/etc/default/grub")" ;;
esac
echo "ok: GRUB no longer has security=selinux"

# --mode trial --yes: the library's trial (apply --mode trial), as the screen's fourth choice.
t=$d/trial
make_target "$t" enforcing
expect_exit 0 "$FIRSTBOOT" --root "$t" --status
assert_contains "--status, the trial" "$OUT" \
        "Enforcing after a clean boot (trial): SELINUX=permissive in /etc/selinux/config; after a boot with no denial caused by a label, seinstall-trial.service makes it enforcing."
assert_contains "--status, the trial's state file" "$OUT" \
        "would change /var/lib/seinstall/trial: trial pending"
expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --mode trial --yes </dev/null
assert_eq "config after --mode trial --yes" permissive "$(config_mode "$t")"
assert_contains "GRUB keeps SELinux on" "$(cat "$t/etc/default/grub")" "security=selinux"
assert_contains "the trial is pending" "$(cat "$t/var/lib/seinstall/trial")" "state=pending"
[ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "--mode trial --yes left the first-boot mark"
expect_exit 0 "$SEINSTALL" status --root "$t" --json
assert_contains "seinstall status sees the trial" "$OUT" '"pending"'
# A mode chosen by hand afterwards ends it: the trial must not change the mode later.
expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --mode permissive --yes </dev/null
assert_contains "the trial is cancelled" "$(cat "$t/var/lib/seinstall/trial")" "state=cancelled"

# --yes without --mode: the install's choice from the mark.
t=$d/yes-mark
make_target "$t" enforcing
sed -i 's/^SELINUX=.*/SELINUX=permissive/' "$t/etc/selinux/config"
expect_exit 0 timeout 20 "$FIRSTBOOT" --root "$t" --yes </dev/null
assert_eq "config after --yes with the mark's mode=enforcing" enforcing "$(config_mode "$t")"

# No terminal and no --yes: a clear error and exit 2 at once, nothing written.
t=$d/notty
make_target "$t" enforcing
before=$(fingerprint "$t")
expect_exit 2 timeout 20 "$FIRSTBOOT" --root "$t" </dev/null
assert_contains "no terminal" "$ERR" "no terminal"
assert_contains "no terminal" "$ERR" "--mode MODE --yes"
expect_exit 2 timeout 20 setsid "$FIRSTBOOT" --root "$t" --mode enforcing </dev/null
assert_eq "nothing written without a terminal" "$before" "$(fingerprint "$t")"
[ -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark went without a run"

# Usage errors.
expect_exit 2 "$FIRSTBOOT" --root "$t" --mode enforced --yes
assert_contains "bad mode" "$ERR" "enforced"
assert_contains "bad mode: the modes" "$ERR" "disabled or trial"
expect_exit 2 "$FIRSTBOOT" --root "$d/missing" --status
assert_contains "missing root" "$ERR" "$d/missing"
expect_exit 2 "$FIRSTBOOT" --root "$t" --timeout soon
rm -f "$t/var/lib/seinstall/firstboot"
expect_exit 2 "$FIRSTBOOT" --root "$t" --yes </dev/null
assert_contains "--yes without a mode or a mark" "$ERR" "--mode"
assert_eq "nothing written by the usage errors" "$before" "$(fingerprint "$t")"

# Enabling from Disabled on the screen: the relabel and the reboot are explained before
# anything is written; applying schedules the relabel (-F) and keeps the mark so the screen
# comes back after it to switch enforcing on.
t=$d/enable
make_target "$t" disabled
start_screen vt100 C "$t"
assert_screen "starts on the current mode" "(*) Disabled"
keys Up Up Space
wait_screen "(*) Enforcing"
assert_screen "what Enforcing does" "relabeled"
keys F12
wait_screen "SELinux is disabled now"
assert_screen "the explanation" "then reboots once"
[ ! -e "$t/.autorelabel" ] || fail "/.autorelabel written before the person confirmed"
keys Left Enter # the focus starts on Back
wait_exit
assert_eq "exit status" 0 "$RC"
assert_contains "GRUB enables SELinux" "$(cat "$t/etc/default/grub")" "security=selinux"
assert_eq "/.autorelabel" "-F" "$(tr -d '\n' <"$t/.autorelabel")"
assert_eq "config until the relabel is done" permissive "$(config_mode "$t")"
assert_contains "the mark keeps the choice" "$(cat "$t/var/lib/seinstall/firstboot")" \
        "mode=enforcing"

# A timeout keeps the mode chosen at install: here the relabel it waited for is done (config
# permissive, mark mode=enforcing), so it is completed; with nothing to complete, nothing
# changes.
rm -f "$t/.autorelabel" "$t/etc/selinux/.autorelabel"
start_screen vt100 C "$t" --timeout 2
assert_screen "starts on the install's choice" "(*) Enforcing"
wait_exit
assert_eq "exit status after the timeout" 0 "$RC"
assert_contains "timeout says so" "$OUT" "No answer"
assert_eq "config after the timeout" enforcing "$(config_mode "$t")"
[ ! -e "$t/var/lib/seinstall/firstboot" ] || fail "the mark survived the timeout"

t=$d/timeout
make_target "$t" permissive
rm -f "$t/var/lib/seinstall/firstboot"
before=$(fingerprint "$t")
start_screen vt100 C "$t" --timeout 2
wait_exit
assert_eq "exit status after the timeout" 0 "$RC"
assert_eq "nothing changed by a timeout without a mark" "$before" "$(fingerprint "$t")"
