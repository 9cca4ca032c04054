#!/bin/bash
# What an installer can preview and steer on the command line:
#  - `apply --dry-run` and `install --dry-run` list each file they would change and write
#    nothing: the whole tree (every entry's type, mode, owner, link target, size, the sha256 of
#    every file, every xattr) is the same before and after; a real run then changes exactly the
#    files the dry run listed;
#  - `install --unsupported refuse|warn` and `--policy TYPE` rank as boot options (over the
#    profile, and over the boot options themselves, as --mode does), and the refusal message
#    names the option;
#  - `verify --all` lists every mismatch instead of three per directory and "... and N more",
#    and the human output says how to see them all.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
command -v getfattr >/dev/null || skip "getfattr (attr) is not installed"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON documents"

d=$(scratch_dir)
# tree_state DIR: everything a write could change, in a stable order.
tree_state() {
        (
                cd "$1" || exit 1
                find . -xdev -printf '%p %y %m %U:%G %s %l\n' | LC_ALL=C sort
                find . -xdev -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
                find . -xdev -print0 | LC_ALL=C sort -z |
                        xargs -0 -r getfattr -h -d -m - --absolute-names 2>/dev/null
        )
}
same_tree() { # WHAT DIR BEFORE: DIR's tree_state is still BEFORE (the difference, if not)
        local diff now
        now=$(tree_state "$2")
        diff=$(diff <(echo "$3") <(echo "$now")) || fail "$1 changed the tree: $diff"
        echo "ok: $1 left the tree as it was"
}
py() { # EXPR WHAT: assert the Python expression on the JSON document d = $OUT
        echo "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); $1" || fail "$2: $OUT"
        echo "ok: $2"
}
changed_files() { # the "file" of each change of the apply document in $OUT (path: key list)
        echo "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin)
for k in sys.argv[1:]: d = d[k]
print('\n'.join(sorted(c['file'] for c in d['changes'])))" "$@"
}

make_fs_image "$d/t.img" ext4 128
T=$d/t
mount_image "$d/t.img" "$T"
make_target "$T"
mkdir -p "$T/lib/systemd/system"
: >"$T/lib/systemd/system/seinstall-trial.service"
cat >"$d/server.ks" <<'KS'
selinux --enforcing
%addon org_seinstall --policy=default --unsupported=refuse --relabel=install
%end
KS

# ---- install --dry-run on a target never labeled -------------------------------------------
before=$(tree_state "$T")
[ -n "$before" ] || fail "tree_state read nothing"
expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/server.ks" --no-cmdline --dry-run
echo "$OUT"
assert_contains "install --dry-run says so" "$OUT" "seinstall install (dry run)"
assert_contains "install --dry-run counts the labels" "$OUT" "would change"
assert_contains "install --dry-run lists the config" "$OUT" "would change /etc/selinux/config:"
assert_contains "install --dry-run lists the mark" "$OUT" "would change /var/lib/seinstall/firstboot:"
assert_contains "install --dry-run ends saying nothing changed" "$OUT" "Dry run: nothing in the target was changed."
same_tree "the tree after install --dry-run" "$T" "$before"
expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/server.ks" --no-cmdline --dry-run --json
py 'assert d["dry_run"] is True and d["configure"]["dry_run"] is True and d["relabel"]["dry_run"] is True and d["relabel"]["changed"] > 0 and d["verify"] is None, d' \
        "install --dry-run --json: dry_run keys, labels to change, no verify"
dry=$(changed_files configure)
same_tree "the tree after install --dry-run --json" "$T" "$before"
expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/server.ks" --no-cmdline --json
py 'assert d["dry_run"] is False and d["configure"]["dry_run"] is False and d["relabel"]["changed"] > 0' \
        "install --json: a real run"
assert_eq "files the install changed = files its dry run listed" "$dry" "$(changed_files configure)"
expect_exit 0 "$SEINSTALL" verify --root "$T" --no-progress

# ---- apply --dry-run, in each mode --------------------------------------------------------
for args in "--mode trial --labeled --firstboot" "--mode permissive --relabel" \
        "--mode disabled" "--mode enforcing --labeled --firstboot"; do
        # shellcheck disable=SC2086
        {
                before=$(tree_state "$T")
                expect_exit 0 "$SEINSTALL" apply --root "$T" $args --dry-run
                assert_contains "apply $args --dry-run says so" "$OUT" "apply (dry run): nothing was written"
                same_tree "the tree after apply $args --dry-run" "$T" "$before"
                expect_exit 0 "$SEINSTALL" apply --root "$T" $args --dry-run --json
                py 'assert d["dry_run"] is True' "apply $args --dry-run --json says dry_run"
                dry=$(changed_files)
                [ -n "$dry" ] || fail "apply $args --dry-run listed no change"
                for f in $dry; do
                        assert_contains "apply $args --dry-run in words" \
                                "$("$SEINSTALL" apply --root "$T" $args --dry-run)" "would change $f:"
                done
                same_tree "the tree after apply $args --dry-run --json" "$T" "$before"
                expect_exit 0 "$SEINSTALL" apply --root "$T" $args --json
                py 'assert d["dry_run"] is False' "apply $args --json is a real run"
                assert_eq "files apply $args changed = files its dry run listed" "$dry" "$(changed_files)"
                [ "$before" != "$(tree_state "$T")" ] || fail "apply $args changed nothing"
        }
done
rm -f "$T/.autorelabel"

# ---- install --unsupported and --policy -----------------------------------------------------
make_fs_image "$d/b.img" ext4 64
B=$d/b
mount_image "$d/b.img" "$B"
make_target "$B"
mount -t tmpfs -o size=1m tmpfs "$B/home" || fail "mount tmpfs"
on_exit "umount -l '$B/home'"
expect_exit 1 "$SEINSTALL" install --root "$B" --profile "$d/server.ks" --no-cmdline
assert_contains "the refusal names the option" "$OUT" "--unsupported warn"
# the option over the profile's --unsupported=refuse
before=$(tree_state "$B")
expect_exit 0 "$SEINSTALL" install --root "$B" --profile "$d/server.ks" --no-cmdline \
        --unsupported warn --dry-run --json
py 'assert d["refused"] is False and d["check"]["mode_lowered"] is True and d["configure"]["config_mode"] == "permissive"' \
        "install --unsupported warn --dry-run: lowered to permissive, nothing refused"
same_tree "the tree after a lowered install --dry-run" "$B" "$before"
# the option over the boot option, as --mode
printf 'BOOT_IMAGE=/vmlinuz seinstall.unsupported=warn\n' >"$d/warn.cmdline"
expect_exit 1 "$SEINSTALL" install --root "$B" --profile "$d/server.ks" --cmdline "$d/warn.cmdline" \
        --unsupported refuse
assert_contains "--unsupported refuse over the boot option" "$OUT" "refuse /home"
expect_exit 2 "$SEINSTALL" install --root "$B" --unsupported maybe
assert_contains "a bad --unsupported" "$ERR" "refuse or warn"
expect_exit 0 "$SEINSTALL" install --root "$B" --profile "$d/server.ks" --no-cmdline \
        --unsupported warn
assert_eq "SELINUX= after --unsupported warn" "SELINUX=permissive" "$(grep '^SELINUX=' "$B/etc/selinux/config")"
expect_exit 0 "$SEINSTALL" verify --root "$B" --no-progress

# --policy over the profile's --policy=, with source option
printf 'selinux --permissive\n%%addon org_seinstall --policy=nosuch\n%%end\n' >"$d/nosuch.ks"
expect_exit 3 "$SEINSTALL" install --root "$T" --profile "$d/nosuch.ks" --no-cmdline --dry-run
expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/nosuch.ks" --no-cmdline --dry-run \
        --policy default --json
py 'assert d["policy"] == "default" and d["check"]["policy_type_source"] == "option", d["check"]' \
        "install --policy default wins over the profile's, as an option"
expect_exit 2 "$SEINSTALL" install --root "$T" --policy ../etc
assert_contains "a bad --policy" "$ERR" "invalid --policy '../etc'"

# ---- verify --all ------------------------------------------------------------------------------
mkdir -p "$T/srv/many"
for i in 1 2 3 4 5 6 7 8 9; do : >"$T/srv/many/f$i"; done
expect_exit 1 "$SEINSTALL" verify --root "$T" --no-progress
assert_contains "verify shows a few" "$OUT" "... and 6 more"
assert_contains "verify says how to see all" "$OUT" "seinstall verify --root $T --all"
case $OUT in *"/srv/many/f9"*) fail "verify without --all listed every file: $OUT" ;; esac
expect_exit 1 "$SEINSTALL" verify --root "$T" --no-progress --all
for i in 1 2 3 4 5 6 7 8 9; do assert_contains "verify --all" "$OUT" "/srv/many/f$i: no label"; done
case $OUT in *"more"*) fail "verify --all still abridged: $OUT" ;; esac
expect_exit 1 "$SEINSTALL" verify --root "$T" --no-progress --all --json
py 'e = [x for x in d["directories"] if x["path"] == "/srv/many"][0]; assert e["mismatches"] == 9 and len(e["examples"]) == 9, e' \
        "verify --all --json: every mismatch in examples"
expect_exit 1 "$SEINSTALL" verify --root "$T" --no-progress --json
py 'e = [x for x in d["directories"] if x["path"] == "/srv/many"][0]; assert len(e["examples"]) == 3, e' \
        "verify --json without --all: three examples"
echo "ok: install-options"
