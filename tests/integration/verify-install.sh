#!/bin/bash
# seinstall install ends with verify --fix, after everything it wrote: the boot loader's
# regeneration (update-grub, run in the target with --regenerate) writes a file after the
# relabel, as the real one writes fonts and grub.cfg; the install's last stage finds it without
# a label, fixes it and says so, and `seinstall verify` afterwards finds the target clean.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool getfattr attr
require_loop
require_static_busybox "to run update-grub in the target"

d=$(scratch_dir)
make_fs_image "$d/t.img" ext4 128
T=$d/t
mount_image "$d/t.img" "$T"
make_target "$T"
mkdir -p "$T/bin" "$T/usr/sbin" "$T/boot/grub"
cp /bin/busybox "$T/bin/busybox"
printf '%s\n' '#!/bin/busybox sh' \
        '/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg' \
        '/bin/busybox echo font >/boot/grub/unicode.pf2' >"$T/usr/sbin/update-grub"
chmod +x "$T/usr/sbin/update-grub"
cat >"$d/server.ks" <<'KS'
selinux --enforcing
%addon org_seinstall --policy=default --unsupported=refuse --relabel=install
%end
KS

expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/server.ks" --no-cmdline --regenerate
echo "$ERR"
[ -s "$T/boot/grub/unicode.pf2" ] || fail "the fake update-grub did not run in the target"
assert_contains "the last stage says what it fixed" "$ERR" "verify: fixed /boot/grub/unicode.pf2: no label, now"
want=$(echo "$ERR" | sed -n 's|.*verify: fixed /boot/grub/unicode.pf2: no label, now ||p')
assert_eq "label of the file written after the relabel" "$want" \
        "$(getfattr --only-values -n security.selinux "$T/boot/grub/unicode.pf2" | tr -d '\0')"
expect_exit 0 "$SEINSTALL" verify --root "$T" --json --no-progress
echo "$OUT" | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["mismatches"] == 0, j' ||
        fail "verify after install: $OUT"
echo "ok: the target is clean after install"

# A second install: update-grub does not run (the GRUB defaults did not change), nothing was
# written after the relabel, and verify fixes nothing.
expect_exit 0 "$SEINSTALL" install --root "$T" --profile "$d/server.ks" --no-cmdline --regenerate
case $ERR in *"verify: fixed"*) fail "the second install fixed labels: $ERR" ;; esac
echo "ok: a second install has nothing to fix"
echo "ok: verify-install"
