#!/bin/bash
# The first-boot screen on a system that ran permissive: before the choice it shows this boot's
# denials as `seinstall avc` judges them (how many, how many caused by labels, the first five
# files and "and N more"), offers to relabel those files, relabels exactly those (names with
# spaces and UTF-8 included; an unlisted wrong label stays) and says what it did, then goes on
# to the choice. With no denials or an unreadable log the choice's window says so in one line
# and nothing waits. Driven in tmux at 80x24 as a person would; --status prints the same
# summary. The log is given with --avc-log (a target tree is not the running system).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

pol=$(ls /etc/selinux/default/policy/policy.* 2>/dev/null | sort -V | tail -n1)
[ -n "$pol" ] || skip "no /etc/selinux/default/policy/policy.N (make deps installs selinux-policy-default)"
[ "$(id -u)" = 0 ] || skip "needs root to write security.selinux"
command -v getfattr >/dev/null || skip "getfattr is not installed (make deps: attr)"

d=$(scratch_dir)
setfattr -n security.selinux -v system_u:object_r:etc_t:s0 "$d" 2>/dev/null ||
        skip "the scratch directory's filesystem does not keep security.selinux"

ETC=system_u:object_r:etc_t:s0
SPACED="var/lib/sp ace ü"

# label FILE: its security.selinux.
label() {
        getfattr --absolute-names -h --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0'
}

# hex STRING: the kernel's encoding of a name with a space or a byte outside 0x21..0x7e.
hex() {
        printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n' | tr a-f A-F
}

# denial PATH|- TCONTEXT: one denial line in the kernel's form (- : a capability, the policy's).
denial() {
        local p
        n=$((n + 1))
        if [ "$1" = - ]; then
                echo "[    9.1] audit: type=1400 audit(1733270001.000:$n): avc:  denied  { sys_admin } for  pid=500 comm=\"foo\" capability=21  scontext=system_u:system_r:foo_t:s0 tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1"
                return
        fi
        case $1 in
        *[!A-Za-z0-9/._-]*) p=$(hex "$1") ;;
        *) p="\"$1\"" ;;
        esac
        echo "[    9.2] audit: type=1400 audit(1733270002.000:$n): avc:  denied  { read } for  pid=9 comm=\"cat\" path=$p dev=\"vda1\" ino=5 scontext=system_u:system_r:foo_t:s0 tcontext=$2 tclass=file permissive=1"
}

# labeled_target DIR: a permissive install with the real policy and small file contexts.
# denied_target DIR: that, with eight files with a wrong label that this boot's log (DIR.log) blames, one more that no denial
# names, and a log of 11 denials: 9 on those 8 files, 2 the policy's.
labeled_target() {
        make_target "$1" permissive
        cp "$pol" "$1/etc/selinux/default/policy/policy.33"
        mkdir -p "$1/etc/selinux/default/contexts/files" "$1/var/lib" "$1/srv"
        printf '%s\n' "/.*	system_u:object_r:default_t:s0" \
                "/etc(/.*)?	system_u:object_r:etc_t:s0" \
                "/etc/shadow.*	--	system_u:object_r:shadow_t:s0" \
                "/var/lib(/.*)?	system_u:object_r:var_lib_t:s0" \
                >"$1/etc/selinux/default/contexts/files/file_contexts"
}

denied_target() {
        local t=$1 f
        labeled_target "$t"
        echo "root:*::0:::::" >"$t/etc/shadow"
        echo "root:x:0:0::/root:/bin/sh" >"$t/etc/passwd"
        : >"$t/$SPACED"
        for f in 1 2 3 4 5 6; do : >"$t/var/lib/f$f"; done
        : >"$t/srv/unlisted"
        for f in etc/shadow etc/passwd "$SPACED" var/lib/f1 var/lib/f2 var/lib/f3 var/lib/f4 \
                var/lib/f5 var/lib/f6 srv/unlisted; do
                setfattr -h -n security.selinux -v "$ETC" "$t/$f"
        done
        n=0
        {
                denial /etc/shadow "$ETC"
                denial "/$SPACED" "$ETC"
                for f in 1 2 3 4 5 6; do denial "/var/lib/f$f" "$ETC"; done
                denial /etc/shadow "$ETC"
                denial /etc/passwd "$ETC" # the right label: the policy's
                denial - -
        } >"$t.log"
}

assert_relabeled() {
        local t=$1 f
        assert_eq "label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(label "$t/etc/shadow")"
        assert_eq "label of /$SPACED" system_u:object_r:var_lib_t:s0 "$(label "$t/$SPACED")"
        for f in 1 2 3 4 5 6; do
                assert_eq "label of /var/lib/f$f" system_u:object_r:var_lib_t:s0 \
                        "$(label "$t/var/lib/f$f")"
        done
        assert_eq "label of /etc/passwd (was right)" "$ETC" "$(label "$t/etc/passwd")"
        assert_eq "label of /srv/unlisted (no denial names it)" "$ETC" \
                "$(label "$t/srv/unlisted")"
}

# --status: the same summary, nothing written.
t=$d/status
denied_target "$t"
expect_exit 0 "$FIRSTBOOT" --root "$t" --status --avc-log "$t.log"
assert_contains "--status line" "$OUT" "This boot: 11 SELinux denials, 9 caused by labels."
assert_contains "--status files" "$OUT" "The files with a wrong label:
  /etc/shadow
  /$SPACED
  /var/lib/f1
  /var/lib/f2
  /var/lib/f3
  and 3 more"
assert_eq "--status writes no label" "$ETC" "$(label "$t/etc/shadow")"
expect_exit 0 "$FIRSTBOOT" --root "$t" --status --avc-log "$d/no-such.log"
assert_contains "--status, unreadable log" "$OUT" \
        "This boot: SELinux denials not readable (No such file or directory)."
assert_contains "--status, the library's message" "$OUT" "no-such.log"

for combo in "xterm C.UTF-8" "vt100 C"; do
        read -r term locale <<<"$combo"
        echo "== TERM=$term LANG=$locale, 80x24"

        # Relabel: the summary first, then exactly those files relabeled, then the choice.
        t=$d/${term:0:1}r # short: the root is the state's first line
        denied_target "$t"
        FIRST_WINDOW="SELinux denials on this boot" start_screen "$term" "$locale" "$t" \
                --avc-log "$t.log"
        assert_screen "counts" "This boot logged 11 SELinux denials, 9 caused by labels."
        assert_screen "first file" "/etc/shadow"
        assert_screen "fifth file" "/var/lib/f3"
        assert_screen "the rest counted" "and 3 more"
        assert_screen "offer" "Relabel these files"
        [ "$locale" = C ] || assert_screen "a name with a space and UTF-8" "/$SPACED"
        assert_screen "what Relabel does" "nothing else changes."
        assert_fits "the denials"
        assert_eq "nothing relabeled before the answer" "$ETC" "$(label "$t/etc/shadow")"
        keys Left Enter # the focus starts on Continue; Left moves it to Relabel
        wait_screen "Relabeled 8 of the 8 files."
        assert_relabeled "$t"
        keys Enter
        wait_screen "SELinux on this system"
        assert_screen "the choice after the relabel" "(relabeled)"
        assert_screen "the whole choice fits" "Cancel"
        assert_screen "starts on the current mode" "(*) Permissive"
        keys F12
        wait_exit
        assert_eq "exit status" 0 "$RC"
        assert_contains "the relabel's result stays on the terminal" "$OUT" \
                "Relabeled 8 of the 8 files."
        assert_eq "config" permissive "$(config_mode "$t")"

        # Continue: nothing relabeled; the choice as before.
        t=$d/${term:0:1}c
        denied_target "$t"
        FIRST_WINDOW="SELinux denials on this boot" start_screen "$term" "$locale" "$t" \
                --avc-log "$t.log"
        keys Enter # the focus starts on Continue, the choice that changes nothing
        wait_screen "SELinux on this system"
        assert_screen "the line without relabel" "11 SELinux denials, 9 caused by labels."
        assert_eq "Continue relabels nothing" "$ETC" "$(label "$t/etc/shadow")"
        keys Tab Tab Enter # the choices are one stop: OK, Cancel
        wait_exit
        assert_contains "Cancel" "$OUT" "nothing changed"

        # No denial at all, and an unreadable log: one line on the choice's window, no wait.
        t=$d/${term:0:1}n
        labeled_target "$t"
        : >"$t.log"
        start_screen "$term" "$locale" "$t" --avc-log "$t.log"
        assert_screen "no denials" "This boot: no SELinux denials."
        assert_screen "the whole choice fits" "Cancel"
        keys F12
        wait_exit
        assert_eq "exit status, no denials" 0 "$RC"
        start_screen "$term" "$locale" "$t" --avc-log "$d/no-such.log"
        assert_screen "unreadable log" "This boot: SELinux denials not readable (No such file"
        keys F12
        wait_exit
        assert_eq "exit status, unreadable log" 0 "$RC"
done

# A listed file that is a bind mount of a file outside the target is left alone, and the
# result says why: the relabel never writes outside the target's own mounts.
t=$d/bind
labeled_target "$t"
mkdir -p "$d/outside"
echo x >"$d/outside/victim"
setfattr -n security.selinux -v "$ETC" "$d/outside/victim"
: >"$t/var/lib/victim"
if mount --bind "$d/outside/victim" "$t/var/lib/victim" 2>/dev/null; then
        on_exit "umount '$t/var/lib/victim'"
        n=0
        denial /var/lib/victim "$ETC" >"$t.log"
        FIRST_WINDOW="SELinux denials on this boot" start_screen xterm C.UTF-8 "$t" \
                --avc-log "$t.log"
        keys Left Enter
        wait_screen "No file was relabeled. 1 left alone: /var/lib/victim:"
        assert_eq "the file outside keeps its label" "$ETC" "$(label "$d/outside/victim")"
        keys Enter
        wait_screen "SELinux on this system"
        keys F12
        wait_exit
        assert_contains "why, after the screen" "$OUT" "1 left alone: /var/lib/victim: not one of the"
else
        echo "note: no bind mount here; the bind-mounted file case was not run"
fi

# Long names: the summary is longer than 80x24 leaves; the end of the list and what Relabel
# does are below, and a line says the text scrolls; scrolled, both show. The focus is on
# Continue, so Enter relabels nothing.
t=$d/long
labeled_target "$t"
long=var/lib/a-directory-with-a-rather-long-name-as-containers-make/and-a-file-whose-name-is-long-too
n=0
for f in 1 2 3 4 5 6 7; do
        mkdir -p "$t/$long$f"
        : >"$t/$long$f/file"
        setfattr -h -n security.selinux -v "$ETC" "$t/$long$f/file"
        denial "/$long$f/file" "$ETC"
done >"$t.log"
FIRST_WINDOW="SELinux denials on this boot" start_screen vt100 C "$t" --avc-log "$t.log"
assert_fits "the long summary"
assert_screen "the buttons" "Continue"
assert_screen "the hint" "The text above scrolls: Tab to it, then Down or PgDn."
assert_not_screen "the rest is below" "and 2 more"
keys Tab PageDown PageDown
assert_screen "scrolled: the rest counted" "and 2 more"
assert_screen "scrolled: what Relabel does" "nothing else changes."
keys Tab Tab Enter # from the text: Relabel, Continue
wait_screen "SELinux on this system"
assert_eq "Continue relabels nothing" "$ETC" "$(label "$t/${long}1/file")"
keys F12
wait_exit
[ "$RC" = 0 ] || echo "stderr of the failed run: $ERR"
assert_eq "exit status" 0 "$RC"

# An untouched summary ends with the timeout like the choice: nothing relabeled, and the mode
# chosen at install kept.
t=$d/timeout
denied_target "$t"
FIRST_WINDOW="SELinux denials on this boot" start_screen xterm C.UTF-8 "$t" --avc-log "$t.log" \
        --timeout 2
wait_exit
assert_eq "exit status after the timeout" 0 "$RC"
assert_contains "timeout" "$OUT" "No answer"
assert_eq "the timeout relabels nothing" "$ETC" "$(label "$t/etc/shadow")"
