#!/bin/bash
# The German and French catalogs (po/de.po, po/fr.po): valid for msgfmt -c (every format as
# its msgid's), complete against the template `make pot` writes (nothing untranslated or
# fuzzy; a catalog with a fuzzy entry, an empty one or a wrong format fails the check), and
# used: the first-boot screen in tmux under de_DE.UTF-8 and fr_FR.UTF-8 (at 80x24 and 100x30,
# a resize to 72x20 included, no line wider than the terminal) and `seinstall check` print
# their words; check's JSON stays the same in every language. The other subcommands:
# l10n-commands.sh. The locales and catalogs: l10n-lib.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"
. "$(dirname "$0")/../l10n-lib.sh"

command -v msgfmt >/dev/null || skip "msgfmt is not installed (make deps: gettext)"
command -v msgcmp >/dev/null || skip "msgcmp is not installed (make deps: gettext)"
d=$(scratch_dir)

# ---- the catalogs -----------------------------------------------------------------------
make -s -C "$TOP" BUILD="$SEINSTALL_BUILD_DIR" pot >/dev/null || fail "make pot failed"
pot=$SEINSTALL_BUILD_DIR/po/seinstall.pot
catalogs_match "$pot" po/de.po po/fr.po
# The completeness check can fail: a catalog with one fuzzy entry, one with an empty one, one
# whose format differs from its msgid's.
awk '/^msgid "scheduled"$/ { print "#, fuzzy" } { print }' "$TOP/po/de.po" >"$d/fuzzy.po"
! catalog_complete "$d/fuzzy.po" >/dev/null || fail "a fuzzy entry passed the check"
awk 'prev ~ /^msgid "no label"/ { $0 = "msgstr \"\"" } { print; prev = $0 }' "$TOP/po/de.po" >"$d/empty.po"
! catalog_complete "$d/empty.po" >/dev/null || fail "an empty entry passed the check"
awk 'prev ~ /^msgid "Boot menu: %s\\n"/ { $0 = "msgstr \"Bootmenü: %d\\n\"" } { print; prev = $0 }' \
        "$TOP/po/de.po" >"$d/format.po"
! catalog_complete "$d/format.po" >/dev/null 2>&1 || fail "a wrong format passed the check"
echo "ok: a fuzzy entry, an empty one and a wrong format each fail the check"

# ---- the locales ------------------------------------------------------------------------
use_locales "$d" de_DE.UTF-8 fr_FR.UTF-8

# ---- the screen -------------------------------------------------------------------------
# LANG TERM SIZE, then what the screen shows in that language: title, a choice and its line,
# the buttons, the key line, the notice below 80x24, the line after Esc.
while IFS='|' read -r locale term size title choice line cancel keyline small esc; do
        SCREEN_SIZE=$size
        echo "== $locale TERM=$term $size"
        t=$d/${locale%%.*}
        rm -rf "$t"
        make_target "$t" enforcing
        FIRST_WINDOW=$title start_screen "$term" "$locale" "$t"
        assert_screen "title" "$title"
        assert_screen "a choice" "$choice"
        assert_screen_words "the line under it" "$line"
        assert_screen "the buttons" "<$cancel>"
        assert_screen "the key line" "$keyline"
        assert_fits "the choice in $locale"
        # characters, not bytes: bash counts them in a UTF-8 locale
        widest=$(screen_text | LC_ALL=C.UTF-8 bash -c 'w=0; while IFS= read -r l; do
                [ ${#l} -gt $w ] && w=${#l}; done; echo $w')
        [ "$widest" -le "${size%x*}" ] || fail "a line is $widest wide, the terminal ${size%x*}:
$(screen_text)"
        echo "ok: the widest line is $widest columns"
        tm resize-window -t fb -x 72 -y 20 || fail "tmux resize-window"
        wait_screen "$small"
        tm resize-window -t fb -x "${size%x*}" -y "${size#*x}" || fail "tmux resize-window"
        wait_screen "$title"
        assert_screen "back after the resize: the buttons" "<$cancel>"
        keys Escape
        wait_exit
        assert_eq "exit status after Esc" 0 "$RC"
        assert_contains "what Esc did, in $locale" "$OUT" "$esc"
done <<'EOF'
de_DE.UTF-8|xterm-256color|80x24|SELinux auf diesem System|(*) Erzwingend|Kein Schutz durch SELinux, und neue Dateien erhalten keine Labels.|Abbrechen|F1 Hilfe  Leertaste wählen  Enter OK  Esc Abbruch|Das Terminal hat 72x20; diese Maske braucht mindestens 80x24.|Abgebrochen: nichts geändert.
fr_FR.UTF-8|linux|100x30|SELinux sur ce système|(*) Autoritaire|Aucune protection SELinux ; nouveaux fichiers sans étiquette.|Annuler|F1 aide  Espace choisir  Entrée OK  Échap annuler|Le terminal fait 72x20 ; cet écran demande au moins 80x24.|Annulé : rien n'a changé.
fr_FR.UTF-8|vt100|80x24|SELinux sur ce système|(*) Autoritaire|Aucune protection SELinux ; nouveaux fichiers sans étiquette.|Annuler|F1 aide  Espace choisir  Entrée OK  Échap annuler|Le terminal fait 72x20 ; cet écran demande au moins 80x24.|Annulé : rien n'a changé.
EOF

# Permissive chosen on the German screen: the plan and the outcome in German.
t=$d/de-permissive
make_target "$t" enforcing
SCREEN_SIZE=80x24
FIRST_WINDOW="SELinux auf diesem System" start_screen vt100 de_DE.UTF-8 "$t"
keys Down Space
wait_screen "(*) Permissiv"
assert_screen_words "the plan" "SELINUX=permissive in /etc/selinux/config. Wirkt, wenn das Ziel startet."
keys Enter
wait_exit
assert_contains "the outcome" "$OUT" "Gewählt: Permissiv, sobald das Ziel startet."
assert_eq "config" permissive "$(config_mode "$t")"

# --status and --yes in French.
t=$d/fr-yes
make_target "$t" enforcing
out=$(LANG=fr_FR.UTF-8 LC_ALL=fr_FR.UTF-8 "$FIRSTBOOT" --root "$t" --status) || fail "--status"
assert_contains "--status in French" "$out" "Prochain démarrage : Autoritaire"
out=$(LC_ALL=fr_FR.UTF-8 "$FIRSTBOOT" --root "$t" --mode enforcing --yes) || fail "--yes"
assert_eq "nothing to change, in French" "Rien à changer : le système est déjà réglé sur Autoritaire." "$out"

# ---- seinstall check --------------------------------------------------------------------
printf '/dev/vda1 / ext4 defaults 0 1\n/dev/vda2 /home reiserfs defaults 0 2\n' >"$d/plan"
mkdir -p "$d/target"
check() {
        LANG=$1 LC_ALL=$1 "$SEINSTALL" check --root "$d/target" --plan "$d/plan" "${@:2}"
}
expect_exit 1 check de_DE.UTF-8 --mode enforcing
assert_contains "check in German: the mode" "$OUT" "Modus:      enforcing (--mode)"
assert_contains "check in German: the table" "$OUT" "EINHÄNGEPUNKT  QUELLE"
assert_contains "check in German: a refusal" "$OUT" "abgelehnt /home:"
assert_contains "check in German: the fix" "$OUT" "  Abhilfe: "
assert_contains "check in German: the verdict" "$OUT" \
        "Abgelehnt: mindestens ein Dateisystem kann die Labels nicht tragen"
expect_exit 0 check fr_FR.UTF-8 --mode permissive
assert_contains "check in French: the policy" "$OUT" "Stratégie : default, lue dans"
assert_contains "check in French: the table" "$OUT" "MONTAGE  SOURCE     TYPE      ÉTIQUETAGE"
assert_contains "check in French: a warning" "$OUT" "avertissement /home:"
assert_contains "check in French: the verdict" "$OUT" "Accepté avec des avertissements."
expect_exit 2 check de_DE.UTF-8 --mode sometimes
assert_contains "check's usage error in German" "$ERR" "ungültiges --mode 'sometimes'"
expect_exit 0 check fr_FR.UTF-8 --help
assert_contains "check --help in French" "$OUT" "Usage : seinstall check"
# The JSON is for programs: the same in every language.
expect_exit 1 check C --mode enforcing --json
c_json=$OUT
expect_exit 1 check de_DE.UTF-8 --mode enforcing --json
assert_eq "check --json in German as in C" "$c_json" "$OUT"
