#!/bin/bash
# seinstall avc from the command line: a saved log judged against a target's file contexts
# (text and --json), exit status 2 for a log that is missing, a directory or binary, 3 for one
# that cannot be read, and this machine's own kernel log read without --log.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

d=$(scratch_dir)
T=$d/target
mkdir -p "$T/etc/selinux/default/contexts/files"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$T/etc/selinux/config"
cat >"$T/etc/selinux/default/contexts/files/file_contexts" <<'EOF'
/.*	system_u:object_r:default_t:s0
/etc(/.*)?	system_u:object_r:etc_t:s0
/etc/shadow.*	--	system_u:object_r:shadow_t:s0
EOF
cat >"$d/audit.log" <<'EOF'
type=AVC msg=audit(1733270000.123:101): avc:  denied  { read } for  pid=812 comm="passwd" name="shadow" dev="vda1" ino=39231 scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1
type=SYSCALL msg=audit(1733270000.123:101): arch=c000003e syscall=257 success=yes exit=3 items=1 ppid=800 pid=812 comm="passwd" exe="/usr/bin/passwd" subj=system_u:system_r:passwd_t:s0 key=(null)
type=CWD msg=audit(1733270000.123:101): cwd="/root"
type=PATH msg=audit(1733270000.123:101): item=0 name="/etc/shadow" inode=39231 dev=fe:01 mode=0100640 ouid=0 ogid=42 rdev=00:00 obj=system_u:object_r:etc_t:s0 nametype=NORMAL
[    9.100000] audit: type=1400 audit(1733270001.000:102): avc:  denied  { sys_admin } for  pid=500 comm="foo" capability=21  scontext=system_u:system_r:foo_t:s0 tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1
Dec 05 00:00:02 host kernel: audit: type=1400 audit(1733270002.000:103): avc:  denied  { sys_admin } for  pid=501 comm="foo" capability=21  scontext=system_u:system_r:foo_t:s0 tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1
EOF

expect_exit 0 "$SEINSTALL" avc --root "$T" --log "$d/audit.log"
assert_contains "avc text" "$OUT" "3 denials in $d/audit.log: 1 caused by labels, 2 by the policy"
# the log is the target's: its fix relabels the target's file
assert_contains "avc text" "$OUT" "fix: chroot $T restorecon -F /etc/shadow"
assert_contains "avc text" "$OUT" "file contexts say system_u:object_r:shadow_t:s0"

expect_exit 0 "$SEINSTALL" avc --root "$T" --log "$d/audit.log" --json
python3 - "$OUT" <<'PY' || fail "avc --json: $OUT"
import json, sys
d = json.loads(sys.argv[1])
assert d["denials"] == 3 and d["caused_by_label"] == 1 and d["caused_by_policy"] == 2, d
(l,) = d["label"]
assert l["path"] == "/etc/shadow" and l["expected"] == "system_u:object_r:shadow_t:s0", l
(p,) = d["policy"]
assert p["count"] == 2 and p["domain"] == "foo_t" and p["tclass"] == "capability", p
PY
echo "ok: avc --json"

expect_exit 2 "$SEINSTALL" avc --root "$T" --log "$d/no-such-log"
assert_contains "missing log" "$ERR" "no-such-log"
expect_exit 2 "$SEINSTALL" avc --root "$T" --log "$d/no-such-log" --json
assert_json_error 2
expect_exit 2 "$SEINSTALL" avc --root "$T" --log "$d"
printf 'LPKSHHRH\0\0\0\0' >"$d/journal"
expect_exit 2 "$SEINSTALL" avc --root "$T" --log "$d/journal"
assert_contains "binary log" "$ERR" "not a text log"
# a file whose read fails: /proc/self/mem at offset 0 answers EIO
expect_exit 3 "$SEINSTALL" avc --root "$T" --log /proc/self/mem
expect_exit 2 "$SEINSTALL" avc --bogus

# this machine's own log (auditd's or the kernel's), judged by the host's policy
if [ -r /etc/selinux/default/contexts/files/file_contexts ] && [ "$(id -u)" = 0 ]; then
        expect_exit 0 "$SEINSTALL" avc --json
        python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["source"] in ("/dev/kmsg", "/var/log/audit/audit.log"), d' "$OUT" ||
                fail "avc --json on this machine: $OUT"
        echo "ok: this machine's log read ($(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["source"], d["denials"])' "$OUT") denials)"
fi
