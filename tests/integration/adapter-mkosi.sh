#!/bin/bash
# mkosi adapter: the finalize script runs install on the image root mkosi gives it in
# BUILDROOT (here a loop-mounted ext4), with the profile next to mkosi.conf, ignoring the
# builder's own kernel command line; it does nothing for the build image and refuses to run
# outside mkosi. mkosi is faked (its variables); seinstall is real.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

f=$TOP/installer-plugin/adapters/mkosi/mkosi.finalize
shellcheck -s sh "$f" || fail "shellcheck found problems in mkosi.finalize"
echo "ok: shellcheck passes on mkosi.finalize"
export PATH=$TOP/installer-plugin/cli:$PATH
d=$(scratch_dir)

expect_exit 2 env -u BUILDROOT sh "$f"
assert_contains "outside mkosi" "$ERR" "BUILDROOT"
mkdir -p "$d/untouched"
BUILDROOT=$d/untouched expect_exit 0 sh "$f" build
[ -z "$(ls -A "$d/untouched")" ] || fail "the build-image run changed the tree"
echo "ok: the build image is left alone"

require_command install
require_loop
make_fs_image "$d/root.img" ext4 64
mount_image "$d/root.img" "$d/root"
make_target "$d/root"
mkdir -p "$d/src"
printf 'selinux --permissive\n%%addon org_seinstall --policy=default\n%%end\n' >"$d/src/mkosi.seinstall.ks"

BUILDROOT=$d/root SRCDIR=$d/src expect_exit 0 sh "$f" final
assert_contains "finalize output" "$OUT" "--no-cmdline"
assert_contains "finalize output" "$OUT" "--profile $d/src/mkosi.seinstall.ks"
config=$(cat "$d/root/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the image"
assert_contains "image config" "$config" "SELINUX=permissive"
assert_contains "image /usr/bin/true label" "$(label_of "$d/root/usr/bin/true")" ":bin_t:"
assert_contains "image /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
