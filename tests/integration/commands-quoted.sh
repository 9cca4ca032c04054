#!/bin/bash
# Every command seinstall prints for a person to run, pasted into bash as printed, acts on
# exactly the file and the tree meant: names with spaces, quotes, a newline, a backslash, a
# leading '-', an escape sequence and bytes that are not UTF-8, in a target root whose own name
# holds such characters. Stubs of chroot, restorecon and semodule on PATH record the argv they
# get; `seinstall verify --fix`, as verify prints it, is run for real and must fix that tree
# and no other. Human output shows a newline and a backslash followed by n differently.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
mkdir -p "$d/bin"
for p in chroot restorecon semodule; do
        printf '#!/bin/bash\nprintf "%%s\\0" "${0##*/}" "$@" >"%s/argv"\n' "$d" >"$d/bin/$p"
        chmod +x "$d/bin/$p"
done
# paste LINE: run one printed command line as a person would, with the stubs first on PATH
paste() {
        rm -f "$d/argv"
        printf '%s\n' "$1" | PATH="$d/bin:$(dirname "$SEINSTALL"):$PATH" bash ||
                fail "bash could not run the printed command: $1"
}
# assert_argv WHAT ARG...: the stub got exactly ARG... (byte for byte)
assert_argv() {
        local what=$1
        shift
        [ -f "$d/argv" ] || fail "$what: no stub ran"
        cmp -s "$d/argv" <(printf '%s\0' "$@") ||
                fail "$what: argv $(od -c "$d/argv" | head -5) expected $(printf '%s\0' "$@" | od -c | head -5)"
        echo "ok: $what: exactly the meant arguments"
}
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }

# a target root whose name needs quoting itself
R=$d/$'t r\'o"o\\t\nx'
make_target "$R"
names=(" sp ace" "q'uo\"te" $'new\nline' 'new\nline' "-lead" $'\xff\xfeb' $'esc\e[31m' 'back\' '$(id)`id`')

echo "== avc fixes, for the target (chroot ROOT restorecon -F PATH) and for / (restorecon -F PATH)"
for n in "${names[@]}"; do
        path=/srv/$n
        printf 'type=AVC msg=audit(1733270000.1:1): avc:  denied  { read } for  pid=1 comm="cat" path=%s dev="vda1" ino=5 scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=1\n' \
                "$(hex "$path")" >"$d/audit.log"
        for root in "$R" /; do
                expect_exit 0 "$SEINSTALL" avc --root "$root" --log "$d/audit.log"
                [ "$(printf '%s\n' "$OUT" | grep -c '^    fix: ')" = 1 ] || fail "one fix line expected: $OUT"
                cmd=$(printf '%s\n' "$OUT" | sed -n 's/^    fix: //p')
                paste "$cmd"
                if [ "$root" = / ]; then
                        assert_argv "avc fix for $(printf %q "$n")" restorecon -F "$path"
                else
                        assert_argv "avc fix for $(printf %q "$n") in the target" chroot "$R" restorecon -F "$path"
                fi
        done
done

echo "== human output: a newline and a backslash followed by n differ"
{
        for n in $'new\nline' 'new\nline'; do
                printf 'type=AVC msg=audit(1733270000.1:1): avc:  denied  { read } for  pid=1 comm="cat" path=%s dev="vda1" ino=5 scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=1\n' \
                        "$(hex "/srv/$n")"
        done
} >"$d/audit.log"
expect_exit 0 "$SEINSTALL" avc --root "$R" --log "$d/audit.log"
assert_contains "newline" "$OUT" '  /srv/new\nline'
assert_contains "backslash n" "$OUT" '  /srv/new\\nline'

echo "== verify's hint, run as printed: fixes that tree, and only that one"
mkdir -p "$d/t"
: >"$d/t/other"
: >"$R/srv-unlabeled"
expect_exit 1 "$SEINSTALL" verify --root "$R" --no-progress
cmd=$(printf '%s\n' "$OUT" | sed -n 's/^To write the expected labels, run: //p')
[ -n "$cmd" ] || fail "verify printed no command: $OUT"
case $cmd in *"--root "*) ;; *) fail "verify's command lacks --root: $cmd" ;; esac
paste "$cmd"
expect_exit 0 "$SEINSTALL" verify --root "$R" --no-progress
[ -n "$(label_of "$R/srv-unlabeled")" ] || fail "the printed verify --fix did not label the target"
[ -z "$(label_of "$d/t/other")" ] || fail "the printed command labeled a file outside the target"
echo "ok: the printed verify --fix acted on $(printf %q "$R") only"

echo "== an error's command: the policy build, for that tree"
mv "$R/etc/selinux/default/policy" "$d/policy.saved"
mkdir "$R/etc/selinux/default/policy"
expect_exit 3 "$SEINSTALL" relabel --root "$R" --dry-run --no-progress
[ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] || fail "the error is one line: $ERR"
cmd=${ERR##*from installed modules: }
paste "$cmd"
assert_argv "the error's semodule" semodule -p "$R" -n -B
expect_exit 3 "$SEINSTALL" relabel --root "$R" --dry-run --no-progress --json
python3 -c 'import json,sys; m=json.loads(sys.argv[1])["error"]["message"]; assert m.endswith(sys.argv[2]), m' \
        "$OUT" "$cmd" || fail "the JSON error's message does not end with the same command"
echo "ok: the JSON error carries the same command"
rm -r "$R/etc/selinux/default/policy"
mv "$d/policy.saved" "$R/etc/selinux/default/policy"
