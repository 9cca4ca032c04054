#!/bin/bash
# The example profiles in profiles/: each parses to the settings its comments promise, and
# the "data mount on an unsupported filesystem" one installs (lowered to permissive, with a
# warning) where the server profile refuses the same target.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

P=$TOP/profiles
settings() { # PROFILE -> "mode unsupported relabel"
        "$SEINSTALL" profile "$P/$1" --no-cmdline --json |
                sed -E 's/.*"mode": "([a-z]+)".*"unsupported": "([a-z]+)".*"relabel": "([a-z]+)".*/\1 \2 \3/'
}
n=0
for f in "$P"/*.ks; do
        expect_exit 0 "$SEINSTALL" profile "$f" --no-cmdline
        n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "expected at least 5 example profiles, found $n"
assert_eq "server-enforcing.ks" "enforcing refuse install" "$(settings server-enforcing.ks)"
assert_eq "workstation.ks" "enforcing refuse install" "$(settings workstation.ks)"
assert_eq "permissive-trial.ks" "permissive refuse install" "$(settings permissive-trial.ks)"
assert_eq "disabled.ks" "disabled refuse install" "$(settings disabled.ks)"
assert_eq "data-unsupported-warn.ks" "enforcing warn install" "$(settings data-unsupported-warn.ks)"

require_loop
d=$(scratch_dir)
make_fs_image "$d/root.img" ext4 128
mount_image "$d/root.img" "$d/t"
make_target "$d/t"
# a data mount that cannot keep per-file labels (this kernel mounts no exFAT: tmpfs stands in)
mkdir -p "$d/t/srv/data"
mount -t tmpfs -o size=1m tmpfs "$d/t/srv/data" || fail "mount tmpfs"
on_exit "umount -l '$d/t/srv/data'"

expect_exit 1 "$SEINSTALL" install --root "$d/t" --profile "$P/server-enforcing.ks" --no-cmdline
assert_contains "server profile refuses" "$OUT" "refuse /srv/data"
[ ! -e "$d/t/etc/selinux/config" ] || fail "a refused install wrote the config"

expect_exit 0 "$SEINSTALL" install --root "$d/t" --profile "$P/data-unsupported-warn.ks" --no-cmdline
assert_contains "data profile warns" "$OUT" "warn /srv/data"
assert_contains "data profile lowers the mode" "$OUT" "Installed: SELinux permissive"
assert_eq "SELINUX=" "SELINUX=permissive" "$(grep '^SELINUX=' "$d/t/etc/selinux/config")"

expect_exit 0 "$SEINSTALL" install --root "$d/t" --profile "$P/disabled.ks" --no-cmdline
assert_eq "SELINUX= (disabled.ks)" "SELINUX=disabled" "$(grep '^SELINUX=' "$d/t/etc/selinux/config")"
assert_eq "GRUB_CMDLINE_LINUX (disabled.ks, Debian kernel)" 'GRUB_CMDLINE_LINUX=""' \
        "$(grep '^GRUB_CMDLINE_LINUX=' "$d/t/etc/default/grub")"
