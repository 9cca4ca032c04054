#!/bin/bash
# The library's own words in the locale's language (po/libseinstall/de.po, fr.po): the
# catalogs pass msgfmt -c and translate every message of the template make writes
# ($BUILD/po/libseinstall.pot); the template has the formats of the library's reporting calls;
# and the commands use them: check's reasons and fixes, a library error and apply's to-do
# under de_DE.UTF-8 and fr_FR.UTF-8 come in that language, with no English left of them, while
# --json prints the same document and the same English error as the C locale; and
# seinstall-firstboot --yes prints the library's changes and to-dos in German.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
. "$(dirname "$0")/../l10n-lib.sh"

command -v msgcmp >/dev/null || skip "msgcmp is not installed (make deps: gettext)"
command -v gettext >/dev/null || skip "gettext is not installed (make deps: gettext)"
d=$(scratch_dir)

# ---- the catalogs -----------------------------------------------------------------------
make -s -C "$TOP" BUILD="$SEINSTALL_BUILD_DIR" pot >/dev/null || fail "make pot failed"
pot=$SEINSTALL_BUILD_DIR/po/libseinstall.pot
catalogs_match "$pot" po/libseinstall/de.po po/libseinstall/fr.po
# The template has what each kind of reporting call says (si_error, si_error_run, si_warn, a
# check's reason, an apply to-do, a walk's error): a keyword lost from the Makefile fails here.
for id in "No SELinux policy of type '%s' in the target %s: %s%s is missing; install %s in" \
        "Could not read the plan %s: %s" \
        "the %s policy does not name %s (no fs_use or genfscon statement), so every file reads %s" \
        "it holds the system or people's data, which needs a label per file" \
        "No boot loader configuration found in the target (/etc/default/grub, loader entries, " \
        "Could not set the label %s on %s%s: %s"; do
        msgcat --no-wrap "$pot" | grep -F "msgid \"$id" >/dev/null || fail "the template lacks \"$id...\""
done
echo "ok: the template has the library's errors, warnings, reasons, to-dos and walk errors"

# ---- the words, used --------------------------------------------------------------------
use_locales "$d" de_DE.UTF-8 fr_FR.UTF-8
for l in de fr; do
        [ -s "$SEINSTALL_LOCALEDIR/$l/LC_MESSAGES/libseinstall.mo" ] ||
                fail "the build did not make $SEINSTALL_LOCALEDIR/$l/LC_MESSAGES/libseinstall.mo"
done
# tr LOCALE MSGID: the catalog's translation of MSGID, which must differ from it
tr_of() {
        local t
        t=$(env -u LANGUAGE LC_ALL="$1" TEXTDOMAINDIR="$SEINSTALL_LOCALEDIR" gettext -d libseinstall -- "$2")
        if [ -z "$t" ] || [ "$t" = "$2" ]; then
                fail "$1: the catalog leaves \"$2\" as it is"
        fi
        printf '%s' "$t"
}
# run LOCALE ARGS...: seinstall ARGS in LOCALE, its output in OUT, ERR; exit status expected
run() {
        local want=$1 loc=$2
        shift 2
        expect_exit "$want" env -u LANGUAGE LANG="$loc" LC_ALL="$loc" "$SEINSTALL" "$@"
}
# assert_words WHAT TEXT WANT: TEXT has WANT's words in order, whatever the line breaks
assert_words() {
        local text want
        text=$(printf '%s' "$2" | tr -s ' \n' '  ')
        want=$(printf '%s' "$3" | tr -s ' \n' '  ')
        [[ $text == *"$want"* ]] || fail "$1: no \"$want\" in:
$2"
}
# prefix FORMAT: what FORMAT prints before its first directive
prefix() { printf '%s' "${1%%%*}"; }

mkdir -p "$d/target/etc/selinux"
printf '/dev/vda1 / ext4 defaults 0 1\n/dev/vda2 /home reiserfs defaults 0 2\n' >"$d/plan"
need="it holds the system or people's data, which needs a label per file"
effect="in enforcing mode services are denied access to these files and the system may not boot"
anyway="; to install anyway, choose permissive mode (--unsupported warn, or the boot option \
seinstall.unsupported=warn), knowing it can never enforce"
nopol="No SELinux policy of type '%s' in the target %s: %s%s is missing; install %s in the \
target first, or choose a policy type the target has"

for loc in de_DE.UTF-8 fr_FR.UTF-8; do
        # check's reason and fix for the refused /home, from Debian's default policy on the host
        run 1 "$loc" check --root "$d/target" --plan "$d/plan" --mode enforcing
        check_out=$OUT
        assert_words "$loc: check's reason, the role" "$check_out" "$(tr_of "$loc" "$need")"
        assert_words "$loc: check's reason, the effect" "$check_out" "$(tr_of "$loc" "$effect")"
        assert_words "$loc: check's fix" "$check_out" "$(tr_of "$loc" "$anyway")"
        for english in "policy does not name" "cannot be told apart" "to install anyway" \
                "instead of"; do
                [[ $check_out != *"$english"* ]] || fail "$loc: check left \"$english\" in English:
$check_out"
        done
        # a library error: the target has no policy
        run 3 "$loc" relabel --root "$d/target" --no-progress
        assert_words "$loc: the library's error" "$ERR" "$(prefix "$(tr_of "$loc" "$nopol")")"
        [[ $ERR != *"No SELinux policy"* ]] || fail "$loc: the error stayed English: $ERR"
        echo "ok: $loc: check's reasons and fixes and a library error in its language"
done

# apply's changes and to-dos: a target with a policy and no boot loader configuration
todo="No boot loader configuration found in the target (/etc/default/grub, loader entries, \
/etc/kernel/cmdline): add '%s' to its kernel command line"
t=$d/apply
make_target "$t"
rm -f "$t/etc/default/grub"
for loc in de_DE.UTF-8 fr_FR.UTF-8; do
        run 0 "$loc" apply --root "$t" --mode enforcing --dry-run
        assert_words "$loc: apply's to-do" "$OUT" "$(prefix "$(tr_of "$loc" "$todo")")"
        assert_words "$loc: apply's change" "$OUT" \
                "$(tr_of "$loc" "relabel at next boot scheduled (-F)")"
        [[ $OUT != *"No boot loader configuration"* && $OUT != *"relabel at next boot"* ]] ||
                fail "$loc: apply left English: $OUT"
done
echo "ok: apply's changes and to-dos in German and French"
# ... and on the first-boot screen's --yes, which applies through the library too
rm -rf "$t"
make_target "$t"
rm -f "$t/etc/default/grub"
expect_exit 0 env -u LANGUAGE LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 "$SEINSTALL_FIRSTBOOT" --root "$t" \
        --mode enforcing --yes
assert_words "de: seinstall-firstboot's change" "$OUT" \
        "$(prefix "$(tr_of de_DE.UTF-8 "created: SELINUX=%s SELINUXTYPE=%s")")"
assert_words "de: seinstall-firstboot's to-do" "$OUT" "$(prefix "$(tr_of de_DE.UTF-8 "$todo")")"
[[ $OUT != *"created:"* && $OUT != *"No boot loader configuration"* ]] ||
        fail "de: seinstall-firstboot left the library's English: $OUT"
echo "ok: seinstall-firstboot prints the library's changes and to-dos in German"

# status of a boot menu that lags its configuration: the sentence that says so, and which
# entry GRUB boots, are whole sentences of the catalog
b=$d/menu
mkdir -p "$b/etc/default" "$b/boot/grub"
printf 'GRUB_CMDLINE_LINUX="security=selinux"\n' >"$b/etc/default/grub"
printf "menuentry 'Debian' {\n\tlinux /boot/vmlinuz root=/dev/vda1 ro quiet\n}\n" >"$b/boot/grub/grub.cfg"
lag="%s says %s but %s's default entry has no %s=: %s"
for loc in de_DE.UTF-8 fr_FR.UTF-8; do
        run 0 "$loc" status --root "$b"
        assert_words "$loc: status's lag" "$OUT" "/etc/default/grub $(prefix "$(tr_of "$loc" "$lag" | cut -c3-)")"
        assert_words "$loc: status's entry chosen" "$OUT" "($(tr_of "$loc" "the first menuentry"))"
        [[ $OUT != *" says "* && $OUT != *"default entry"* && $OUT != *"the first menuentry"* ]] ||
                fail "$loc: status left the library's English: $OUT"
done
echo "ok: status says how the menu lags and which entry boots in German and French"

# ---- --json: English, the same in every language ------------------------------------------
run 1 C check --root "$d/target" --plan "$d/plan" --mode enforcing --json
c_json=$OUT
run 3 C relabel --root "$d/target" --no-progress --json
c_err_json=$OUT c_err=$ERR
for loc in de_DE.UTF-8 fr_FR.UTF-8; do
        run 1 "$loc" check --root "$d/target" --plan "$d/plan" --mode enforcing --json
        assert_eq "$loc: check --json as in C" "$c_json" "$OUT"
        run 3 "$loc" relabel --root "$d/target" --no-progress --json
        assert_eq "$loc: relabel's error document as in C" "$c_err_json" "$OUT"
        assert_eq "$loc: beside --json, the error as the document says it" "$c_err" "$ERR"
done
echo "ok: --json documents and the errors beside them are English in every language"
