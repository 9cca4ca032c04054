#!/bin/bash
# Man pages and bash completion follow the commands: every command `seinstall --help` lists
# has its section in seinstall(8), and every long option a command's --help prints is in the
# man page and offered by the completion for that command; the same for seinstall-firstboot.
# The completion is also driven as bash drives it. seinstall(8) lists every errno of the one
# exit status table (exit-status.c) and documents the JSON error document; check's human output is
# what seinstall(8) says (an ok mount is one line, --verbose explains every mount). A command
# or tool that is not built fails the test: there is nothing to skip in a built tree.
. "$(dirname "$0")/../lib.sh"

# The pages as text to search: roff's \- is a plain hyphen here.
man8=$(mktemp)
fbman=$(mktemp)
on_exit "rm -f '$man8' '$fbman'"
sed 's/\\-/-/g' "$TOP/man/seinstall.8" >"$man8"
sed 's/\\-/-/g' "$TOP/man/seinstall-firstboot.8" >"$fbman"
comp=$TOP/completion/seinstall
problems=0
problem() {
        echo "DOCS: $*" >&2
        problems=$((problems + 1))
}

# Options the completion offers for COMMAND, as bash computes them.
complete_words() { # COMMAND-NAME WORDS...
        local fn=$1
        shift
        bash -c '. "$1"; shift; fn=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); $fn; printf "%s\n" "${COMPREPLY[@]}"' \
                _ "$comp" "$fn" "$@"
}

commands=$("$SEINSTALL" --help | awk '/^Commands:/ {c = 1; next} c && NF == 0 {c = 0} c {print $1}')
[ -n "$commands" ] || fail "seinstall --help lists no commands"
top=$(complete_words _seinstall seinstall "")
for c in $commands; do
        grep -q "^\.SS $c\$" "$man8" || problem "seinstall $c has no '.SS $c' section in man/seinstall.8"
        grep -qx "$c" <<<"$top" || problem "the completion does not offer the command $c"
        help=$("$SEINSTALL" "$c" --help 2>&1)
        case $help in *"not built yet"*)
                problem "seinstall $c is listed by --help but not built: '$help'"
                continue
                ;;
        esac
        offered=$(complete_words _seinstall seinstall "$c" --)
        # shellcheck disable=SC2013 # options are words
        for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
                [ "$o" = --help ] && continue
                grep -qF -- "$o" "$man8" || problem "seinstall $c $o is not in man/seinstall.8"
                grep -qx -- "$o" <<<"$offered" || problem "the completion does not offer $o for seinstall $c"
        done
        echo "ok: seinstall $c: options documented and completed"
done

[ -x "$SEINSTALL_FIRSTBOOT" ] || fail "$SEINSTALL_FIRSTBOOT is not built (make all)"
help=$("$SEINSTALL_FIRSTBOOT" --help 2>&1)
offered=$(complete_words _seinstall_firstboot seinstall-firstboot --)
# shellcheck disable=SC2013 # options are words
for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
        [ "$o" = --help ] && continue
        grep -qF -- "$o" "$fbman" || problem "seinstall-firstboot $o is not in man/seinstall-firstboot.8"
        grep -qx -- "$o" <<<"$offered" || problem "the completion does not offer $o for seinstall-firstboot"
done
echo "ok: seinstall-firstboot: options documented and completed"

# Exit status: each errno exit-status.c maps to 2 is named in EXIT STATUS, and the JSON error document
# is described under JSON OUTPUT.
exit_section=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man8")
usage_errnos=$(sed -n '/^static const int usage_errnos\[\]/,/^};/p' "$TOP/installer-plugin/lib/exit-status.c" |
        grep -o 'E[A-Z0-9]*')
[ -n "$usage_errnos" ] || fail "no usage_errnos table found in installer-plugin/lib/exit-status.c"
for e in $usage_errnos; do
        grep -qw -- "$e" <<<"$exit_section" || problem "$e (exit status 2 in exit-status.c) is not in EXIT STATUS of man/seinstall.8"
done
echo "ok: EXIT STATUS names the errnos of exit status 2:" $usage_errnos
json_section=$(sed -n '/^\.SH JSON OUTPUT/,/^\.SH /p' "$man8")
for k in '"error"' '"message"' '"errno"' '"exit"' '"schema"' '.B warnings' U+FFFD .B\ _hex docs/schema/; do
        grep -qF -- "$k" <<<"$json_section" || problem "JSON OUTPUT of man/seinstall.8 does not describe $k"
done
# each of seinstall's own error codes (seinstall.h) is named there, as --json's errno says it
own_errors=$(sed -n '/^enum seinstall_error {/,/^};/p' "$TOP/installer-plugin/include/seinstall.h" |
        grep -o 'SEINSTALL_ERROR_[A-Z_]*' | sort -u)
[ -n "$own_errors" ] || fail "no enum seinstall_error in installer-plugin/include/seinstall.h"
for e in $own_errors; do
        grep -qF -- "$e" <<<"$json_section" || problem "JSON OUTPUT of man/seinstall.8 does not name $e (seinstall.h)"
done
# each document kind with a schema is named there, and each schema names its kind
for f in "$TOP"/docs/schema/*.json; do
        kind=$(basename "$f" .json)
        [ "$kind" = common ] && continue
        grep -qx -- "\.BR\? $kind\( ,\)\?" <<<"$json_section" || problem "JSON OUTPUT of man/seinstall.8 does not name the kind $kind"
        grep -qF -- "\"seinstall.$kind/1\"" "$f" || problem "$f does not say \"schema\": \"seinstall.$kind/1\""
done
echo "ok: JSON OUTPUT describes the schema key, warnings, the error document, the escaping and every kind"

# Values: modes, boot loaders and policy types under the --root given.
t=$(mktemp -d)
on_exit "rm -rf '$t'"
mkdir -p "$t/etc/selinux/targeted/policy" "$t/etc/selinux/mls/policy"
assert_eq "completion of --mode" "$(printf 'enforcing\npermissive\ntrial')" \
        "$(complete_words _seinstall seinstall apply --mode "" | grep -v disabled)"
assert_eq "completion of --bootloader g" grub "$(complete_words _seinstall seinstall apply --bootloader g)"
assert_eq "completion of --policy under --root" "$(printf 'mls\ntargeted')" \
        "$(complete_words _seinstall seinstall check --root "$t" --policy "" | sort)"
assert_eq "completion of seinstall-firstboot --mode p" permissive \
        "$(complete_words _seinstall_firstboot seinstall-firstboot --mode p)"

# check in human form: an ok mount is its table line alone; a mount that warns is explained;
# --verbose explains the ok ones too, as seinstall(8) says.
grep -q "mount is its line of the table alone" "$man8" ||
        problem "man/seinstall.8 does not say that an ok mount is one line"
printf '/dev/vda2 / ext4 defaults 0 1\n/dev/vda3 /data nilfs2 defaults 0 0\n' >"$t/plan"
OUT=$("$SEINSTALL" check --root "$t" --plan "$t/plan" --mode permissive 2>&1) ||
        fail "seinstall check on a plan: $OUT"
grep -q '^/data .* warn$' <<<"$OUT" || problem "check: no table line for /data: $OUT"
grep -q '^/ .* ok$' <<<"$OUT" || problem "check: no table line for /: $OUT"
grep -q '^warn /data: ' <<<"$OUT" || problem "check: the warning about /data is not explained: $OUT"
! grep -q '^ok /: ' <<<"$OUT" || problem "check explains an ok mount without --verbose: $OUT"
echo "ok: check explains only the mount that warns"
VOUT=$("$SEINSTALL" check --root "$t" --plan "$t/plan" --mode permissive --verbose 2>&1) &&
        grep -q '^ok /: ' <<<"$VOUT" && grep -q '^warn /data: ' <<<"$VOUT" ||
        problem "check --verbose does not explain every mount: $VOUT"
echo "ok: check --verbose explains every mount"

[ "$problems" = 0 ] || fail "$problems documentation problem(s), listed above"
