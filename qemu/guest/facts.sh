#!/bin/sh
# e2e-facts: installed into the target as /usr/local/sbin/e2e-facts. The test types it on the
# target's serial console and judges the "E2E-FACT key value" lines it prints; it decides
# nothing itself. "E2E-AVC" lines are the AVC denials of this boot, one per line.
# printf, not echo: dash's echo turns the backslashes of e.g. systemd-boot's initrd=\e2e\initrd
# into control characters.
fact() { printf 'E2E-FACT %s %s\n' "$1" "$2"; }

fact cmdline "$(cat /proc/cmdline)"
fact lsm "$(cat /sys/kernel/security/lsm 2>/dev/null)"
fact enforce "$(cat /sys/fs/selinux/enforce 2>/dev/null || echo absent)"
fact config-mode "$(sed -n 's/^SELINUX=//p' /etc/selinux/config 2>/dev/null)"
fact config-type "$(sed -n 's/^SELINUXTYPE=//p' /etc/selinux/config 2>/dev/null)"
type=$(sed -n 's/^SELINUXTYPE=//p' /etc/selinux/config 2>/dev/null)
fact policy-file "$(ls /etc/selinux/"$type"/policy/policy.* 2>/dev/null | tail -n 1)"
fact pid1 "$(cat /proc/1/attr/current 2>/dev/null | tr -d '\0')"
fact shell "$(cat /proc/self/attr/current 2>/dev/null | tr -d '\0')"
fact init-path "$(readlink -f /sbin/init)"
for f in /etc/shadow "$(readlink -f /sbin/init)" /sbin/init /etc/selinux/config / /home /home/e2e /boot/efi; do
        fact "label:$f" "$(stat -c %C "$f" 2>/dev/null || echo missing)"
done
fact state "$(timeout 120 systemctl is-system-running --wait 2>/dev/null)"
fact failed-units "$(systemctl list-units --failed --plain --no-legend 2>/dev/null | awk '{print $1}' | tr '\n' ' ')"
# The policy the kernel has loaded, as the kernel writes it back: the test compares it with
# the target's policy file on the host (checkpolicy -b -C of both must give the same CIL).
if [ -r /sys/fs/selinux/policy ]; then
        cp /sys/fs/selinux/policy /var/lib/e2e-loaded-policy && sync
fi
# Mode changes since boot (MAC_STATUS records): shows the mode the policy was loaded in.
dmesg 2>/dev/null | grep -o 'enforcing=[01] old_enforcing=[01]' | sed 's/^/E2E-MODE /'
{
        dmesg 2>/dev/null
        journalctl -b -q --no-pager _TRANSPORT=audit 2>/dev/null
} | grep -o 'avc: *denied.*' | sed -e 's/ pid=[0-9]*//' -e 's/ ino=[0-9]*//' | sort -u | sed 's/^/E2E-AVC /'
echo "E2E-FACTS-""DONE"
