#!/bin/bash
# The trial mode end to end on a loop-mounted ext4 target: `install --mode=trial` leaves the
# config permissive, the trial pending and seinstall-trial.service enabled; `seinstall trial`
# with a saved log of that boot enforces when no denial was caused by a label, keeps permissive
# and names the file and its fix when one was, decides once (a second run changes nothing),
# refuses a state file that is a symlink or that seinstall did not write, and `status` shows
# each state; `apply` by hand cancels a pending trial; a profile's --trial with
# `selinux --disabled` is refused naming both lines.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
require_loop

d=$(scratch_dir)
STATE=var/lib/seinstall/trial
WANTS=etc/systemd/system/multi-user.target.wants/seinstall-trial.service
py() {
        echo "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); $1" || fail "$2: $OUT"
        echo "ok: $2"
}
# snap DIR: what a "nothing changed" must keep: the config, the state file, their times
snap() { stat -c '%n %s %Y %i' "$1/etc/selinux/config" "$1/$STATE" 2>&1; cat "$1/$STATE" "$1/etc/selinux/config" 2>&1; }

# A denial of this boot's log that a label caused (/etc/shadow labeled etc_t) and one of the
# policy's own (the label is right).
cat >"$d/label.log" <<'EOF'
type=AVC msg=audit(1733270000.123:101): avc:  denied  { read } for  pid=812 comm="passwd" name="shadow" dev="vda3" ino=39231 scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1
type=SYSCALL msg=audit(1733270000.123:101): arch=c000003e syscall=257 success=yes exit=3 items=1 ppid=800 pid=812 comm="passwd" exe="/usr/bin/passwd" subj=system_u:system_r:passwd_t:s0 key=(null)
type=CWD msg=audit(1733270000.123:101): cwd="/root"
type=PATH msg=audit(1733270000.123:101): item=0 name="/etc/shadow" inode=39231 dev=fe:03 mode=0100640 ouid=0 ogid=42 rdev=00:00 obj=system_u:object_r:etc_t:s0 nametype=NORMAL
[    9.100000] audit: type=1400 audit(1733270001.000:102): avc:  denied  { sys_admin } for  pid=500 comm="foo" capability=21  scontext=system_u:system_r:foo_t:s0 tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1
EOF
# Only the policy's denials.
grep capability "$d/label.log" >"$d/policy.log"

# 1. install --mode=trial
make_fs_image "$d/a.img" ext4 128
mount_image "$d/a.img" "$d/a"
make_target "$d/a"
T=$d/a
mkdir -p "$T/lib/systemd/system"
cp "$TOP/firstboot/seinstall-trial.service" "$T/lib/systemd/system/"
expect_exit 0 "$SEINSTALL" install --root "$T" --mode=trial --no-cmdline
echo "$OUT"
assert_contains "summary" "$OUT" "Installed: SELinux trial (from --mode), policy default: permissive until"
assert_contains "settings" "$OUT" "mode:        trial"
assert_eq "SELINUX=" "SELINUX=permissive" "$(grep '^SELINUX=' "$T/etc/selinux/config")"
assert_contains "state file" "$(cat "$T/$STATE")" "state=pending"
assert_contains "state file" "$(cat "$T/$STATE")" "policy=default"
assert_eq "unit enabled" "/lib/systemd/system/seinstall-trial.service" "$(readlink "$T/$WANTS")"
assert_contains "first-boot mark" "$(cat "$T/var/lib/seinstall/firstboot")" "mode=trial"
assert_contains "kernel command line" "$(grep '^GRUB_CMDLINE_LINUX=' "$T/etc/default/grub")" "security=selinux"
assert_contains "state file labeled" "$(label_of "$T/$STATE")" ":object_r:"
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status" "$OUT" "trial:           pending since "
expect_exit 0 "$SEINSTALL" status --root "$T" --json
py 'assert d["trial"]["state"] == "pending" and d["config_mode"] == "permissive", d' "status --json: pending"
# a second install changes nothing (state and link kept)
before=$(snap "$T")
expect_exit 0 "$SEINSTALL" install --root "$T" --mode=trial --no-cmdline --json
py 'assert d["trial"] is True and d["configure"]["changes"] == [], d["configure"]' "second trial install: nothing to change"
assert_eq "second install" "$before" "$(snap "$T")"

# 2. the trial on a boot where /etc/shadow was mislabeled: kept permissive, named, once
K=$d/k
mkdir -p "$K"
cp -a "$T/." "$K/"
expect_exit 1 "$SEINSTALL" trial --root "$K" --log "$d/label.log"
echo "$OUT"
assert_contains "console line" "$OUT" "seinstall trial: kept permissive: 1 denial caused by labels: /etc/shadow (fix: chroot $K restorecon -F /etc/shadow); after fixing: seinstall apply --root $K --mode=trial"
[ "$(echo "$OUT" | wc -l)" = 1 ] || fail "the console gets one line, not: $OUT"
assert_eq "SELINUX= kept" "SELINUX=permissive" "$(grep '^SELINUX=' "$K/etc/selinux/config")"
assert_contains "state" "$(cat "$K/$STATE")" "state=kept-permissive"
assert_contains "state" "$(cat "$K/$STATE")" "path=/etc/shadow"
before=$(snap "$K")
expect_exit 1 "$SEINSTALL" trial --root "$K" --log "$d/policy.log"
assert_contains "rerun" "$OUT" "kept permissive at "
assert_contains "rerun" "$OUT" "(decided before; nothing changed)"
assert_eq "rerun changed nothing" "$before" "$(snap "$K")"
expect_exit 0 "$SEINSTALL" status --root "$K"
assert_contains "status" "$OUT" "kept permissive at "
assert_contains "status" "$OUT" "1 label denial: /etc/shadow"
expect_exit 0 "$SEINSTALL" status --root "$K" --json
py 'assert d["trial"]["state"] == "kept-permissive" and d["trial"]["label_denials"] == 1 and d["trial"]["files"] == [{"path": "/etc/shadow", "fix": "chroot '"$K"' restorecon -F /etc/shadow"}], d["trial"]' \
        "status --json: kept permissive, the file and its fix"

# 3. the trial on a boot with only the policy's denials: enforced, once
E=$d/e
mkdir -p "$E"
cp -a "$T/." "$E/"
expect_exit 0 "$SEINSTALL" trial --root "$E" --log "$d/policy.log" --json
py 'assert d["decided_now"] is True and d["trial"]["state"] == "enforced" and d["trial"]["denials"] == 1 and d["trial"]["label_denials"] == 0 and d["trial"]["enforcing_now"] is False, d' \
        "trial --json: enforced"
assert_eq "SELINUX= enforcing" "SELINUX=enforcing" "$(grep '^SELINUX=' "$E/etc/selinux/config")"
assert_contains "config label kept" "$(label_of "$E/etc/selinux/config")" ":selinux_config_t:"
before=$(snap "$E")
expect_exit 0 "$SEINSTALL" trial --root "$E" --log "$d/label.log"
assert_contains "rerun" "$OUT" "seinstall trial: enforced at "
assert_eq "rerun changed nothing" "$before" "$(snap "$E")"
expect_exit 0 "$SEINSTALL" status --root "$E"
assert_contains "status" "$OUT" "trial:           enforced at "

# 3a. no denial named it, but /etc/shadow carries a wrong label now (the reader had not run, or
# the kernel dropped the audit line): kept permissive, named with its fix; once fixed (verify
# --fix) a new trial enforces
M=$d/m
mkdir -p "$M"
cp -a "$T/." "$M/"
echo 'root:*::0:::::' >"$M/etc/shadow"
setfattr -h -n security.selinux -v system_u:object_r:etc_t:s0 "$M/etc/shadow"
expect_exit 1 "$SEINSTALL" trial --root "$M" --log "$d/policy.log"
echo "$OUT"
assert_eq "console line" "seinstall trial: kept permissive: 0 denials caused by labels, 1 boot-critical file mislabeled: /etc/shadow (fix: chroot $M restorecon -F /etc/shadow); after fixing: seinstall apply --root $M --mode=trial (or --mode enforcing)" "$OUT"
assert_eq "SELINUX= kept" "SELINUX=permissive" "$(grep '^SELINUX=' "$M/etc/selinux/config")"
assert_contains "state" "$(cat "$M/$STATE")" "mislabeled=1"
expect_exit 0 "$SEINSTALL" status --root "$M"
assert_contains "status" "$OUT" "0 label denials, 1 mislabeled boot-critical file: /etc/shadow"
expect_exit 0 "$SEINSTALL" status --root "$M" --json
py 'assert d["trial"]["mislabeled"] == 1 and d["trial"]["label_denials"] == 0 and d["trial"]["files"] == [{"path": "/etc/shadow", "fix": "chroot '"$M"' restorecon -F /etc/shadow"}], d["trial"]' \
        "status --json: the mislabeled file and its fix"
expect_exit 0 "$SEINSTALL" verify --root "$M" --fix
expect_exit 0 "$SEINSTALL" apply --root "$M" --mode=trial --bootloader none
expect_exit 0 "$SEINSTALL" trial --root "$M" --log "$d/policy.log"
assert_contains "after the fix" "$OUT" "seinstall trial: enforced: no denial caused by a label this boot (1 denial, all the policy's), the boot-critical files labeled right; SELINUX=enforcing written, enforcing from the next boot"

# 3b. a name from the log with a newline and an escape sequence: one console line, escaped;
# the state file and JSON keep its bytes
X=$d/x
mkdir -p "$X"
cp -a "$T/." "$X/"
printf '[    9.2] audit: type=1400 audit(1733270003.000:104): avc:  denied  { read } for  pid=600 comm="cat" path=%s dev="vda3" ino=77 scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:default_t:s0 tclass=file permissive=1\n' \
        "$(printf '/etc/new\n\033[31mline' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" >"$d/hostile.log"
expect_exit 1 "$SEINSTALL" trial --root "$X" --log "$d/hostile.log"
[ "$(echo "$OUT" | wc -l)" = 1 ] || fail "a newline in a name made more than one console line: $OUT"
case $OUT in *$'\033'*) fail "a raw escape sequence reached the console line: $OUT" ;; esac
assert_contains "escaped name" "$OUT" '/etc/new\n\e[31mline'
expect_exit 0 "$SEINSTALL" status --root "$X" --json
py 'assert d["trial"]["files"][0]["path"] == "/etc/new\n\x1b[31mline", d["trial"]' "the name's bytes kept in the state and JSON"

# 4. hostile and broken state files: refused, nothing changed
H=$d/h
mkdir -p "$H"
cp -a "$T/." "$H/"
echo "state=pending" >"$d/outside"
rm "$H/$STATE"
ln -s "$d/outside" "$H/$STATE"
before=$(snap "$H")
expect_exit 2 "$SEINSTALL" trial --root "$H" --log "$d/policy.log"
assert_contains "symlink" "$ERR" "symbolic link"
assert_eq "symlink: config" "SELINUX=permissive" "$(grep '^SELINUX=' "$H/etc/selinux/config")"
assert_eq "symlink: outside untouched" "state=pending" "$(cat "$d/outside")"
expect_exit 0 "$SEINSTALL" status --root "$H"
assert_contains "status of a symlinked state" "$OUT" "trial:           unknown: "
rm "$H/$STATE"
printf 'state=maybe\n' >"$H/$STATE"
expect_exit 2 "$SEINSTALL" trial --root "$H" --log "$d/policy.log" --json
assert_json_error 2
assert_contains "corrupt state" "$ERR" "$STATE:1: unknown state 'maybe'"
assert_eq "corrupt: config" "SELINUX=permissive" "$(grep '^SELINUX=' "$H/etc/selinux/config")"
assert_eq "corrupt: state" "state=maybe" "$(cat "$H/$STATE")"
# a FIFO at the state file: refused at once (no open that waits for a writer), left as it is
rm "$H/$STATE"
mkfifo "$H/$STATE"
expect_exit 2 timeout 20 "$SEINSTALL" trial --root "$H" --log "$d/policy.log"
assert_contains "fifo state" "$ERR" "$STATE"
assert_eq "fifo: config" "SELINUX=permissive" "$(grep '^SELINUX=' "$H/etc/selinux/config")"
[ -p "$H/$STATE" ] || fail "the FIFO at the state file was replaced"
expect_exit 0 timeout 20 "$SEINSTALL" status --root "$H"
assert_contains "status of a FIFO state" "$OUT" "trial:           unknown: "
rm "$H/$STATE"

# 5. apply by hand cancels a pending trial; apply --mode=trial starts a new one
C=$d/c
mkdir -p "$C"
cp -a "$T/." "$C/"
expect_exit 0 "$SEINSTALL" apply --root "$C" --mode permissive --bootloader none
assert_contains "apply" "$OUT" "pending trial cancelled"
assert_contains "state" "$(cat "$C/$STATE")" "state=cancelled"
expect_exit 0 "$SEINSTALL" trial --root "$C" --log "$d/policy.log"
assert_contains "cancelled" "$OUT" "seinstall trial: cancelled at "
assert_eq "cancelled: config" "SELINUX=permissive" "$(grep '^SELINUX=' "$C/etc/selinux/config")"
expect_exit 0 "$SEINSTALL" apply --root "$C" --mode=trial --bootloader none --json
py 'assert d["trial"] is True and d["config_mode"] == "permissive", d' "apply --mode=trial"
assert_contains "state" "$(cat "$C/$STATE")" "state=pending"

# 6. usage: the target's trial needs the target's log; no trial, nothing to do
expect_exit 2 "$SEINSTALL" trial --root "$C"
assert_contains "no log" "$ERR" "--log FILE"
expect_exit 2 "$SEINSTALL" apply --root "$C" --mode=triall
N=$d/n
mkdir -p "$N/etc"
expect_exit 0 "$SEINSTALL" trial --root "$N" --log "$d/policy.log"
assert_contains "no trial" "$OUT" "no trial on this system"

# 7. the profile: --trial, and --trial with selinux --disabled
printf 'selinux --enforcing\n%%addon org_seinstall --trial\n%%end\n' >"$d/trial.ks"
expect_exit 0 "$SEINSTALL" profile "$d/trial.ks" --json
py 'assert d["mode"] == "enforcing" and d["trial"] is True and d["mode_source"] == "profile", d' "profile --trial"
printf 'selinux --disabled\n%%addon org_seinstall --trial\n%%end\n' >"$d/bad.ks"
expect_exit 2 "$SEINSTALL" profile "$d/bad.ks"
assert_contains "contradiction" "$ERR" "bad.ks:2: %addon org_seinstall --trial contradicts 'selinux --disabled' at $d/bad.ks:1"
expect_exit 0 "$SEINSTALL" profile "$TOP/profiles/trial.ks" --no-cmdline --json
py 'assert d["mode"] == "enforcing" and d["trial"] is True and d["mode_source"] == "profile", d' "profiles/trial.ks is a trial"
