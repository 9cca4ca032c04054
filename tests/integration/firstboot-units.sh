#!/bin/bash
# The systemd units of the first boot: systemd itself finds nothing to complain about (keys,
# values, dependencies), the distribution's selinux-autorelabel.service with seinstall's drop-in
# loads cleanly, and the facts they rest on hold: the screen waits for the mark the library
# writes, it comes before the login prompt on the console and gives up before systemd would kill
# it; the relabel reacts to the marks the library writes, runs before the distribution's relabel
# and removes them; the drop-in makes the distribution's relabel need a mark.
. "$(dirname "$0")/../lib.sh"

require_unit_verify
fb=$TOP/firstboot
d=$(scratch_dir)

# verify UNIT...: systemd-analyze verify without complaints. The commands themselves are not
# installed on this machine; that one complaint is expected.
verify() {
        local out
        out=$(systemd-analyze verify --man=no "$@" 2>&1 |
                grep -v 'Command /usr/sbin/seinstall\(-firstboot\)\? is not executable')
        [ -z "$out" ] || fail "systemd-analyze verify $*: $out"
        echo "ok: systemd-analyze verify $*"
}
verify "$fb/seinstall-firstboot.service"
verify "$fb/seinstall-relabel.service"

# The drop-in on the distribution's unit (policycoreutils'), or on a stand-in of it.
mkdir -p "$d/units/selinux-autorelabel.service.d"
if [ -e /lib/systemd/system/selinux-autorelabel.service ]; then
        cp /lib/systemd/system/selinux-autorelabel.service "$d/units/"
else
        printf '[Unit]\nDescription=stand-in\n[Service]\nType=oneshot\nExecStart=/bin/true\n' \
                >"$d/units/selinux-autorelabel.service"
fi
cp "$fb/selinux-autorelabel-seinstall.conf" "$d/units/selinux-autorelabel.service.d/seinstall.conf"
out=$(SYSTEMD_UNIT_PATH=$d/units: systemd-analyze verify --man=no selinux-autorelabel.service 2>&1 |
        grep -v 'Command /lib/systemd/selinux-autorelabel is not executable')
[ -z "$out" ] || fail "selinux-autorelabel.service with the drop-in: $out"
echo "ok: selinux-autorelabel.service loads with seinstall's drop-in"

# key FILE KEY: every value of KEY= in a unit file, one a line.
key() {
        sed -n "s/^$2=//p" "$1"
}
has() {
        key "$1" "$2" | grep -qxF -- "$3" || fail "${1##*/}: no $2=$3 (has: $(key "$1" "$2" | tr '\n' ' '))"
        echo "ok: ${1##*/} has $2=$3"
}

# The screen: the library's mark, before the login prompt, on the console, bounded.
u=$fb/seinstall-firstboot.service
mark=$(sed -n 's/^#define SEINSTALL_FIRSTBOOT_MARK "\(.*\)"$/\1/p' \
        "$TOP/installer-plugin/include/seinstall.h")
[ -n "$mark" ] || fail "SEINSTALL_FIRSTBOOT_MARK not found in seinstall.h"
has "$u" ConditionPathExists "$mark"
assert_contains "seinstall-firstboot.service Before=" "$(key "$u" Before)" getty-pre.target
assert_contains "seinstall-firstboot.service After=" "$(key "$u" After)" seinstall-relabel.service
has "$u" TTYPath /dev/console
has "$u" StandardInput tty
tool=$(key "$u" ExecStart | sed -n 's/.*--timeout \([0-9]*\).*/\1/p')
limit=$(key "$u" TimeoutStartSec)
if [ -z "$tool" ] || [ -z "$limit" ] || [ "$tool" -ge "$limit" ]; then
        fail "the screen's --timeout ($tool) must end it before TimeoutStartSec ($limit) kills it"
fi
echo "ok: the screen leaves after ${tool}s, before systemd's ${limit}s"

# The relabel: the library's marks, before the distribution's relabel, the marks removed.
u=$fb/seinstall-relabel.service
has "$u" ConditionPathExists "|/.autorelabel"
has "$u" ConditionPathExists "|/etc/selinux/.autorelabel"
has "$u" ConditionSecurity selinux
before=$(key "$u" Before)
assert_contains "seinstall-relabel.service Before=" "$before" selinux-autorelabel.service
assert_contains "seinstall-relabel.service Before=" "$before" seinstall-firstboot.service
assert_contains "seinstall-relabel.service Before=" "$before" sysinit.target
has "$u" WantedBy sysinit.target
assert_contains "seinstall-relabel.service removes the marks" "$(key "$u" ExecStartPost)" \
        "rm -f /.autorelabel /etc/selinux/.autorelabel"
assert_contains "seinstall-relabel.service relabels with seinstall" "$(key "$u" ExecStart)" \
        "/usr/sbin/seinstall relabel"
# the root filesystem under the live system's mounts, in the same run (one process, one load
# of the file contexts): relabel --under-mounts, no second relabel over a bind mount
assert_contains "seinstall-relabel.service relabels what mounts hide" "$(key "$u" ExecStart)" \
        "--under-mounts"
[ "$(grep -c 'seinstall relabel' "$u")" = 1 ] ||
        fail "seinstall-relabel.service runs more than one relabel: $(grep 'seinstall relabel' "$u")"
case $(key "$u" ExecStartPost) in
*"mount --bind"*) fail "seinstall-relabel.service still relabels over a bind mount of / after the relabel" ;;
esac
echo "ok: seinstall-relabel.service relabels the tree and what its mounts hide in one run"

# Its messages reach the journal and the console: the summary, the progress and, on failure,
# why (stderr) and what happens next (ExecStopPost); none goes to a tty only.
has "$u" StandardOutput journal+console
has "$u" StandardError journal+console
[ -z "$(key "$u" TTYPath)" ] || fail "seinstall-relabel.service still writes to a tty of its own"
# ExecStopPost as systemd runs it ($$ is systemd's quoting of $)
stop=$(key "$u" ExecStopPost | sed "s/^\/bin\/sh -c '//; s/'\$//; s/\\$\\$/\\$/g")
out=$(SERVICE_RESULT=exit-code EXIT_STATUS=2 sh -c "$stop")
assert_contains "ExecStopPost on failure" "$out" \
        "seinstall-relabel.service: the relabel failed (exit-code, status 2): the marks stay"
[ -z "$(SERVICE_RESULT=success EXIT_STATUS=0 sh -c "$stop")" ] || fail "ExecStopPost speaks on success"
echo "ok: ExecStopPost says what follows a failure, and nothing after a success"
# The relabel's own words on failure, as the journal receives them (stderr a pipe, not a
# terminal): the reason on one plain line, no carriage return, no escape sequence.
if [ -x "${SEINSTALL:-}" ] && [ -f /etc/selinux/default/contexts/files/file_contexts ]; then
        t=$d/target
        mkdir -p "$t/etc/selinux/default/contexts/files" "$t/etc/selinux/default/policy"
        printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
        cp -a /etc/selinux/default/policy/. "$t/etc/selinux/default/policy/"
        { cat /etc/selinux/default/contexts/files/file_contexts
          printf '/srv/x\tsystem_u:object_r:no_such_type_t:s0\n'; } \
                >"$t/etc/selinux/default/contexts/files/file_contexts"
        cmd=$(key "$u" ExecStart | sed "s|^/usr/sbin/seinstall ||")
        # shellcheck disable=SC2086 # the unit's arguments, split as systemd splits them
        "$SEINSTALL" $cmd --root "$t" >"$d/stdout" 2>"$d/stderr" && rc=0 || rc=$?
        assert_eq "the unit's relabel with a bad file contexts line: exit" 2 "$rc"
        assert_contains "its stderr" "$(cat "$d/stderr")" \
                "file_contexts:$(($(wc -l </etc/selinux/default/contexts/files/file_contexts) + 1)): the context system_u:object_r:no_such_type_t:s0 is not valid"
        if LC_ALL=C grep -q $'[\r\033]' "$d/stderr" "$d/stdout"; then
                fail "carriage returns or escape sequences for the journal: $(od -c "$d/stderr" | head)"
        fi
        echo "ok: the unit's relabel tells the journal why it failed, in plain lines"
fi

# The drop-in: the distribution's relabel only while a mark is there.
u=$fb/selinux-autorelabel-seinstall.conf
has "$u" ConditionPathExists "|/.autorelabel"
has "$u" ConditionPathExists "|/etc/selinux/.autorelabel"
