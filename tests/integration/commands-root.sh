#!/bin/bash
# Every command seinstall and seinstall-firstboot print for a person to run names the same
# --root the run was given, so that pasting it never acts on the installer's own / (issue 34,
# item 6). Two halves: every C string of installer-plugin/ and firstboot/ that spells a
# `seinstall COMMAND` or `seinstall-firstboot` command builds it with "%r" (shell_command(),
# cli_command()), unless it is listed below with why it may not; and the paths that print one
# are run with --root DIR, each printed command checked.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

python3 - "$TOP" <<'PY' || fail "a printed command does not name --root (see above)"
import re, sys, pathlib
top = pathlib.Path(sys.argv[1])
# (file, text): strings that spell a command without "%r", and why that is right
allowed = {
    ("installer-plugin/cli/main.c", "seinstall COMMAND"): "the usage text",
    ("installer-plugin/cli/cmd-profile.c", "'seinstall check --plan'"): "usage text",
    ("installer-plugin/lib/apply.c", "'seinstall trial' on the installed system"): "runs on the installed system, whose root is /",
    ("installer-plugin/lib/apply.c", "(or seinstall apply --regenerate)"): "printed only when the root is /",
    ("installer-plugin/lib/bootmenu.c", "or seinstall apply --regenerate"): "printed only when the root is /",
    ("installer-plugin/lib/apply.c", "(seinstall install also builds"): "names the command, not a command line to paste",
    ("firstboot/text.c", "'seinstall status'"): "the screen's help, on the installed system",
    ("installer-plugin/lib/trial-state.c", "'seinstall status' shows it"): "a comment written into the state file of the installed system",
}
subs = "check|relabel|apply|install|profile|status|avc|verify|trial"
cmd = re.compile(r"seinstall(?:-firstboot(?![.\w-])| (?:%s)\b)" % subs)
lit = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*')
comment = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
bad = 0
for path in sorted(list((top / "installer-plugin").rglob("*.c")) + list((top / "firstboot").glob("*.c"))):
    rel = str(path.relative_to(top))
    src = comment.sub(" ", path.read_text())
    # a usage() function's text is a synopsis, not a command to paste
    src = re.sub(r"static void usage\(FILE \*f\)\n\{.*?\n\}\n", "", src, flags=re.S)
    for m in lit.finditer(src):
        text = re.sub(r'"\s*"', "", m.group(0))[1:-1]
        for c in cmd.finditer(text):
            end = c.end()
            # "%r" follows: the root option; ":" follows: a message's prefix; the whole string:
            # the program's name
            if text.startswith("%r", end) or re.match(r"(%s)?:", text[end:]) or text == c.group(0):
                continue
            if any(f == rel and t in text for (f, t) in allowed):
                continue
            line = src.count("\n", 0, m.start()) + 1
            print(f"{rel}:{line}: prints '{text[c.start():c.start() + 50]}' without %r (the --root of the run)")
            bad += 1
print(f"ok: every printed seinstall command in the sources names the run's --root ({len(allowed)} allowed exceptions, each with its reason)" if not bad else "")
sys.exit(1 if bad else 0)
PY

# check_commands WHAT TEXT: every "seinstall..." command in TEXT names --root $T
T=$(scratch_dir)
check_commands() {
        local all bad text
        # what runs on the installed system itself names no root (the static half's list)
        text=$(sed "s/'seinstall trial' on the installed system//" <<<"$2")
        # a command: "seinstall SUBCOMMAND" or "seinstall-firstboot", not a path (/var/lib/seinstall/)
        all=$(grep -oE "(^|[ '(])seinstall(-firstboot| (check|relabel|apply|install|profile|status|avc|verify|trial))( [^ ']+){0,2}" <<<"$text")
        [ -n "$all" ] || fail "$1 prints no seinstall command at all: $2"
        bad=$(grep -v -- "seinstall[-a-z]*\( [a-z]*\)\? --root $T" <<<"$all" || true)
        [ -z "$bad" ] || fail "$1 prints a command without --root $T: $bad"
        echo "ok: $1: every printed command names --root $T ($(wc -l <<<"$all"))"
}
mkdir -p "$T/boot/grub" "$T/etc/default" "$T/etc/selinux/default/policy"
printf 'CONFIG_SECURITY_SELINUX=y\nCONFIG_LSM="landlock,lockdown,yama,apparmor,selinux"\n' \
        >"$T/boot/config-6.1.0-13-amd64"
: >"$T/etc/selinux/default/policy/policy.33"
printf 'GRUB_CMDLINE_LINUX=""\n' >"$T/etc/default/grub"
printf "menuentry 'Debian' {\n\tlinux /vmlinuz ro quiet\n}\n" >"$T/boot/grub/grub.cfg"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing
check_commands "apply (relabel pending)" "$OUT"
expect_exit 0 "$SEINSTALL" status --root "$T"
check_commands "status (the menu lags)" "$OUT"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode trial
check_commands "apply --mode trial" "$OUT"
echo "garbage" >"$T/var/lib/seinstall/trial" 2>/dev/null || {
        mkdir -p "$T/var/lib/seinstall"
        echo "garbage" >"$T/var/lib/seinstall/trial"
}
OUT=$("$SEINSTALL" status --root "$T" 2>&1) || true
check_commands "status (a trial state seinstall did not write)" "$OUT"
