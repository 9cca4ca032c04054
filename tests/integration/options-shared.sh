#!/bin/bash
# The options several commands take are read by one parser (cli/opts.c): a bad value gets the
# same words and exit 2 from every command that takes the option, seinstall-firstboot included,
# with nothing on stdout (with --json: one error document carrying the same message); options
# that exclude each other are refused in one wording; the target is left untouched.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

d=$(scratch_dir)
T=$d/target
mkdir -p "$T"
: >"$d/fc"

# usage_line CMD...: run it, expect exit 2 and empty stdout; $MSG: its own message (the line
# before "Try '... --help'.") without the "PROGRAM COMMAND: " prefix
usage_line() {
        expect_exit 2 "$@"
        [ -z "$OUT" ] || fail "'$*' printed on stdout: $OUT"
        # one line saying what is wrong, one pointing to --help: nothing else (no usage, no
        # getopt_long()'s own message beside seinstall's)
        [ "$(printf '%s\n' "$ERR" | wc -l)" = 2 ] || fail "'$*' printed more than two lines: $ERR"
        case $ERR in
        *"Try '"*" --help'."*) ;;
        *) fail "'$*' does not point to --help: $ERR" ;;
        esac
        MSG=$(printf '%s\n' "$ERR" | grep -v "^Try '" | tail -n1)
        MSG=${MSG#*: }
}

# same WANT CMD1 -- CMD2 -- ...: every command says WANT (after its own prefix)
same() {
        local want=$1 cmd=()
        shift
        for a in "$@" --; do
                if [ "$a" = -- ]; then
                        usage_line "${cmd[@]}"
                        assert_eq "message of '${cmd[*]}'" "$want" "$MSG"
                        cmd=()
                else
                        cmd+=("$a")
                fi
        done
}

echo "== --threads: relabel, verify and install word a bad value alike"
for v in 0 1025 abc -1; do
        same "invalid --threads '$v': use a number from 1 to 1024" \
                "$SEINSTALL" relabel --root "$T" --threads "$v" -- \
                "$SEINSTALL" verify --root "$T" --threads "$v" -- \
                "$SEINSTALL" install --root "$T" --no-cmdline --threads "$v"
done
for c in relabel verify; do
        expect_exit 2 "$SEINSTALL" "$c" --root "$T" --threads 0 --json
        assert_json_error 2
        msg=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["error"]["message"])')
        assert_eq "$c --json error message" "invalid --threads '0': use a number from 1 to 1024" "$msg"
done
# a good value is taken: verify goes on to the target (which has no policy: exit 3, not 2)
expect_exit 3 "$SEINSTALL" verify --root "$T" --threads 2 --no-progress
assert_contains "verify --threads 2 reached the target" "$ERR" "No SELinux policy of type"

echo "== --mode: check, apply, install and seinstall-firstboot"
want="invalid --mode 'enforce': use enforcing, permissive, disabled or trial"
same "$want" "$SEINSTALL" check --root "$T" --mode enforce -- \
        "$SEINSTALL" apply --root "$T" --mode enforce -- \
        "$SEINSTALL" install --root "$T" --no-cmdline --mode enforce
if [ -x "$SEINSTALL_FIRSTBOOT" ]; then
        same "$want" "$SEINSTALL_FIRSTBOOT" --root "$T" --mode enforce --yes
        same "--yes and --status exclude each other" "$SEINSTALL_FIRSTBOOT" --root "$T" --yes --status
        # what getopt refused is worded by seinstall-firstboot as by seinstall, in one line
        same "unknown option '--threads'" "$SEINSTALL_FIRSTBOOT" --root "$T" --threads 2 -- \
                "$SEINSTALL" status --root "$T" --threads 2
        usage_line "$SEINSTALL_FIRSTBOOT" --root "$T" --status --timeout
        assert_eq "seinstall-firstboot --timeout" "option --timeout needs a value" "$MSG"
        assert_eq "its prefix" "seinstall-firstboot: option --timeout needs a value" \
                "$(printf '%s\n' "$ERR" | grep -v "^Try '" | tail -n1)"
else
        echo "note: no seinstall-firstboot in this build (WITH_FIRSTBOOT=0)"
fi

echo "== --policy: a policy type, never a path, in every command that takes one"
same "invalid --policy '../etc': use a policy type, a directory name under /etc/selinux" \
        "$SEINSTALL" check --root "$T" --policy ../etc -- \
        "$SEINSTALL" relabel --root "$T" --policy ../etc -- \
        "$SEINSTALL" apply --root "$T" --mode enforcing --policy ../etc -- \
        "$SEINSTALL" install --root "$T" --no-cmdline --policy ../etc

echo "== --unsupported: check and install"
same "invalid --unsupported 'maybe': use refuse or warn" \
        "$SEINSTALL" check --root "$T" --unsupported maybe -- \
        "$SEINSTALL" install --root "$T" --no-cmdline --unsupported maybe

echo "== options that exclude each other: one wording"
same "--policy and --file-contexts exclude each other" \
        "$SEINSTALL" relabel --root "$T" --file-contexts "$d/fc" --policy default
same "--relabel and --labeled exclude each other" \
        "$SEINSTALL" apply --root "$T" --mode enforcing --labeled --relabel
same "--cmdline and --no-cmdline exclude each other" \
        "$SEINSTALL" install --root "$T" --cmdline "$d/fc" --no-cmdline -- \
        "$SEINSTALL" profile "$d/fc" --no-cmdline --cmdline "$d/fc"

echo "== a shared option a command does not take is unknown there"
usage_line "$SEINSTALL" status --root "$T" --threads 2
assert_eq "status --threads" "unknown option '--threads'" "$MSG"
expect_exit 2 "$SEINSTALL" status --root "$T" --threads 2 --json
assert_json_error 2
msg=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["error"]["message"])')
assert_eq "status --threads --json error message" "unknown option '--threads'" "$msg"

echo "== a missing value is said as such, not as an unknown option"
for c in relabel verify; do
        usage_line "$SEINSTALL" "$c" --root "$T" --threads
        assert_eq "$c --threads" "option --threads needs a value" "$MSG"
done
# --json before it: the document's message says the same
expect_exit 2 "$SEINSTALL" relabel --root "$T" --json --threads
assert_json_error 2
msg=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["error"]["message"])')
assert_eq "relabel --threads --json error message" "option --threads needs a value" "$msg"
usage_line "$SEINSTALL" relabel --root "$T" --dry-run=yes
assert_eq "relabel --dry-run=yes" "option --dry-run takes no value" "$MSG"

echo "== nothing was written into the target"
[ -z "$(ls -A "$T")" ] || fail "the target changed: $(find "$T")"
echo "ok: the target is still empty"
echo "PASS"

echo "== an unknown command: one line and the hint to --help, no usage"
usage_line "$SEINSTALL" frobnicate
assert_eq "seinstall frobnicate" "unknown command 'frobnicate'" "$MSG"
usage_line "$SEINSTALL"
assert_eq "seinstall alone" "no command given" "$MSG"
