#!/bin/bash
# seinstall verify on a real target: this machine's /etc (with Debian's default policy),
# /var/lib and /usr/share/doc on a loop-mounted ext4, labeled by `seinstall relabel`. Then /etc/shadow is given a
# wrong label and a file is created under /var/lib after the relabel (no label at all, as on an
# installer without SELinux): verify names exactly those two and nothing else and exits 1,
# writes nothing; --fix fixes exactly those two and says so; a rerun is clean (exit 0). Usage
# errors exit 2, a target without a policy exits 3.
. "$(dirname "$0")/../lib.sh"
require_tool setfattr attr
require_tool getfattr attr
require_loop
FC=/etc/selinux/default/contexts/files/file_contexts
[ -r "$FC" ] || skip "no $FC (make deps installs selinux-policy-default)"

d=$(scratch_dir)
make_fs_image "$d/root.img" ext4 400
R=$d/root
mount_image "$d/root.img" "$R"
mkdir -p "$R/usr/share" "$R/var" "$R/tmp"
cp -a /etc "$R/" || fail "could not copy /etc into the target"
cp -a /var/lib "$R/var/" || fail "could not copy /var/lib into the target"
cp -a /usr/share/doc "$R/usr/share/" || fail "could not copy /usr/share/doc into the target"
mkdir -p "$R/var/lib/newpkg"
label() { getfattr --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0'; }
json_get() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

start=$(date +%s%N)
expect_exit 0 "$SEINSTALL" relabel --root "$R" --no-progress
t_relabel=$(seconds_since "$start")
entries=$(find "$R" -xdev | wc -l)
echo "target: $entries entries, relabel took $t_relabel s"

# 1. Clean: exit 0, nothing listed.
start=$(date +%s%N)
expect_exit 0 "$SEINSTALL" verify --root "$R" --json --no-progress
t_verify=$(seconds_since "$start")
echo "verify took $t_verify s (relabel of the same tree: $t_relabel s)"
assert_eq "mismatches on a freshly labeled target" 0 "$(echo "$OUT" | json_get 'j["mismatches"]')"
assert_eq "directories listed" 0 "$(echo "$OUT" | json_get 'len(j["directories"])')"
[ "$(echo "$OUT" | json_get 'j["entries"]')" -ge $((entries - 10)) ] ||
        fail "verify checked fewer entries than the target holds ($entries): $OUT"
expect_exit 0 "$SEINSTALL" verify --root "$R" --threads 1
assert_contains "clean text" "$OUT" "every label matches"

# 2. Two wrong labels, written after the relabel.
shadow_want=$(label "$R/etc/shadow")
wrong=system_u:object_r:etc_t:s0
[ "$shadow_want" != "$wrong" ] || fail "the policy gives /etc/shadow $wrong itself?"
setfattr -h -n security.selinux -v "$wrong" "$R/etc/shadow"
echo state >"$R/var/lib/newpkg/state" || fail "could not create a file in the target"
setfattr -h -x security.selinux "$R/var/lib/newpkg/state" 2>/dev/null
expect_exit 1 "$SEINSTALL" verify --root "$R" --json --no-progress
echo "$OUT" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["mismatches"] == 2 and j["fixed"] == 0 and j["clean"] is False, j
dirs = {d["path"]: d for d in j["directories"]}
assert sorted(dirs) == ["/etc", "/var/lib/newpkg"], sorted(dirs)
ex = sorted(e["path"] for d in j["directories"] for e in d["examples"])
assert ex == ["/etc/shadow", "/var/lib/newpkg/state"], ex
shadow = dirs["/etc"]["examples"][0]
assert shadow["label"] == sys.argv[1] and shadow["expected"] == sys.argv[2], shadow
state = dirs["/var/lib/newpkg"]["examples"][0]
assert state["label"] is None and state["expected"].startswith("system_u:object_r:"), state
print("ok: verify names exactly /etc/shadow (%s, expected %s) and /var/lib/newpkg/state (no label)"
      % (shadow["label"], shadow["expected"]))
' "$wrong" "$shadow_want" || fail "verify --json: $OUT"
assert_eq "label of /etc/shadow after a verify without --fix" "$wrong" "$(label "$R/etc/shadow")"
expect_exit 1 "$SEINSTALL" verify --root "$R"
assert_contains "text names /etc/shadow" "$OUT" "/etc/shadow: $wrong, expected $shadow_want"
assert_contains "text names the new file" "$OUT" "/var/lib/newpkg/state: no label, expected"
assert_contains "text says how to fix" "$OUT" "To write the expected labels, run: seinstall verify --root $R --fix"
[ "$(grep -c '^    /' <<<"$OUT")" = 2 ] || fail "verify listed more than the two files: $OUT"

# 3. --fix: exactly those two, said so; then clean.
expect_exit 0 "$SEINSTALL" verify --root "$R" --fix
assert_contains "--fix says what it fixed" "$OUT" "2 labels differed from the file contexts, 2 fixed"
assert_contains "--fix names /etc/shadow" "$OUT" "fixed /etc/shadow: $wrong, now $shadow_want"
assert_contains "--fix names the new file" "$OUT" "fixed /var/lib/newpkg/state: no label, now"
assert_eq "label of /etc/shadow after --fix" "$shadow_want" "$(label "$R/etc/shadow")"
expect_exit 0 "$SEINSTALL" verify --root "$R" --json --no-progress
assert_eq "mismatches after --fix" 0 "$(echo "$OUT" | json_get 'j["mismatches"]')"

# --progress: the one progress line the walking commands share, named after the command,
# drawn at least once (the walk reports when it ends); stdout keeps only the summary.
expect_exit 0 "$SEINSTALL" verify --root "$R" --progress
grep -Eq $'seinstall: verify: [0-9]+ (of ~[0-9]+ )?entries, [0-9]+/s' <<<"$ERR" ||
        fail "verify --progress drew no progress line: $ERR"
case $OUT in *$'\e'*) fail "the progress line reached stdout: $OUT" ;; esac
expect_exit 0 "$SEINSTALL" relabel --root "$R" --dry-run --progress
grep -Eq $'seinstall: relabel: [0-9]+ (of ~[0-9]+ )?entries, [0-9]+/s' <<<"$ERR" ||
        fail "relabel --progress drew no progress line: $ERR"
echo "ok: verify and relabel draw the shared progress line on stderr"

# 4. Exit statuses of usage errors and a target without a policy.
expect_exit 2 "$SEINSTALL" verify --root "$R" --bogus
expect_exit 2 "$SEINSTALL" verify --root "$R" extra
e=$d/empty
mkdir -p "$e/etc"
expect_exit 3 "$SEINSTALL" verify --root "$e"
assert_contains "no policy" "$ERR" "policy"
echo "ok: verify-cli"
