#!/bin/bash
# seinstall profile: effective settings and their sources from a kickstart profile, the
# installer's boot options and the target; bad profiles are exit 2 naming file and line.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

D=$(scratch_dir)
cat >"$D/server.ks" <<'KS'
# a server profile
lang en_US.UTF-8
selinux --perm        # trial first
selinux --enforcing
%addon org_seinstall --policy=default --unsupported=refuse --relabel=install
%end
%post
selinux --disabled
%end
KS
printf 'BOOT_IMAGE=/vmlinuz ro quiet\n' >"$D/plain.cmdline"
printf 'BOOT_IMAGE=/vmlinuz ro enforcing=0 seinstall.unsupported=warn inst.ks=file:%s\n' \
        "$D/server.ks" >"$D/boot.cmdline"

expect_exit 0 "$SEINSTALL" profile "$D/server.ks" --cmdline "$D/plain.cmdline" --json
py_check() {
        command -v python3 >/dev/null || return 0
        echo "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); $1" || fail "$2: $OUT"
        echo "ok: $2"
}
py_check 'assert (d["mode"], d["mode_source"]) == ("enforcing", "profile"), d; assert (d["policy"], d["policy_source"]) == ("default", "profile")' \
        "profile decides mode and policy"

expect_exit 0 "$SEINSTALL" profile "$D/server.ks" --cmdline "$D/boot.cmdline" --json
py_check 'assert (d["mode"], d["mode_source"]) == ("permissive", "boot"); assert (d["unsupported"], d["unsupported_source"]) == ("warn", "boot")' \
        "boot options win over the profile"

# with a target, its config fills in what nobody else said
T=$(scratch_dir)
mkdir -p "$T/etc/selinux"
printf 'SELINUX=disabled\nSELINUXTYPE=mls\n' >"$T/etc/selinux/config"
printf 'selinux\n' >"$D/bare.ks"
expect_exit 0 "$SEINSTALL" profile "$D/bare.ks" --no-cmdline --root "$T" --json
py_check 'assert (d["mode"], d["mode_source"]) == ("disabled", "target"); assert (d["policy"], d["policy_source"]) == ("mls", "target")' \
        "bare selinux leaves the target's choice"
expect_exit 0 "$SEINSTALL" profile "$D/bare.ks" --no-cmdline
assert_contains "text output" "$OUT" "mode:        enforcing    (from default)"

printf 'selinux --permissive\n\nselinux enforcing\n' >"$D/bad.ks"
expect_exit 2 "$SEINSTALL" profile "$D/bad.ks" --no-cmdline
assert_contains "error names file and line" "$ERR" "$D/bad.ks:3:"
printf '%%pre\necho hi\n' >"$D/noend.ks"
expect_exit 2 "$SEINSTALL" profile "$D/noend.ks" --no-cmdline --json
assert_contains "missing %end" "$ERR" "noend.ks:1: section %pre does not end with %end"
assert_json_error 2
expect_exit 2 "$SEINSTALL" profile "$D/missing.ks" --no-cmdline
printf 'seinstall.mode=strict\n' >"$D/bad.cmdline"
expect_exit 2 "$SEINSTALL" profile "$D/server.ks" --cmdline "$D/bad.cmdline"
assert_contains "bad boot option" "$ERR" "seinstall.mode=strict"

# Each decision names the file and line that made it: an included file by its own name.
mkdir -p "$D/inc"
printf 'lang en_US.UTF-8\n%%include inc/part.ks\n' >"$D/main.ks"
printf '# part\n\nselinux --permissive\n%%addon org_seinstall --policy=mls\n%%end\n' >"$D/inc/part.ks"
printf 'quiet inst.selinux=1 seinstall.unsupported=warn\n' >"$D/origin.cmdline"
expect_exit 0 "$SEINSTALL" profile "$D/main.ks" --cmdline "$D/origin.cmdline" --json
py_check 'o = d["policy_origin"]; assert o["file"].endswith("inc/part.ks") and o["line"] == 4, o; o = d["mode_origin"]; assert (d["mode_source"], o["line"], o["text"]) == ("boot", 1, "inst.selinux=1"), o; assert d["unsupported_origin"]["text"] == "seinstall.unsupported=warn"; assert d["relabel_origin"] is None' \
        "origins: included file and line, boot option"
expect_exit 0 "$SEINSTALL" profile "$D/main.ks" --no-cmdline
assert_contains "text output names the line" "$OUT" "inc/part.ks:3)"

# Issue 18 item 8: a line with very many words is bad input (exit 2, file and line), never
# "Argument list too long"; thousands of words are a line like any other.
python3 -c 'print("selinux" + " --perm" * 5000)' >"$D/many.ks"
expect_exit 0 "$SEINSTALL" profile "$D/many.ks" --no-cmdline
python3 -c 'print("lang en_US\npart" + " x" * 70000)' >"$D/toomany.ks"
expect_exit 2 "$SEINSTALL" profile "$D/toomany.ks" --no-cmdline
assert_contains "too many words names file and line" "$ERR" "toomany.ks:2: more than 65536 words"
