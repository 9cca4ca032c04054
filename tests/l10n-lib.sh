# shellcheck shell=bash
# Helpers for the tests of the translations: the German and French locales (generated into a
# private LOCPATH when the system lacks them, from the locales package's sources) and the
# build tree's catalogs (SEINSTALL_LOCALEDIR).
# Source after lib.sh: . "$(dirname "$0")/../l10n-lib.sh"

# catalog_complete PO: fails unless PO passes msgfmt -c and has no fuzzy or empty entry;
# prints msgfmt's statistics.
catalog_complete() {
        local stats
        msgfmt -c -o /dev/null "$1" 2>&1 || return 1
        stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$1" 2>&1)
        echo "$stats"
        case $stats in
        *untranslated* | *fuzzy*) return 1 ;;
        esac
}

# catalogs_match POT PO...: each PO (a path under $TOP) exists, passes catalog_complete and
# translates every message of the template POT; fails the test otherwise.
catalogs_match() {
        local pot=$1 po stats err
        shift
        for po in "$@"; do
                [ -s "$TOP/$po" ] || fail "$po is missing"
                stats=$(catalog_complete "$TOP/$po") ||
                        fail "$po fails msgfmt -c or is not complete: $stats"
                err=$(msgcmp "$TOP/$po" "$pot" 2>&1) ||
                        fail "$po lacks messages of the template: $err"
                echo "ok: $po passes msgfmt -c and translates every message of the template ($stats)"
        done
}

# use_locales SCRATCH LOCALE...: make each LOCALE (de_DE.UTF-8, ...) usable and point the
# commands at the build tree's catalogs; skips the test when a locale cannot be had.
use_locales() {
        local d=$1 loc dir= need=
        shift
        command -v msgfmt >/dev/null || skip "msgfmt is not installed (make deps: gettext)"
        for loc in "$@"; do
                locale -a 2>/dev/null | grep -qix "${loc%.*}.utf-\?8" || need=1
        done
        if [ -n "$need" ]; then
                command -v localedef >/dev/null || skip "no $* locales and no localedef to make them"
                dir=$d/locales
                mkdir -p "$dir"
                # a LOCPATH is searched alone: every locale the test uses goes in it
                for loc in "$@"; do
                        [ -e "/usr/share/i18n/locales/${loc%.*}" ] ||
                                skip "no $loc locale and no sources to make one (Debian: the locales package)"
                        localedef -i "${loc%.*}" -f UTF-8 "$dir/$loc" 2>"$d/localedef.err" ||
                                skip "localedef $loc failed: $(cat "$d/localedef.err")"
                done
                export LOCPATH=$dir
                echo "ok: made the $* locales in a private LOCPATH"
        fi
        export SEINSTALL_LOCALEDIR=$SEINSTALL_BUILD_DIR/locale
        for loc in "$@"; do
                [ -s "$SEINSTALL_LOCALEDIR/${loc%%_*}/LC_MESSAGES/seinstall.mo" ] ||
                        fail "the build did not make $SEINSTALL_LOCALEDIR/${loc%%_*}/LC_MESSAGES/seinstall.mo"
        done
}
