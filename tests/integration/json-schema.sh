#!/bin/bash
# Every JSON document seinstall prints, checked against the JSON Schemas in docs/schema/ the
# way a strict consumer reads it (tests/helpers/json-validate.py: strict UTF-8, no lone
# surrogate, no duplicate key, then JSON Schema 2020-12 with additionalProperties false,
# required keys and enums). Each command runs with --json on a real target whose path holds a
# byte that is not UTF-8 (so "root" comes with "root_hex"): check (ok and refused), relabel
# (dry run, real, and failing part way), apply, profile (with a warning, which must appear in
# "warnings"), status, avc, verify, trial, install, and error documents. The validator first
# shows it can fail: it rejects deliberately wrong documents.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr
command -v python3 >/dev/null || skip "python3 is needed to validate the JSON"
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed (make deps)"

SCHEMAS=$TOP/docs/schema
VALIDATE=$TOP/tests/helpers/json-validate.py
d=$(scratch_dir)

# validate KIND FILE: FILE is a valid document of KIND.
validate() {
        python3 "$VALIDATE" "$SCHEMAS" "$1" "$2" || fail "$2 is not a valid $1 document: $(head -c 2000 "$2")"
}
# reject KIND WHAT DOC: the validator refuses DOC as a KIND document.
reject() {
        printf '%s' "$3" >"$d/wrong.json"
        if python3 "$VALIDATE" "$SCHEMAS" "$1" "$d/wrong.json" 2>"$d/why"; then
                fail "the validator accepted $2: $3"
        fi
        echo "ok: rejected $2 ($(head -n 1 "$d/why"))"
}
# run_json KIND RCS CMD...: run CMD (with --json), expect one of the exit statuses RCS (a
# space-separated list); validate stdout as a KIND document, or as an error document for exit
# 2 or 3. The document is left in $DOC (a file).
n=0
run_json() {
        local kind=$1 rcs=$2 rc
        shift 2
        n=$((n + 1))
        DOC=$d/doc-$n.json
        "$@" --json >"$DOC" 2>"$d/err" && rc=0 || rc=$?
        case " $rcs " in
        *" $rc "*) ;;
        *) fail "'$*' exited $rc, expected one of $rcs: $(cat "$d/err") $(head -c 2000 "$DOC")" ;;
        esac
        case $rc in
        2 | 3) kind=error ;;
        esac
        validate "$kind" "$DOC"
        echo "ok: seinstall $2 --json (exit $rc) is a valid $kind document"
}
# doc_check EXPR: assert the Python expression EXPR on d, the last document.
doc_check() {
        python3 - "$DOC" "$1" <<'PY' || fail "$1: $(head -c 2000 "$DOC")"
import json, sys
d = json.load(open(sys.argv[1], "rb"))
assert eval(sys.argv[2]), sys.argv[2]
PY
        echo "ok: $1"
}

echo "== the validator can fail"
GOOD='{"schema": "seinstall.error/1", "error": {"message": "x: No such file or directory", "errno": "ENOENT", "exit": 2}, "warnings": []}'
printf '%s' "$GOOD" >"$d/good.json"
validate error "$d/good.json"
echo "ok: a well-formed error document is accepted"
reject error "an unknown key" "${GOOD%\}}, \"extra\": 1}"
reject error "a missing schema key" "${GOOD/\"schema\": \"seinstall.error\/1\", /}"
reject error "another kind's schema" "${GOOD/error\/1/check\/1}"
reject error "an exit status outside 2 and 3" "${GOOD/\"exit\": 2/\"exit\": 7}"
reject error "a lone surrogate (what seinstall printed for bytes that are not UTF-8)" \
        "${GOOD/x:/\\udcff:}"
reject error "a _hex key beside a key that has none" "${GOOD/\"exit\": 2/\"exit\": 2, \"exit_hex\": \"32\"}"
reject error "a _hex value that is not hexadecimal" "${GOOD/\"exit\": 2/\"exit\": 2, \"message_hex\": \"zz\"}"
reject error "invalid UTF-8" $'{"schema": "seinstall.error/1", "error": {"message": "\xff", "errno": null, "exit": 2}, "warnings": []}'
reject error "a duplicate key" "${GOOD/\"warnings\": []/\"warnings\": [], \"warnings\": []}"
reject check "a verdict outside the enum" \
        '{"schema": "seinstall.check/1", "mode": "enforcing", "mode_source": "default", "policy": "default", "policy_source": "target", "verdict": "maybe", "requested_mode": "enforcing", "mode_lowered": false, "policy_type_source": "target", "policy_file": null, "root": "/", "plan": null, "mounts": [], "warnings": []}'

echo "== a target whose path is not UTF-8"
T=$d/$'t\xff'
make_target "$T"
# a mount the default policy cannot label: check refuses
printf '/dev/vda2 / ext4 defaults 0 1\n/dev/vda3 /srv reiserfs defaults 0 0\n' >"$d/plan"
printf 'selinux --permissive\n%%include http://example.invalid/extra.ks\n' >"$d/profile.ks"
cat >"$d/audit.log" <<'LOG'
type=AVC msg=audit(1733270000.123:101): avc:  denied  { read } for  pid=812 comm="passwd" name="shadow" dev="vda1" ino=39231 scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1
type=PATH msg=audit(1733270000.123:101): item=0 name="/etc/shadow" inode=39231 dev=fe:01 mode=0100640 ouid=0 ogid=42 rdev=00:00 obj=system_u:object_r:etc_t:s0 nametype=NORMAL
[    9.100000] audit: type=1400 audit(1733270001.000:102): avc:  denied  { sys_admin } for  pid=500 comm="foo" capability=21  scontext=system_u:system_r:foo_t:s0 tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1
LOG

run_json check 0 "$SEINSTALL" check --root "$T"
doc_check 'd["schema"] == "seinstall.check/1" and d["verdict"] == "ok" and d["warnings"] == []'
doc_check 'd["root"].endswith("t\ufffd") and bytes.fromhex(d["root_hex"]).endswith(b"/t\xff")'
run_json check 1 "$SEINSTALL" check --root "$T" --plan "$d/plan"
doc_check 'd["verdict"] == "refuse" and d["mounts"][1]["verdict"] == "refuse"'
run_json relabel 0 "$SEINSTALL" relabel --root "$T" --dry-run --no-progress
run_json apply 0 "$SEINSTALL" apply --root "$T" --mode enforcing --bootloader grub --dry-run
doc_check 'd["dry_run"] is True and len(d["changes"]) > 0'
run_json apply 0 "$SEINSTALL" apply --root "$T" --mode permissive --bootloader grub
doc_check 'd["dry_run"] is False'
run_json profile 0 "$SEINSTALL" profile "$d/profile.ks" --no-cmdline
doc_check 'len(d["warnings"]) == 1 and "not followed" in d["warnings"][0]["message"]'
run_json status 0 "$SEINSTALL" status --root "$T"
run_json avc 0 "$SEINSTALL" avc --root "$T" --log "$d/audit.log"
doc_check 'd["denials"] == 2 and len(d["label"]) == 1 and len(d["policy"]) == 1'
run_json verify "0 1" "$SEINSTALL" verify --root "$T"
run_json verify "0 1" "$SEINSTALL" verify --root "$T" --all
run_json install "0 1" "$SEINSTALL" install --root "$T" --profile "$d/profile.ks" --no-cmdline --dry-run
doc_check 'd["dry_run"] is True'
run_json trial "0 1" "$SEINSTALL" trial --root "$T" --log "$d/audit.log" --no-setenforce
run_json install "0 1" "$SEINSTALL" install --root "$T" --profile "$d/profile.ks" --no-cmdline
doc_check 'd["check"] is not None and d["configure"] is not None and any("not followed" in w["message"] for w in d["warnings"])'
run_json relabel 0 "$SEINSTALL" relabel --root "$T" --no-progress
run_json verify 0 "$SEINSTALL" verify --root "$T"
doc_check 'd["clean"] and d["mismatches"] == 0'
run_json status 0 "$SEINSTALL" status --root "$T"

echo "== error documents"
run_json error 2 "$SEINSTALL" status --root "$T/missing"
doc_check 'd["schema"] == "seinstall.error/1" and d["error"]["errno"] == "ENOENT" and b"/t\xff/missing" in bytes.fromhex(d["error"]["message_hex"])'
run_json error 2 "$SEINSTALL" check --mode sometimes
doc_check 'd["error"]["errno"] is None'
run_json error 2 "$SEINSTALL" profile "$d/no-such.ks" --no-cmdline
run_json error 2 "$SEINSTALL" avc --root "$T" --log "$d/no-such.log"
# a file_contexts line the policy rejects: bad input, refused at load, before any label
cp "$T/etc/selinux/default/contexts/files/file_contexts" "$d/file_contexts"
echo '/srv/.* system_u:object_r:seinstall_no_such_t:s0' >>"$d/file_contexts"
run_json error 2 "$SEINSTALL" relabel --root "$T" --file-contexts "$d/file_contexts" --dry-run --no-progress
doc_check 'd["error"]["errno"] == "EBADMSG" and d["relabel"] is None'
# a relabel that fails part way (an immutable file): its summary rides in the error document
mkdir -p "$T/srv" && : >"$T/srv/f"
setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$T/srv/f"
{ command -v chattr >/dev/null && chattr +i "$T/srv/f" 2>/dev/null; } || skip "chattr +i does not work here (or no chattr: e2fsprogs)"
on_exit "chattr -i '$T/srv/f'"
run_json error 3 "$SEINSTALL" relabel --root "$T" --no-progress
doc_check 'd["relabel"]["errors"] == 1 and d["error"]["exit"] == 3'
chattr -i "$T/srv/f"
