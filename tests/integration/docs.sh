#!/bin/bash
# Man pages and bash completion follow the commands: every command `seinstall --help` lists
# has its section in seinstall(8), and every long option a command's --help prints is in the
# man page and offered by the completion for that command; the same for seinstall-firstboot.
# The completion is also driven as bash drives it.
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
                echo "note: seinstall $c is not built yet; its options are not compared"
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

if [ -x "$TOP/firstboot/seinstall-firstboot" ]; then
        help=$("$TOP/firstboot/seinstall-firstboot" --help 2>&1)
        offered=$(complete_words _seinstall_firstboot seinstall-firstboot --)
        # shellcheck disable=SC2013 # options are words
        for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
                [ "$o" = --help ] && continue
                grep -qF -- "$o" "$fbman" || problem "seinstall-firstboot $o is not in man/seinstall-firstboot.8"
                grep -qx -- "$o" <<<"$offered" || problem "the completion does not offer $o for seinstall-firstboot"
        done
        echo "ok: seinstall-firstboot: options documented and completed"
else
        echo "note: seinstall-firstboot is not built; its options are not compared"
fi

# Values: modes, boot loaders and policy types under the --root given.
t=$(mktemp -d)
on_exit "rm -rf '$t'"
mkdir -p "$t/etc/selinux/targeted/policy" "$t/etc/selinux/mls/policy"
assert_eq "completion of --mode" "$(printf 'enforcing\npermissive')" \
        "$(complete_words _seinstall seinstall apply --mode "" | grep -v disabled)"
assert_eq "completion of --bootloader g" grub "$(complete_words _seinstall seinstall apply --bootloader g)"
assert_eq "completion of --policy under --root" "$(printf 'mls\ntargeted')" \
        "$(complete_words _seinstall seinstall check --root "$t" --policy "" | sort)"
assert_eq "completion of seinstall-firstboot --mode p" permissive \
        "$(complete_words _seinstall_firstboot seinstall-firstboot --mode p)"

[ "$problems" = 0 ] || fail "$problems documentation problem(s), listed above"
