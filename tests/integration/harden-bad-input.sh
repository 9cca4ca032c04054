#!/bin/bash
# Bad input through the command line, for every input file (plan, profile, kernel command line,
# file contexts) and the target's own config and GRUB defaults: lines of megabytes, NUL bytes,
# invalid UTF-8, paths beyond PATH_MAX, empty files, directories, numbers out of range. Each is
# exit 2 naming the file (and line where there is one), or accepted where the format allows
# it; never a crash (exit > 3) or a hang (each run is limited to 30 s).
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

d=$(scratch_dir)
cd "$d" || fail "cd $d"
mkdir -p root dir

# run EXPECTED CMD...: like expect_exit, under a timeout; 124 is a hang.
run() {
        local want=$1 rc
        shift
        OUT=$(timeout 30 "$SEINSTALL" "$@" 2>"$d/err") && rc=0 || rc=$?
        ERR=$(cat "$d/err")
        [ "$rc" != 124 ] || fail "'seinstall $*' hung (killed after 30 s)"
        [ "$rc" -le 3 ] || fail "'seinstall $*' crashed (exit $rc): $ERR"
        [ "$rc" = "$want" ] || fail "'seinstall $* ' exited $rc, expected $want; stderr: $ERR"
        echo "ok: seinstall $(echo "$*" | cut -c1-80) -> exit $rc"
}
# where FILE[:LINE]: the last message names it.
where() {
        assert_contains "message" "$ERR" "$1"
}

python3 - <<'PY' || fail "python3 is needed to write the inputs"
def w(name, data): open(name, 'wb').write(data)
big = b'x' * (2 << 20)
w('bigline', big + b'\n')
w('big.ks', b'selinux --permissive ' + big + b'\n')
w('big.cmd', b'quiet seinstall.mode=' + big + b'\n')
w('big.fc', b'/.* system_u:object_r:default_t:s0\n/' + big + b' system_u:object_r:etc_t:s0\n')
w('nul.plan', b'/dev/vda1 / ext4 defaults 0 1\n/dev/vda2 /h\x00ome ext4 defaults 0 2\n')
w('nul.ks', b'selinux --permissive\n\x00\n')
w('nul.cmd', b'quiet\x00 selinux=0\n')
w('nul.fc', b'/.* system_u:object_r:default_t:s0\n/etc(/.*)? system_u:object_r:etc_t:s0\x00\n')
w('utf-comment.plan', b'# caf\xe9 \xff\n/dev/vda1 / ext4 defaults 0 1\n')
w('utf.ks', b'# \xff\xfe comment\nselinux --enforc\xc3\x28\n')
w('utf.cmd', b'quiet seinstall.mode=\xff\xfe\n')
w('utf.fc', b'/\xff(/.*)? system_u:object_r:etc_t:s0\n')
w('num.plan', b'/dev/vda1 / ext4 defaults 99999999999999999999999 -5\n')
w('longmp.plan', b'/dev/vda1 /' + b'a/' * 3000 + b' ext4 defaults 0 1\n')
w('longline.plan', b'/dev/vda1 / ext4 ' + b'o,' * (1 << 20) + b'x 0 1\n')
w('badre.fc', b'/.* system_u:object_r:default_t:s0\n/etc(/.*? system_u:object_r:etc_t:s0\n')
w('badtype.fc', b'/.* -x system_u:object_r:default_t:s0\n')
w('fields.fc', b'/.* system_u:object_r:default_t:s0\n/etc -- a b c\n')
w('empty', b'')
w('good.ks', b'selinux --permissive\n')
PY
long=/$(head -c 5000 /dev/zero | tr '\0' a)

echo "== plans (seinstall check --plan)"
run 2 check --root root --plan bigline
where bigline
run 2 check --root root --plan longline.plan
where longline.plan
run 2 check --root root --plan nul.plan
where nul.plan
run 0 check --root root --plan utf-comment.plan --json
python3 -c 'import json,sys; json.loads(sys.argv[1])' "$OUT" || fail "--json output is not JSON: $OUT"
run 2 check --root root --plan num.plan
where num.plan:1
run 2 check --root root --plan longmp.plan
where longmp.plan:1
run 2 check --root root --plan empty
where empty
run 2 check --root root --plan dir
where dir
run 2 check --root root --plan "$long"

echo "== profiles (seinstall profile FILE)"
run 2 profile big.ks --no-cmdline
where big.ks:1
run 2 profile nul.ks --no-cmdline
where nul.ks:2
run 2 profile utf.ks --no-cmdline
where utf.ks:1   # pykickstart decodes the whole file: the comment on line 1 is already refused
run 0 profile empty --no-cmdline
run 2 profile dir --no-cmdline
where dir
run 2 profile "$long" --no-cmdline

echo "== kernel command lines (seinstall profile --cmdline FILE)"
run 2 profile good.ks --cmdline bigline
where bigline
run 2 profile good.ks --cmdline big.cmd
where big.cmd
run 2 profile good.ks --cmdline nul.cmd
where nul.cmd
run 2 profile good.ks --cmdline utf.cmd
where utf.cmd
run 0 profile good.ks --cmdline empty
run 2 profile good.ks --cmdline dir
run 2 profile good.ks --cmdline "$long"

echo "== file contexts (seinstall relabel --file-contexts FILE)"
mkdir -p root/etc/selinux/default/policy
if ls /etc/selinux/default/policy/policy.* >/dev/null 2>&1; then
        cp /etc/selinux/default/policy/policy.* root/etc/selinux/default/policy/
        run 2 relabel --root root --dry-run --file-contexts bigline
        where bigline:1
        run 2 relabel --root root --dry-run --file-contexts nul.fc
        where nul.fc:2
        run 2 relabel --root root --dry-run --file-contexts badre.fc
        where badre.fc:2
        run 2 relabel --root root --dry-run --file-contexts badtype.fc
        where badtype.fc:1
        run 2 relabel --root root --dry-run --file-contexts fields.fc
        where fields.fc:2
        run 2 relabel --root root --dry-run --file-contexts dir
        run 2 relabel --root root --dry-run --file-contexts "$long"
        run 2 relabel --root root --dry-run --threads 99999999999999999999 --file-contexts empty
        # a megabyte regex compiles or is refused, but never hangs
        OUT=$(timeout 60 "$SEINSTALL" relabel --root root --dry-run --file-contexts big.fc 2>&1) && rc=0 || rc=$?
        [ "$rc" = 0 ] || [ "$rc" = 2 ] || fail "a 2 MB regex: exit $rc: $OUT"
        echo "ok: a 2 MB regular expression: exit $rc"
        # invalid UTF-8 in a regex is a regex like any other
        run 0 relabel --root root --dry-run --file-contexts utf.fc --json
        python3 -c 'import json,sys; json.loads(sys.argv[1])' "$OUT" || fail "--json output is not JSON: $OUT"
else
        echo "note: no host policy (selinux-policy-default): file contexts cases left out"
fi

echo "== the target's own files (seinstall apply)"
mkdir -p t/etc/selinux/default/policy t/etc/default
: >t/etc/selinux/default/policy/policy.33
printf '# comment\n\0junk\nSELINUX=disabled\nSELINUXTYPE=default\nKEEP=1\n' >t/etc/selinux/config
cp t/etc/selinux/config config.before
run 2 apply --root t --mode permissive --bootloader none
where /etc/selinux/config:2
cmp -s t/etc/selinux/config config.before || fail "a config with a NUL byte was rewritten"
printf 'SELINUX=disabled\nSELINUXTYPE=default\n' >t/etc/selinux/config
printf 'GRUB_CMDLINE_LINUX=a"b c"\n' >t/etc/default/grub
cp t/etc/default/grub grub.before
run 2 apply --root t --mode enforcing --bootloader grub
where /etc/default/grub
cmp -s t/etc/default/grub grub.before || fail "a GRUB line seinstall cannot edit was rewritten"
printf 'GRUB_CMDLINE_LINUX="quiet\0"\n' >t/etc/default/grub
run 2 apply --root t --mode enforcing --bootloader grub
where /etc/default/grub
rm t/etc/default/grub
mkdir t/etc/default/grub
run 2 apply --root t --mode enforcing --bootloader grub
