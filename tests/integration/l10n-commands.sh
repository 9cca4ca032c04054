#!/bin/bash
# Every subcommand of seinstall speaks the locale's language (po/de.po, po/fr.po): install
# --dry-run, status, apply --dry-run, verify, the usage errors and each --help under
# de_DE.UTF-8 and fr_FR.UTF-8 print their translated words, within 80 columns for --help; in
# the C locale, and with no catalog to read, they print the English as it was; --json prints
# the same document in every language, error documents included. On a loop-mounted ext4
# target with Debian's default policy (install-lib.sh's make_target).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
. "$(dirname "$0")/../l10n-lib.sh"
require_loop

d=$(scratch_dir)
use_locales "$d" de_DE.UTF-8 fr_FR.UTF-8
make_fs_image "$d/t.img" ext4 64
mount_image "$d/t.img" "$d/t"
make_target "$d/t"
t=$d/t

# run LOCALE ARGS...: seinstall ARGS in LOCALE (LANGUAGE unset: it would override LC_ALL).
run() {
        env -u LANGUAGE LANG="$1" LC_ALL="$1" "$SEINSTALL" "${@:2}"
}
# texts EXIT LOCALE ARGS...: OUT and ERR of seinstall ARGS in LOCALE, which exits EXIT
texts() {
        local want=$1
        shift
        expect_exit "$want" run "$@"
}

# ---- the words of each command, per language --------------------------------------------
# LOCALE|EXIT|ARGS (after --root T)|what stdout says, lines separated by ";;"
while IFS='|' read -r loc rc args words; do
        # shellcheck disable=SC2086 # ARGS are words
        texts "$rc" "$loc" ${args%% *} --root "$t" ${args#"${args%% *}"}
        IFS=';' read -ra want <<<"${words//;;/;}"
        for w in "${want[@]}"; do
                assert_contains "$loc: seinstall $args" "$OUT" "${w//@T@/$t}"
        done
done <<'EOF_WORDS'
C|0|install --dry-run --no-cmdline --mode enforcing|seinstall install (dry run): @T@;;check:     ok (1 mount);;relabel:   ;;configure:;;  would change /etc/default/grub: ;;Dry run: nothing in the target was changed.
de_DE.UTF-8|0|install --dry-run --no-cmdline --mode enforcing|seinstall install (Testlauf): @T@;;Modus:       enforcing    (aus --mode);;Prüfung:     ok (1 Einhängepunkt);;Neulabeln:   ;;Konfigurieren:;;  /etc/default/grub würde geändert: ;;Testlauf: im Ziel wurde nichts geändert.
fr_FR.UTF-8|0|install --dry-run --no-cmdline --mode enforcing|seinstall install (simulation): @T@;;mode :         enforcing    (depuis --mode);;vérification : ok (1 montage);;réétiquetage : ;;configuration :;;  /etc/default/grub serait modifié : ;;Simulation : rien n'a changé dans la cible.
C|0|status|target:          @T@;;config:          SELINUX=(unset) SELINUXTYPE=(unset) (policy built);;relabel pending: no;;SELinux now:     (not the running system)
de_DE.UTF-8|0|status|Ziel:            @T@;;Konfiguration:   SELINUX=(nicht gesetzt) SELINUXTYPE=(nicht gesetzt) (Richtlinie gebaut);;Neulabeln offen: nein;;SELinux jetzt:   (nicht das laufende System)
fr_FR.UTF-8|0|status|cible :          @T@;;config :         SELINUX=(non défini) SELINUXTYPE=(non défini) (stratégie construite);;à réétiqueter :  non;;SELinux actuel : (pas le système en cours)
C|0|apply --mode permissive --dry-run|apply (dry run): nothing was written;;config: SELINUX=permissive SELINUXTYPE=default (kernel: SELinux opt-in);;would change /etc/selinux/config: 
de_DE.UTF-8|0|apply --mode permissive --dry-run|apply (Testlauf): nichts wurde geschrieben;;Konfiguration: SELINUX=permissive SELINUXTYPE=default (Kernel: SELinux opt-in);;/etc/selinux/config würde geändert: 
fr_FR.UTF-8|0|apply --mode permissive --dry-run|apply (simulation) : rien n'a été écrit;;config : SELINUX=permissive SELINUXTYPE=default (noyau : SELinux opt-in);;/etc/selinux/config serait modifié : 
C|1|verify|entries checked, ;;labels differ from the file contexts;;/usr/bin/true: no label, expected system_u:object_r:bin_t:s0;;To write the expected labels, run: seinstall verify --root @T@ --fix
de_DE.UTF-8|1|verify|Einträge geprüft, ;;Labels weichen von den Dateikontexten ab;;/usr/bin/true: kein Label, erwartet system_u:object_r:bin_t:s0;;Um die erwarteten Labels zu schreiben, führen Sie aus: seinstall verify --root @T@ --fix
fr_FR.UTF-8|1|verify|entrées vérifiées, ;;étiquettes diffèrent des contextes de fichiers;;/usr/bin/true : sans étiquette, attendu system_u:object_r:bin_t:s0;;Pour écrire les étiquettes attendues, lancez : seinstall verify --root @T@ --fix
EOF_WORDS

# ---- English as it was: the C locale, and a language without a catalog ------------------
# A locale whose catalog is missing prints the msgids: the English of the C locale, byte for
# byte (no number or character formats of its own slipped in).
for args in "install --dry-run --no-cmdline --mode enforcing" status "apply --mode enforcing --dry-run" verify; do
        # shellcheck disable=SC2086
        c=$(run C ${args%% *} --root "$t" ${args#"${args%% *}"} 2>&1)
        # shellcheck disable=SC2086
        n=$(SEINSTALL_LOCALEDIR=$d/no-catalogs run de_DE.UTF-8 ${args%% *} --root "$t" \
                ${args#"${args%% *}"} 2>&1)
        assert_eq "seinstall $args: German without a catalog is the C locale's English" "$c" "$n"
done

# ---- usage errors and --help ------------------------------------------------------------
texts 2 de_DE.UTF-8 frobnicate
assert_eq "an unknown command in German" "seinstall: unbekannter Befehl 'frobnicate'
Siehe 'seinstall --help'." "$ERR"
texts 2 fr_FR.UTF-8 apply --root "$t"
assert_contains "apply without --mode in French" "$ERR" \
        "seinstall apply: --mode est requis (ou --regenerate seul)"
texts 2 C apply --root "$t"
assert_contains "apply without --mode in C" "$ERR" \
        "seinstall apply: --mode is required (or --regenerate alone)"
texts 0 de_DE.UTF-8 --help
assert_contains "seinstall --help in German" "$OUT" "Aufruf: seinstall BEFEHL [OPTIONEN]"
assert_contains "seinstall --help in German: a command" "$OUT" \
        "  status    den SELinux-Zustand des Ziels zeigen"
texts 0 fr_FR.UTF-8 install --help
assert_contains "install --help in French" "$OUT" "Usage : seinstall install [--root DIR]"
assert_contains "install --help in French: an option" "$OUT" \
        "  --dry-run           prévisualiser chaque étape ; ne rien écrire"
texts 0 C verify --help
assert_contains "verify --help in C" "$OUT" "  --fix          write the expected label on each file that differs"
for loc in de_DE.UTF-8 fr_FR.UTF-8; do
        for c in "" check relabel apply install profile status avc verify trial; do
                # shellcheck disable=SC2086
                texts 0 "$loc" $c --help
                [ "$OUT" != "$(run C $c --help)" ] || fail "seinstall $c --help is English in $loc"
                # characters, not bytes: bash counts them in a UTF-8 locale
                while IFS= read -r line; do
                        n=$(LC_ALL=C.UTF-8 bash -c 'echo ${#1}' _ "$line")
                        [ "$n" -le 80 ] || fail "seinstall $c --help in $loc: $n columns: $line"
                done <<<"$OUT"
        done
        echo "ok: every --help in $loc is translated and within 80 columns"
done

# ---- JSON: the same document in every language ------------------------------------------
# (but for the time a walk took)
timeless() { sed -E 's/"seconds": [0-9.e+-]+/"seconds": S/g' <<<"$1"; }
for args in "1|verify --json" "0|status --json" "0|apply --mode enforcing --dry-run --json" \
        "0|install --dry-run --no-cmdline --mode enforcing --json" "2|apply --json" \
        "2|frobnicate --json" "2|status --json --bogus"; do
        rc=${args%%|*} args=${args#*|}
        # shellcheck disable=SC2086
        texts "$rc" C ${args%% *} --root "$t" ${args#"${args%% *}"}
        c_json=$(timeless "$OUT")
        [ -n "$c_json" ] || fail "seinstall $args printed no JSON"
        for loc in de_DE.UTF-8 fr_FR.UTF-8; do
                # shellcheck disable=SC2086
                texts "$rc" "$loc" ${args%% *} --root "$t" ${args#"${args%% *}"}
                assert_eq "seinstall $args in $loc as in C" "$c_json" "$(timeless "$OUT")"
        done
done
