#!/bin/sh
# e2e-avc: put into the target by qemu/guest/mislabel.sh; the test types it on the serial
# console of the booted target. It makes a confined domain read /etc/shadow the way a login's
# PAM account check does (e2e-shadow-reader.service: systemd runs unix_chkpwd, and the policy
# moves it from init_t to chkpwd_t), then prints the denials in the kernel log alone (E2E-KAVC:
# what seinstall avc reads when auditd does not run) and what `seinstall avc` says of this
# boot, as JSON and as text. It decides nothing; the host judges. `e2e-avc status` prints getenforce and
# `seinstall status` instead.
if [ "${1:-}" = status ]; then
        echo "E2E-FACT getenforce $(getenforce)"
        echo "E2E-BEGIN status"
        seinstall status 2>&1
        echo "E2E-END status"
        echo "E2E-STATUS-""DONE"
        exit 0
fi
systemctl start e2e-shadow-reader.service
echo "E2E-FACT chkpwd-rc $?"
sleep 2
dmesg 2>/dev/null | grep -o 'avc: *denied.*' | sed -e 's/ pid=[0-9]*//' -e 's/ ino=[0-9]*//' |
        sort -u | sed 's/^/E2E-KAVC /'
echo "E2E-BEGIN avc-json"
seinstall avc --json 2>&1
rc=$?
echo
echo "E2E-END avc-json"
echo "E2E-FACT avc-json-rc $rc"
echo "E2E-BEGIN avc"
seinstall avc 2>&1
rc=$?
echo "E2E-END avc"
echo "E2E-FACT avc-rc $rc"
echo "E2E-AVC-""DONE"
