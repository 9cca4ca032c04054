#!/bin/bash
# seinstall-trial.service: systemd finds nothing to complain about, and the facts the trial rests
# on hold: it waits for the state file the library writes (the path in seinstall-internal.h) and runs only
# while that says pending, only with SELinux active, never on a boot with a relabel pending, once
# the boot has settled (after multi-user.target, wanted by it, after the first-boot screen and the
# relabel); it runs `seinstall trial` with its line on the console and in the journal, and the
# outcome "kept permissive" (exit 1) is not a failed unit. `make install` installs it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

require_unit_verify
u=$TOP/firstboot/seinstall-trial.service
out=$(systemd-analyze verify --man=no "$u" 2>&1 |
        grep -v 'Command /usr/sbin/seinstall is not executable')
[ -z "$out" ] || fail "systemd-analyze verify $u: $out"
echo "ok: systemd-analyze verify seinstall-trial.service"

key() { sed -n "s/^$2=//p" "$1"; }
has() {
        key "$1" "$2" | grep -qxF -- "$3" || fail "${1##*/}: no $2=$3 (has: $(key "$1" "$2" | tr '\n' ' '))"
        echo "ok: ${1##*/} has $2=$3"
}
state=$(sed -n 's/^#define SEINSTALL_TRIAL_STATE "\(.*\)"$/\1/p' "$TOP/installer-plugin/lib/seinstall-internal.h")
unit=$(sed -n 's/^#define SEINSTALL_TRIAL_UNIT "\(.*\)"$/\1/p' "$TOP/installer-plugin/lib/seinstall-internal.h")
[ -n "$state" ] || fail "SEINSTALL_TRIAL_STATE not found in seinstall-internal.h"
assert_eq "the unit's name in seinstall-internal.h" "seinstall-trial.service" "$unit"
has "$u" ConditionPathExists "$state"
has "$u" ConditionPathExists "!/.autorelabel"
has "$u" ConditionPathExists "!/etc/selinux/.autorelabel"
has "$u" ConditionSecurity selinux
has "$u" ExecCondition "/bin/sh -c 'grep -qx state=pending $state || exit 2'"
has "$u" ExecStart "/usr/sbin/seinstall trial"
has "$u" StandardOutput journal+console
has "$u" SuccessExitStatus 1
has "$u" WantedBy multi-user.target
after=$(key "$u" After)
for a in multi-user.target seinstall-relabel.service seinstall-firstboot.service; do
        assert_contains "seinstall-trial.service After=" "$after" "$a"
done

# The ExecCondition's grep against states the library writes: pending runs, decided does not.
d=$(scratch_dir)
printf '# comment\nstate=pending\npolicy=default\n' >"$d/pending"
printf 'state=enforced\npolicy=default\n' >"$d/enforced"
printf 'state=kept-permissive\npath=/state=pending\n' >"$d/kept"
# The unit's own command, on each file. systemd skips the unit on a status of 1 to 254 unless
# SuccessExitStatus= lists it: a listed one counts as success (the trial ran on every boot when
# the grep's 1 met SuccessExitStatus=1; the e2e trial scenario saw it on the next boot).
cond=$(key "$u" ExecCondition)
success=" $(key "$u" SuccessExitStatus) "
cond_rc() { (eval "${cond//"$state"/"$1"}") >/dev/null 2>&1; echo $?; }
assert_eq "ExecCondition on a pending state" 0 "$(cond_rc "$d/pending")"
for f in enforced kept; do
        rc=$(cond_rc "$d/$f")
        [ "$rc" -ge 1 ] && [ "$rc" -le 254 ] || fail "ExecCondition on the $f state: status $rc does not skip the unit"
        case $success in *" $rc "*) fail "ExecCondition on the $f state exits $rc, which SuccessExitStatus= counts as success: the trial would run again" ;; esac
done
echo "ok: the ExecCondition runs the trial only while it is pending (not pending: status $rc, not in SuccessExitStatus=$success)"

# make install puts it where the other units go.
install_tree "$d/dest"
[ -f "$d/dest/lib/systemd/system/seinstall-trial.service" ] ||
        fail "make install did not install seinstall-trial.service"
echo "ok: make install installs seinstall-trial.service"
