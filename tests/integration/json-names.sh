#!/bin/bash
# Every command's --json against a real JSON parser (Python's json), with names holding UTF-8,
# control characters, an escape sequence, quotes, a newline and a byte that is not UTF-8: each
# document is strict UTF-8 JSON with no lone surrogate (what jq or Go's parser need), the byte
# shows as U+FFFD, and each name comes back byte for byte from its KEY_hex member (seinstall(8),
# JSON OUTPUT). The
# human output of the same runs shows those names escaped: no raw control byte, and a newline
# in a name never starts a line of its own (no forged "seinstall:" line).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to parse the JSON"

d=$(scratch_dir)
# café, a quote, a backslash, ESC [31m, a newline that would forge a line, a tab, a lone 0xff
W=$'caf\xc3\xa9 "q\\" \x1b[31m\nseinstall: forged\t\xff'
T="$d/$W"
make_target "$T"
printf 'GRUB_CMDLINE_LINUX="quiet \x1b]0;title\x07 x=\xff"\n' >>"$T/etc/default/grub"
KS="$d/$W.ks"
printf 'selinux --permissive\n' >"$KS"
PLAN="$d/plan"
# fstab escapes: \042 is '"', \012 a newline, \033 ESC
printf '/dev/vda2 / ext4 defaults 0 1\n/dev/vda3 /d\303\251\\042\\033[1m\\012seinstall:\\011\377 ext4 defaults 0 0\n' >"$PLAN"
MP=$'/d\xc3\xa9"\x1b[1m\nseinstall:\t\xff'

# json_check EXPR: $OUT is one strict JSON document (d) for which EXPR holds; B(o, k) gives the
# original bytes of the member k of object o (k_hex when present: then k must show U+FFFD where
# a byte is not UTF-8), ROOT, KSF and MP the names above as bytes.
json_check() {
        printf '%s' "$OUT" >"$d/doc.json"
        json_assert "$d/doc.json" ROOT="$T" KSF="$KS" MP="$MP" -- "$1" ||
                fail "JSON: $1: $OUT"
        echo "ok: JSON parses and $1"
}

# human_check: $OUT and $ERR of a human run hold no raw control byte but newlines, and no line
# starts with the forged "seinstall: forged".
human_check() {
        local all="$OUT"$'\n'"$ERR"
        if printf '%s' "$all" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; then
                fail "raw control bytes in human output: $(printf '%s' "$all" | od -c | head -20)"
        fi
        if printf '%s\n' "$all" | grep -q '^seinstall: forged'; then
                fail "a name forged a line: $all"
        fi
        echo "ok: $1: names escaped in human output"
}

json_assert_rejects_loose

echo "== status"
expect_exit 0 "$SEINSTALL" status --root "$T" --json
json_check 'B(d, "root") == ROOT and b"\x1b]0;title\x07" in B(d, "cmdline") and b"x=\xff" in B(d, "cmdline") and "x=\ufffd" in d["cmdline"]'
expect_exit 0 "$SEINSTALL" status --root "$T"
human_check status
assert_contains "escaped root" "$OUT" 'caf'$'\xc3\xa9'' "q\\" \e[31m\nseinstall: forged\t\xff'

echo "== profile"
expect_exit 0 "$SEINSTALL" profile "$KS" --no-cmdline --json
json_check 'B(d, "profile") == KSF and d["mode"] == "permissive"'
expect_exit 0 "$SEINSTALL" profile "$KS" --no-cmdline
human_check profile

echo "== check"
expect_exit 0 "$SEINSTALL" check --root "$T" --plan "$PLAN" --json
json_check 'B(d, "root") == ROOT and [B(m, "mountpoint") for m in d["mounts"]] == [b"/", MP]'
expect_exit 0 "$SEINSTALL" check --root "$T" --plan "$PLAN" --verbose
human_check check

echo "== apply"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode permissive --bootloader grub --json
json_check 'd["config_mode"] == "permissive" and any(c["file"] == "/etc/default/grub" for c in d["changes"])'
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --bootloader grub
human_check apply

echo "== relabel"
expect_exit 0 "$SEINSTALL" relabel --root "$T" --dry-run --no-progress --json
json_check 'B(d, "root") == ROOT and d["entries"] > 0'
expect_exit 0 "$SEINSTALL" relabel --root "$T" --dry-run --no-progress
human_check relabel

echo "== install"
OUT=$("$SEINSTALL" install --root "$T" --profile "$KS" --no-cmdline --json 2>"$d/err") && rc=0 || rc=$?
ERR=$(cat "$d/err")
case $rc in
0 | 1) json_check 'B(d, "root") == ROOT and B(d["settings"], "profile") == KSF' ;;
*) json_check '"error" in d and d["error"]["exit"] == '"$rc" ;;
esac
OUT=$("$SEINSTALL" install --root "$T" --profile "$KS" --no-cmdline 2>"$d/err") || true
ERR=$(cat "$d/err")
human_check install

echo "== errors"
expect_exit 2 "$SEINSTALL" status --root "$T/missing" --json
json_check 'ROOT + b"/missing" in B(d["error"], "message") and d["error"]["errno"] == "ENOENT" and d["error"]["exit"] == 2'
expect_exit 2 "$SEINSTALL" status --root "$T/missing"
human_check "an error naming the root"
expect_exit 2 "$SEINSTALL" profile "$d/$W.missing" --no-cmdline --json
json_check 'd["error"]["exit"] == 2 and KSF[:-3] in B(d["error"], "message")'
expect_exit 2 "$SEINSTALL" check --mode "$W" --json
json_check 'd["error"]["errno"] is None and d["error"]["exit"] == 2'
expect_exit 2 "$SEINSTALL" check --mode "$W"
human_check "a usage error quoting the argument"
