#!/bin/bash
# make demo: build a sample target out of loop images and show what seinstall does with it.
#
# Each step is a function; DEMO_STEPS lists them in order. To show more (apply, install,
# relabel), add a function and put its name in DEMO_STEPS. Steps share:
#   $SEINSTALL  the command        $DEMO_DIR  scratch directory and the current directory
#                                             (removed at exit; paths below are relative to it)
#   $TARGET     the mounted good target (ext4 / with xfs /home), after demo_mount_target
#   $GOOD_PLAN  fstab plan: ext4 /, vfat /boot/efi, xfs /home (types probed by libblkid)
#   $SEED_PLAN  fstab plan: the seed's mistake, ReiserFS / (with the same /boot/efi, /home)
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SEINSTALL=${SEINSTALL:-$TOP/${SEINSTALL_BUILD:-build}/bin/seinstall}
DEMO_STEPS=(demo_images demo_check_good_plan demo_mount_target demo_check_mounted
        demo_check_seed demo_check_seed_json demo_check_seed_warn demo_populate_target
        demo_profile demo_install demo_status)

if [ -t 1 ]; then
        B=$'\e[1m' N=$'\e[0m'
else
        B='' N=''
fi
# say TEXT: a step's title. run CMD...: show the command, run it, show its exit status.
say() {
        printf '\n%s==== %s%s\n' "$B" "$*" "$N"
}
run() {
        local rc
        printf '%s$ %s%s\n' "$B" "${*/#$SEINSTALL/seinstall}" "$N"
        "$@" && rc=0 || rc=$?
        printf '%s(exit status %d)%s\n' "$B" "$rc" "$N"
        return 0
}
die() {
        echo "demo: $*" >&2
        exit 1
}

cleanup() {
        [ -n "${DEMO_DIR:-}" ] || return 0
        cd / || true
        if findmnt -rn "$DEMO_DIR/target" >/dev/null 2>&1; then
                umount -R "$DEMO_DIR/target" 2>/dev/null || umount -R -l "$DEMO_DIR/target"
        fi
        rm -rf "$DEMO_DIR"
}

# ---- steps -----------------------------------------------------------------------------------

demo_images() {
        say "Making loop images: ext4 /, vfat /boot/efi, xfs /home, and the seed's ReiserFS /"
        truncate -s 256M root.img
        truncate -s 64M efi.img
        truncate -s 320M home.img
        truncate -s 64M seed-root.img
        mkfs.ext4 -q -F -L root root.img || die "mkfs.ext4 failed"
        mkfs.vfat -n EFI efi.img >/dev/null || die "mkfs.vfat failed"
        mkfs.xfs -q -f -L home home.img || die "mkfs.xfs failed"
        mkfs.reiserfs -q -f -l seedroot seed-root.img >/dev/null 2>&1 ||
                die "mkfs.reiserfs failed"
        ls -s --block-size=M ./*.img

        GOOD_PLAN=good.fstab
        cat >"$GOOD_PLAN" <<EOF
# The good layout, as an installer plans it (types left to libblkid)
root.img       /          auto  errors=remount-ro  0 1
efi.img        /boot/efi  auto  umask=0077         0 1
home.img       /home      auto  defaults           0 2
EOF
        SEED_PLAN=seed.fstab
        cat >"$SEED_PLAN" <<EOF
# The seed's layout: the root on ReiserFS
seed-root.img  /          auto  defaults    0 1
efi.img        /boot/efi  auto  umask=0077  0 1
home.img       /home      auto  defaults    0 2
EOF
        echo
        cat "$GOOD_PLAN"
        echo
        cat "$SEED_PLAN"
}

demo_check_good_plan() {
        say "Before formatting: the good plan, in enforcing mode (the host's policy: the target is empty)"
        run "$SEINSTALL" check --root "$TARGET" --plan "$GOOD_PLAN" --mode enforcing
}

demo_mount_target() {
        say "Mounting the good target: ext4 / with xfs /home (this kernel cannot mount vfat)"
        mount -o loop root.img "$TARGET" || die "cannot mount the ext4 image"
        mkdir -p "$TARGET/home" "$TARGET/boot/efi"
        mount -o loop home.img "$TARGET/home" || die "cannot mount the xfs image"
        findmnt -R -o TARGET,SOURCE,FSTYPE "$TARGET"
}

demo_check_mounted() {
        say "After mounting: the mounted target, probed live (can the kernel store security.selinux?)"
        run "$SEINSTALL" check --root "$TARGET" --mode enforcing --json
}

demo_check_seed() {
        say "The seed's mistake: ReiserFS / in enforcing mode is refused"
        run "$SEINSTALL" check --root "$TARGET" --plan "$SEED_PLAN" --mode enforcing
}

demo_check_seed_json() {
        say "The same, as JSON for an installer"
        run "$SEINSTALL" check --root "$TARGET" --plan "$SEED_PLAN" --mode enforcing --json
}

demo_check_seed_warn() {
        say "With seinstall.unsupported=warn: accepted, but only permissive (never enforcing on unlabeled files)"
        run "$SEINSTALL" check --root "$TARGET" --plan "$SEED_PLAN" --mode enforcing --unsupported warn
}

demo_populate_target() {
        say "Putting a small Debian-like system on the good target (policy, kernel config, GRUB)"
        [ -d /etc/selinux/default/policy ] || die "the host has no selinux-policy-default: run 'make deps'"
        mkdir -p "$TARGET"/{etc/selinux,etc/default,boot,usr/bin,var/log,home/person,root,tmp}
        cp -a /etc/selinux/default "$TARGET/etc/selinux/"
        cp /etc/selinux/semanage.conf "$TARGET/etc/selinux/" 2>/dev/null || true
        # Debian 12's kernel: SELinux built in, AppArmor first: SELinux needs security=selinux
        printf '%s\n' CONFIG_SECURITY_SELINUX=y '# CONFIG_SECURITY_SELINUX_BOOTPARAM is not set' \
                'CONFIG_LSM="landlock,lockdown,yama,loadpin,safesetid,integrity,apparmor,selinux,smack,tomoyo,bpf"' \
                >"$TARGET/boot/config-6.1.0-13-amd64"
        printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' \
                >"$TARGET/etc/default/grub"
        cp /bin/true "$TARGET/usr/bin/true"
        echo "notes" >"$TARGET/home/person/notes"
        echo demo >"$TARGET/etc/hostname"
        run "$SEINSTALL" status --root "$TARGET"
}

demo_profile() {
        say "The unattended profile (kickstart) and the settings it gives, with their sources"
        grep -v '^#' "$TOP/profiles/server-enforcing.ks" | grep -v '^$'
        echo "BOOT_IMAGE=/vmlinuz quiet" >installer.cmdline
        run "$SEINSTALL" profile "$TOP/profiles/server-enforcing.ks" --cmdline installer.cmdline \
                --root "$TARGET"
}

demo_install() {
        say "A whole install from the profile: check, policy, relabel, configure"
        run "$SEINSTALL" install --root "$TARGET" --profile "$TOP/profiles/server-enforcing.ks" \
                --cmdline installer.cmdline --no-progress
        echo
        grep -H '^GRUB_CMDLINE_LINUX=' "$TARGET/etc/default/grub"
        grep -H '^SELINUX' "$TARGET/etc/selinux/config"
        for f in usr/bin/true etc/hostname home/person/notes etc/selinux/config; do
                printf '%-22s %s\n' "/$f" "$(getfattr --only-values -n security.selinux "$TARGET/$f" 2>/dev/null | tr -d '\0')"
        done
}

demo_status() {
        say "The installed target's state (what the first-boot screen starts from)"
        run "$SEINSTALL" status --root "$TARGET"
}

# ---- main ------------------------------------------------------------------------------------

[ "$(id -u)" = 0 ] || die "needs root (loop devices and mounts): run 'sudo make demo'"
[ -x "$SEINSTALL" ] || die "$SEINSTALL is not built: run 'make'"
for tool in mkfs.ext4 mkfs.vfat mkfs.xfs mkfs.reiserfs findmnt; do
        command -v "$tool" >/dev/null || die "$tool is missing: run 'make deps'"
done
DEMO_DIR=$(mktemp -d "${TMPDIR:-/tmp}/seinstall-demo.XXXXXX") || die "mktemp failed"
trap cleanup EXIT
trap 'exit 130' INT TERM
TARGET=target
cd "$DEMO_DIR" || die "cannot enter $DEMO_DIR"
mkdir -p "$TARGET"

for step in "${DEMO_STEPS[@]}"; do
        "$step"
done
say "Done: the good layout is accepted, the seed's ReiserFS root is refused, and the good target installed enforcing. Cleaning up."
