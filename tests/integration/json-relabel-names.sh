#!/bin/bash
# `seinstall relabel --json` with a file whose name holds UTF-8, a control character, a quote, a
# backslash and a byte that is not UTF-8, made immutable (chattr +i) so that writing its label
# fails and the name lands in the document's error_messages and in the error's message: the
# document is strict UTF-8 JSON without a lone surrogate, the message's message_hex gives the
# name back byte for byte, and the text carries the escaping seinstall(8) documents: valid UTF-8
# as it is, '"' and '\' backslashed, ESC as \u001b, the byte 0xff as \ufffd (U+FFFD).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to parse the JSON"

d=$(scratch_dir)
T=$d/root
make_target "$T"
# café, a quote, a backslash, ESC [31m, a tab, a lone 0xff
N=$'caf\xc3\xa9 "q\\" \x1b[31m\t\xff'
mkdir -p "$T/srv"
: >"$T/srv/$N"
{ command -v chattr >/dev/null && chattr +i "$T/srv/$N" 2>/dev/null; } || skip "chattr +i (e2fsprogs) does not work on $(stat -f -c %T "$T")"
on_exit "chattr -i '$T/srv/'*"

OUT=$("$SEINSTALL" relabel --root "$T" --no-progress --json 2>"$d/err") && rc=0 || rc=$?
[ "$rc" = 3 ] || fail "relabel of an immutable file: exit $rc, expected 3: $OUT $(cat "$d/err")"
printf '%s' "$OUT" >"$d/doc.json"

json_assert_rejects_loose
# the documented escaping, as text: valid UTF-8 as it is, '"' and '\' backslashed, ESC as
# \u001b, 0xff as \ufffd; no \u00c3 (UTF-8 bytes escaped one by one), no raw ESC or 0xff
WANT=$'/srv/caf\xc3\xa9 \\"q\\\\\\" \\u001b[31m\\t\\ufffd'
json_assert "$d/doc.json" NAME="/srv/$N" WANT="$WANT" -- \
        'd["relabel"]["errors"] == 1 and len(d["relabel"]["error_messages"]) == 1' \
        'd["relabel"]["error_messages"][0].endswith(" on " + NAME.decode("utf-8", "replace") + ": Operation not permitted")' \
        'NAME.decode("utf-8", "replace") in d["error"]["message"]' \
        'NAME in bytes.fromhex(d["error"]["message_hex"])' \
        'WANT in raw' \
        'b"\\u00c3" not in raw and b"\\udc" not in raw and b"\x1b" not in raw and b"\xff" not in raw' ||
        fail "JSON: $OUT"
echo "ok: relabel --json parses strictly, gives the name back byte for byte, escaped as documented"

# the same name in verify --json (verify shares relabel's result document)
OUT=$("$SEINSTALL" verify --root "$T" --json 2>"$d/err") && rc=0 || rc=$?
case $rc in
0 | 1 | 3) ;;
*) fail "verify: exit $rc: $OUT $(cat "$d/err")" ;;
esac
printf '%s' "$OUT" >"$d/verify.json"
json_assert "$d/verify.json" -- True || fail "verify --json does not parse strictly: $OUT"
echo "ok: verify --json parses with that name in the tree"
