#!/bin/bash
# Never half an install (issue 32): when update-grub cannot run in its sandbox (no bubblewrap,
# as in debian-installer's initrd) apply and install write nothing and say why with the fix;
# when it runs and fails, every file apply wrote is put back (GRUB's defaults, grub.cfg, the
# relabel mark, the first-boot mark). The first-boot screen's non-interactive path the same.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_static_busybox "to run update-grub in the target"
require_tool bwrap bubblewrap

d=$(scratch_dir)
t=$d/t
make_fs_image "$d/target.img" ext4
mount_image "$d/target.img" "$t"
make_target "$t"
# the mount points the sandbox mounts on: an installed system has them
mkdir -p "$t/bin" "$t/usr/sbin" "$t/boot/grub" "$t/dev" "$t/proc" "$t/sys" "$t/run"
cp /bin/busybox "$t/bin/busybox"
printf 'menuentry "old" {\n\tlinux /vmlinuz root=/dev/sda1\n}\n' >"$t/boot/grub/grub.cfg"

# snapshot: every file of the target with its bytes, and every name
snapshot() { (cd "$t" && find . -path ./lost+found -prune -o -print0 | sort -z |
        xargs -0 -I{} sh -c 'if [ -f "{}" ] && [ ! -L "{}" ]; then echo "{} $(sha256sum <"{}")"; else echo "{}"; fi'); }
before=$(snapshot)
unchanged() {
        local what=$1 now
        now=$(snapshot)
        [ "$now" = "$before" ] ||
                fail "$what changed the target: $(diff <(echo "$before") <(echo "$now") | head -20)"
        echo "ok: $what left the target exactly as it was"
}

# --- no bubblewrap: nothing written, the reason and the fix said ----------------------------
printf '#!/bin/busybox sh\n/bin/busybox touch /boot/grub/RAN\n' >"$t/usr/sbin/update-grub"
chmod +x "$t/usr/sbin/update-grub"
before=$(snapshot)
nobwrap() { unshare -m sh -c 'mount --bind /dev/null /usr/bin/bwrap && exec "$@"' sh "$@"; }
expect_exit 3 nobwrap "$SEINSTALL" apply --root "$t" --mode enforcing --regenerate
assert_contains "the reason" "$ERR" "install bubblewrap"
assert_contains "nothing changed, said" "$ERR" "Nothing was changed"
assert_contains "the fix without --regenerate" "$ERR" "Without --regenerate"
unchanged "apply --regenerate without bubblewrap"
expect_exit 3 nobwrap "$SEINSTALL" install --root "$t" --mode enforcing --regenerate \
        --no-cmdline --no-progress
assert_contains "install: the reason" "$ERR" "install bubblewrap"
[ ! -e "$t/boot/grub/RAN" ] || fail "update-grub ran without its sandbox"
expect_exit 3 nobwrap "$SEINSTALL" apply --root "$t" --mode enforcing --regenerate --json
printf '%s' "$OUT" >"$d/err.json"
json_assert "$d/err.json" -- '"install bubblewrap" in d["error"]["message"]' \
        '"Nothing was changed" in d["error"]["message"]'
unchanged "apply --regenerate --json without bubblewrap"

# --- update-grub fails after writing: every file put back ------------------------------------
cat >"$t/usr/sbin/update-grub" <<'FAILING'
#!/bin/busybox sh
echo "half-written grub.cfg" >/boot/grub/grub.cfg
echo "update-grub: error: something went wrong" >&2
exit 1
FAILING
chmod +x "$t/usr/sbin/update-grub"
before=$(snapshot)
expect_exit 3 "$SEINSTALL" apply --root "$t" --mode enforcing --regenerate
assert_contains "the failure" "$ERR" "/usr/sbin/update-grub failed in $t (exit status 1)"
assert_contains "the rollback said" "$ERR" "every file this apply wrote in $t is back as it was"
unchanged "apply with a failing update-grub"
if [ -x "$SEINSTALL_FIRSTBOOT" ]; then
        expect_exit 3 "$SEINSTALL_FIRSTBOOT" --root "$t" --mode enforcing --yes
        unchanged "seinstall-firstboot --mode enforcing --yes with a failing update-grub"
fi

# --- and a good update-grub still works: the journal ends with the run ------------------------
printf '#!/bin/busybox sh\n/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg\n' \
        >"$t/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
assert_contains "grub.cfg regenerated" "$(cat "$t/boot/grub/grub.cfg")" "security=selinux"
assert_contains "the config written" "$(cat "$t/etc/selinux/config")" "SELINUX=permissive"
