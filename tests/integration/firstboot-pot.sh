#!/bin/bash
# `make pot` collects every string seinstall-firstboot shows a person: the screen's title, the
# three modes and their lines, the help, the confirmations, the messages of --status and --yes,
# and the words every subcommand of `seinstall` prints itself (the English formats of
# cli_error(), cli_usage_error() and the option errors included, plurals as plurals).
. "$(dirname "$0")/../lib.sh"

command -v xgettext >/dev/null || skip "xgettext is not installed (make deps: gettext)"
# make cannot take a path with a blank (a clone in "/tmp/my tree"): the build directory
# relative to the top, as the Makefile names it, when it is there.
make -s -C "$TOP" BUILD="${SEINSTALL_BUILD_DIR#"$TOP"/}" pot >/dev/null || fail "make pot failed"
pot=$SEINSTALL_BUILD_DIR/po/seinstall.pot
d_err=$(scratch_dir)/msgfmt.err
[ -s "$pot" ] || fail "make pot did not write $pot"
msgfmt --check-format -o /dev/null "$pot" 2>"$d_err" ||
        fail "$pot is not a valid catalog: $(cat "$d_err")"
for s in "SELinux on this system" "Enforcing" "Permissive" "Disabled" "Before applying" \
        "Help" "Cancel" "SELinux confines each program" "no terminal to show the screen on" \
        "Cancelled: nothing changed." "Next boot: %s (config: %s, policy: %s)." \
        "Accepted with warnings." "Policy: %s, read from %s (%s)" \
        "Dry run: nothing in the target was changed." "first boot:      done" \
        "--mode is required (or --regenerate alone)" "option --%s needs a value" \
        'msgid_plural "    denied { %s } to %s (%s), %u times' "Usage: seinstall COMMAND"; do
        grep -qF -- "$s" "$pot" || fail "'$s' is not in $pot: not marked with _()?"
        echo "ok: '$s' is in the template"
done
# Format strings are recognised as such, so translators' catalogs are checked against them.
grep -B1 -F 'msgid "Switches to %s at once. "' "$pot" | grep -q c-format ||
        fail "printf formats are not flagged c-format in $pot"
echo "ok: formats flagged c-format"
