#!/bin/bash
# The relabel in the initramfs (issue 35): initramfs/initrd-relabel.sh, as the initramfs-tools
# boot script and the dracut hook run it, on a real root image mounted read-only as an
# initramfs leaves it, with a /home from the target's fstab on a second image. It must: label
# the root and /home with the target's file contexts, remove the marks, leave the root
# read-only and nothing mounted, list what it could not mount for the booted system, complete
# an enforcing choice that waited for the relabel; and do nothing with noautorelabel or without
# SELinux in the kernel; keep the marks when the relabel fails.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_tool getfattr attr

SCRIPT=$TOP/initramfs/initrd-relabel.sh
d=$(scratch_dir)
t=$d/root
make_fs_image "$d/root.img" ext4 64
make_fs_image "$d/home.img" ext4 64
mount_image "$d/root.img" "$t"
make_target "$t"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
mkdir -p "$t/srv" "$t/media/usb" "$t/var/lib/seinstall"
mkdir -p "$d/h" && mount -o loop "$d/home.img" "$d/h" || fail "mount home.img"
mkdir -p "$d/h/person" && echo hello >"$d/h/person/notes" && umount "$d/h"
homedev=$(losetup --show -f "$d/home.img") || fail "losetup home.img"
on_exit "losetup -d '$homedev'"
cat >"$t/etc/fstab" <<FSTAB
# the target's fstab
/dev/vda3  /  ext4  errors=remount-ro  0 1
$homedev  /home  ext4  defaults,nofail,x-systemd.device-timeout=5  0 2
UUID=00000000-0000-4000-8000-000000000000  /srv  ext4  defaults  0 2
/dev/sdz1  /media/usb  vfat  noauto,user  0 0
/dev/sdz2  /boot/efi  vfat  umask=0077  0 1
tmpfs  /tmp  tmpfs  defaults  0 0
/swapfile  none  swap  sw  0 0
FSTAB
# Made with SELinux off below /tmp (the file contexts say <<none>> there): no label; and one
# with a label of its own, which stays.
mkdir -p "$t/tmp/.XIM-unix" "$t/tmp/kept" && : >"$t/tmp/.XIM-unix/f"
setfattr -n security.selinux -v system_u:object_r:user_tmp_t:s0 "$t/tmp/kept" || fail "setfattr"
: >"$t/.autorelabel"
printf 'mode=enforcing\npolicy=default\nrelabel=pending\n' >"$t/var/lib/seinstall/firstboot"
# Read-only as an initramfs mounts it (on a read-write loop device: a loop,ro mount would make
# the device itself read-only).
umount "$t" || fail "umount the root"
rootdev=$(losetup --show -f "$d/root.img") || fail "losetup root.img"
on_exit "losetup -d '$rootdev'"
mount -o ro "$rootdev" "$t" || fail "mount the root read-only"
on_exit "umount -l '$t'"

# A kernel with SELinux: /sys/fs/selinux exists. The command line as a file.
mkdir -p "$d/sys/fs/selinux" "$d/nosys" "$d/run"
echo "root=/dev/vda3 ro quiet" >"$d/cmdline"
echo "root=/dev/vda3 ro noautorelabel" >"$d/cmdline-no"
run_script() {
        SEINSTALL_INITRD_CMDLINE=${CMDLINE:-$d/cmdline} SEINSTALL_INITRD_SYS=${SYS:-$d/sys} \
                SEINSTALL_INITRD_RUN=$d/run SEINSTALL=${CMD:-$SEINSTALL} sh "$SCRIPT" "$t"
}
ro_root() { findmnt -n -o OPTIONS "$t" | tr ',' '\n' | grep -qx ro; }
below() { findmnt -rn -o TARGET -R "$t" | grep -v "^$t\$" || true; }

# noautorelabel, and a kernel without SELinux: nothing happens, the mark stays.
CMDLINE=$d/cmdline-no expect_exit 0 run_script
assert_contains "noautorelabel: what it says" "$OUT" "noautorelabel is on the kernel command line"
SYS=$d/nosys expect_exit 0 run_script
assert_contains "no SELinux: what it says" "$OUT" "this kernel runs without SELinux"
[ -e "$t/.autorelabel" ] || fail "the mark went without a relabel"
assert_eq "label of /etc/hostname before" "" "$(label_of "$t/etc/hostname")"

# A failed relabel: the marks stay, the root is read-only again, nothing stays mounted.
printf '#!/bin/sh\nexit 3\n' >"$d/failing" && chmod +x "$d/failing"
CMD=$d/failing expect_exit 0 run_script
assert_contains "failed relabel: what it says" "$OUT" "the marks stay"
[ -e "$t/.autorelabel" ] || fail "the mark went after a failed relabel"
ro_root || fail "the root is not read-only again after a failed relabel"
assert_eq "mounts left below the root after a failure" "" "$(below)"
grep -qx 'SELINUX=permissive' "$t/etc/selinux/config" || fail "the config changed after a failed relabel"

# The relabel.
expect_exit 0 run_script
echo "$OUT" | sed 's/^/  | /'
assert_contains "/home mounted from the fstab" "$OUT" "mounted /home (ext4) to label it"
assert_contains "the relabel's summary" "$OUT" "relabel: "
assert_contains "what could not be mounted" "$OUT" "/srv: cannot be mounted in the initramfs"
case $OUT in *boot/efi*) fail "the single-label /boot/efi (vfat) was tried: $OUT" ;; esac
[ -e "$t/.autorelabel" ] && fail "/.autorelabel is still there after the relabel"
ro_root || fail "the root is not read-only again after the relabel"
assert_eq "mounts left below the root" "" "$(below)"
assert_eq "left for the booted system" "/srv" "$(cat "$d/run/relabel-mounts")"
assert_contains "label of /etc/fstab" "$(label_of "$t/etc/fstab")" ":etc_t:"
assert_contains "label of /usr/bin/true" "$(label_of "$t/usr/bin/true")" ":bin_t:"
if [ -x /usr/bin/chcon ] && [ -x /usr/bin/stat ]; then
        assert_eq "label of /tmp/.XIM-unix (none before)" system_u:object_r:tmp_t:s0 "$(label_of "$t/tmp/.XIM-unix")"
        assert_eq "label of /tmp/.XIM-unix/f (none before)" system_u:object_r:tmp_t:s0 "$(label_of "$t/tmp/.XIM-unix/f")"
        assert_eq "label of /tmp/kept (its own)" system_u:object_r:user_tmp_t:s0 "$(label_of "$t/tmp/kept")"
fi
assert_contains "label of /var/lib/seinstall/firstboot" "$(label_of "$t/var/lib/seinstall/firstboot")" ":var_lib_t:"
mount -o loop,ro "$homedev" "$d/h" || fail "mount /home's image"
assert_contains "label of /home/person/notes (on the /home filesystem)" \
        "$(label_of "$d/h/person/notes")" ":user_home_t:"
umount "$d/h"
# /srv is left: enforcing waits for it, the first-boot screen finishes the choice.
assert_contains "enforcing waits for /srv" "$OUT" "enforcing waits: /srv"
grep -qx 'SELINUX=permissive' "$t/etc/selinux/config" || fail "the config changed with /srv unlabeled"

# Everything mountable: the deferred enforcing is completed in the config.
mount -o remount,rw "$t" && sed -i '/\/srv/d' "$t/etc/fstab" && : >"$t/etc/selinux/.autorelabel" &&
        mount -o remount,ro "$t" || fail "preparing the second run"
expect_exit 0 run_script
[ -e "$t/etc/selinux/.autorelabel" ] && fail "/etc/selinux/.autorelabel is still there after the relabel"
[ -e "$d/run/relabel-mounts" ] && fail "a list of mounts for later with nothing left"
assert_contains "enforcing completed" "$OUT" "says enforcing now"
grep -qx 'SELINUX=enforcing' "$t/etc/selinux/config" || fail "the config does not say enforcing: $(cat "$t/etc/selinux/config")"
ro_root || fail "the root is not read-only again"
assert_eq "mounts left below the root" "" "$(below)"
# Nothing pending: nothing runs.
expect_exit 0 run_script
assert_eq "no mark: no output" "" "$OUT"

# The generator turns the list into units before local-fs.target.
mkdir -p "$d/gen" "$d/genrun/seinstall"
printf '/srv\n/var/lib/data dir\n' >"$d/genrun/seinstall/relabel-mounts"
sed "s|/run/seinstall/relabel-mounts|$d/genrun/seinstall/relabel-mounts|; s|@UNITDIR@|/lib/systemd/system|" \
        "$TOP/initramfs/seinstall-relabel-generator" >"$d/generator"
expect_exit 0 sh "$d/generator" "$d/gen" "$d/gen" "$d/gen"
assert_eq "units the generator pulls in" \
        "seinstall-relabel-mount@srv.service seinstall-relabel-mount@var-lib-data\\x20dir.service" \
        "$(ls "$d/gen/local-fs.target.wants" | tr '\n' ' ' | sed 's/ $//')"
if command -v systemd-analyze >/dev/null; then
        mkdir -p "$d/units" && cp "$TOP/firstboot/seinstall-relabel-mount@.service" "$d/units/"
        out=$(SYSTEMD_UNIT_PATH=$d/units: systemd-analyze verify --man=no 'seinstall-relabel-mount@srv.service' 2>&1)
        [ -z "$out" ] || fail "systemd-analyze verify seinstall-relabel-mount@srv.service: $out"
        echo "ok: systemd-analyze verify seinstall-relabel-mount@srv.service"
fi
echo "PASS"
