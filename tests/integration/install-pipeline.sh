#!/bin/bash
# The install pipeline reads each input once: one policy load, one file_contexts compile, one
# read of /etc/selinux/config and one check per install (install.c carries them from stage to
# stage), whatever the outcome: a full install, a second one, a refusal, a deferred relabel,
# disabled. Counted by the library itself (tests/helpers/install-counts.c), not timed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop

COUNTS=${SEINSTALL_BUILD:-build}/tests/helpers/install-counts
[ -x "$COUNTS" ] || fail "$COUNTS is not built (make $COUNTS)"
d=$(scratch_dir)

# counts WHAT EXPECTED ROOT [MODE [firstboot]]
counts() {
        local what=$1 want=$2 got
        shift 2
        got=$("$COUNTS" "$@") || fail "$what: install-counts $*: exit $?"
        assert_eq "$what" "$want" "$got"
}

make_fs_image "$d/a.img" ext4 128
mount_image "$d/a.img" "$d/a"
make_target "$d/a"
counts "full install" "refused=0 policy_loads=1 fc_compiles=1 config_reads=1 checks=1" "$d/a"
assert_contains "labeled by the pipeline" "$(label_of "$d/a/usr/bin/true")" ":bin_t:"
assert_contains "the config written last is labeled" "$(label_of "$d/a/etc/selinux/config")" \
        ":selinux_config_t:"
counts "second install" "refused=0 policy_loads=1 fc_compiles=1 config_reads=1 checks=1" "$d/a"
counts "relabel at first boot" "refused=0 policy_loads=1 fc_compiles=0 config_reads=1 checks=1" \
        "$d/a" permissive firstboot
counts "disabled" "refused=0 policy_loads=1 fc_compiles=0 config_reads=1 checks=1" "$d/a" disabled

# a refusal stops after the check: nothing else is read
make_fs_image "$d/b.img" ext4 64
mount_image "$d/b.img" "$d/b"
make_target "$d/b"
mount -t tmpfs -o size=1m tmpfs "$d/b/home" || fail "mount tmpfs"
on_exit "umount -l '$d/b/home'"
counts "refused" "refused=1 policy_loads=1 fc_compiles=0 config_reads=1 checks=1" "$d/b"
