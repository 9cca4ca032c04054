#!/bin/bash
# Every subcommand's --help lists each option it takes on a line of its own ("  --NAME ...",
# with what it does), and fits in 80 columns (issue 34, item 8). The options are every long
# option of the command line's tables (installer-plugin/cli/); whether a command takes one is
# asked of the command itself: "--NAME=x --help" is refused as unknown only when it does not.
. "$(dirname "$0")/../lib.sh"

options=$(grep -ho '{"[a-z][a-z-]*", *\(no\|required\)_argument' "$TOP"/installer-plugin/cli/*.c |
        sed 's/{"\([^"]*\)".*/\1/' | sort -u)
[ "$(wc -w <<<"$options")" -gt 20 ] || fail "found only these options in installer-plugin/cli: $options"
commands=$("$SEINSTALL" --help | awk '/^Commands:/ {c = 1; next} c && NF == 0 {c = 0} c {print $1}')
[ "$(wc -w <<<"$commands")" -ge 9 ] || fail "seinstall --help lists only: $commands"

problems=0
problem() {
        echo "HELP: $*" >&2
        problems=$((problems + 1))
}
long=$("$SEINSTALL" --help | awk 'length($0) > 80')
[ -z "$long" ] || problem "seinstall --help has lines over 80 columns: $long"
for c in $commands; do
        help=$("$SEINSTALL" "$c" --help) || problem "seinstall $c --help failed"
        long=$(awk 'length($0) > 80' <<<"$help")
        [ -z "$long" ] || problem "seinstall $c --help has lines over 80 columns: $long"
        n=0
        for o in $options; do
                err=$("$SEINSTALL" "$c" "--$o=x" --help 2>&1 >/dev/null)
                case $err in *"unknown option"*) continue ;; esac
                case $o in help | version) continue ;; esac
                n=$((n + 1))
                grep -Eq -- "^ +--$o( |$)" <<<"$help" ||
                        problem "seinstall $c takes --$o but its --help has no line '  --$o  what it does'"
        done
        echo "ok: seinstall $c --help: $n options, each on a line of its own, within 80 columns"
done
[ "$problems" = 0 ] || fail "$problems --help problem(s), listed above"
