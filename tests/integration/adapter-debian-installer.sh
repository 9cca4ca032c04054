#!/bin/bash
# debian-installer adapter, in d-i's own environment. Host: Debian 12's netboot initrd
# (debian-installer-12-netboot-amd64) unpacked and used as a chroot: its busybox, cdebconf
# with its text frontend, udpkg and the templates of every udeb in it (loaded by its own
# S20templates startup script). partman-base (the one partman udeb the archive serves here)
# and seinstall-udeb, built by adapters/debian-installer/build-udeb with dpkg-deb, are
# installed with d-i's udpkg, which loads their templates into cdebconf.
# - partman: partman-base's own /bin/partman runs its main loop; the check.d protocol sends
#   the person back to the partitioning screens when 60seinstall refuses. Stand-ins: the
#   partitioning screens (display.d: "the person" plans ReiserFS, then ext4) and the fstab.d
#   script that prints the plan (partman-basicfilesystems/partman-target do not download
#   here); partman's init.d/commit.d/finish.d scripts, which need parted_server and disks,
#   are removed. The refusal is shown by cdebconf's text frontend with seinstall's template.
# - finish-install: 95seinstall runs in the chroot as finish-install runs its hooks (the
#   finish-install udeb is not served here) on a real loop-mounted ext4 /target.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
. "$TOP/tests/hosts/di-env.sh"
require_tool shellcheck shellcheck

a=$TOP/installer-plugin/adapters/debian-installer
check_hook=$a/partman/check.d/60seinstall
finish_hook=$a/finish-install.d/95seinstall
shellcheck -s sh "$check_hook" "$finish_hook" "$a/build-udeb" || fail "shellcheck found problems in the d-i files"
echo "ok: shellcheck passes on both hooks and build-udeb"
# The templates the hooks show exist, each with a type and a description using REASON.
for t in seinstall/refused seinstall/install-refused seinstall/failed; do
        grep -q "^Template: $t\$" "$a/templates" || fail "templates: $t missing"
        awk -v t="$t" '$0 == "Template: " t {f = 1; next} /^Template:/ {f = 0} f' "$a/templates" |
                grep -q 'REASON' || fail "templates: $t does not show \${REASON}"
done
echo "ok: templates seinstall/refused, install-refused and failed show the reason"

require_loop
require_command check
require_command install
command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the udeb"
cache=$HOSTS_CACHE
cache_dir "$cache"
if ! why=$(di_env "$cache"); then
        skip "debian-installer's environment cannot be set up: $why"
fi
di_env "$cache" >/dev/null || fail "di_env failed the second time"
echo "host: $DI_VERSION (netboot initrd unpacked in $DI_ROOT), $(basename "$DI_UDEBS"/partman-base_*.udeb)"

d=$(scratch_dir)
install_tree "$d/stage" PREFIX=/usr
udeb=$(TMPDIR=$d "$a/build-udeb" "$d/stage" "$d/out") || fail "build-udeb failed"
assert_eq "the package type" udeb "$(dpkg-deb -f "$udeb" Package-Type)"
dpkg-deb -c "$udeb" | awk '{print "  " $6}'

# di_run NAME CMDLINE TARGET_IMAGE STDIN SCRIPT [UDEB...]: run SCRIPT with d-i's /bin/sh in a
# chroot of a fresh copy (overlay) of the installer, after what d-i does at start and when it
# loads the udebs (default: partman-base and seinstall-udeb; partman-base's postinst runs
# partman's init.d, which unmounts /target); /proc/cmdline reads CMDLINE; TARGET_IMAGE (or "")
# is loop-mounted on /target. STDIN is what the person types. Output in $d/NAME.log.
di_run() {
        local name=$1 cmdline=$2 img=$3 input=$4 script=$5 udebs
        shift 5
        udebs=${*:-/tmp/partman-base_*.udeb /tmp/seinstall-udeb_*.udeb}
        mkdir -p "$d/$name/up" "$d/$name/work" "$d/$name/root"
        printf '%s\n' "$cmdline" >"$d/$name/cmdline"
        printf '%b' "$input" >"$d/$name/stdin"
        cp "$udeb" "$DI_UDEBS"/partman-base_*.udeb "$d/$name/up/" 2>/dev/null
        mkdir -p "$d/$name/up/tmp" && mv "$d/$name/up/"*.udeb "$d/$name/up/tmp/"
        cat >"$d/$name/up/tmp/run.sh" <<EOF
sh /lib/debian-installer-startup.d/S20templates || echo "S20templates failed"
for u in $udebs; do
        udpkg -i "\$u" >/tmp/udpkg.log 2>&1 || { echo "udpkg -i \$u failed"; cat /tmp/udpkg.log; }
done
$script
EOF
        # shellcheck disable=SC2016 # the inner shell's variables
        timeout 300 unshare -m --propagation private bash -c '
                set -e
                lower=$1 dir=$2 img=$3
                m=$dir/root
                mount -t overlay overlay -o "lowerdir=$lower,upperdir=$dir/up,workdir=$dir/work" "$m"
                mount -t proc proc "$m/proc"
                mount --bind "$dir/cmdline" "$m/proc/cmdline"
                mount --bind /dev "$m/dev"
                mkdir -p "$m/target"
                [ -z "$img" ] || mount -o loop "$img" "$m/target"
                exec chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
                        DEBIAN_FRONTEND=text /bin/sh /tmp/run.sh <"$dir/stdin"' \
                _ "$DI_ROOT" "$d/$name" "$img" >"$d/$name.log" 2>&1
        DI_RC=$?
        echo "---- $name (exit $DI_RC): d-i's output"
        grep -v '^(process:[0-9]*)' "$d/$name.log" | sed 's/^/  | /'
}
di_cmdline="BOOT_IMAGE=/install.amd/vmlinuz vga=788 --- quiet"

# The partman run: partman-base's loop with "the person" in display.d.
# shellcheck disable=SC2016 # run by d-i's shell
partman_script='
echo "seinstall-udeb templates in cdebconf: $(grep -c "^Name: seinstall/" /var/lib/cdebconf/templates.dat)"
rm -f /lib/partman/init.d/* /lib/partman/commit.d/* /lib/partman/finish.d/* /lib/partman/display.d/*
mkdir -p /lib/partman/fstab.d
cat >/lib/partman/display.d/50person <<"P"
#!/bin/sh
n=$(cat /tmp/rounds 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >/tmp/rounds
[ $n -le 3 ] || exit 255
fs=ext4
[ $n != 1 ] || fs=reiserfs
echo "PERSON: round $n: / on $fs" >&2
printf "/dev/vda1 / $fs defaults 0 1\n/dev/vda2 none swap sw 0 0\n" >/tmp/plan
exit 100
P
printf "#!/bin/sh\ncat /tmp/plan\n" >/lib/partman/fstab.d/50plan
chmod +x /lib/partman/display.d/50person /lib/partman/fstab.d/50plan
partman
echo "PARTMAN-EXIT $? after $(cat /tmp/rounds) rounds"'

# 1. The seed's layout: refused with the template shown; round 2 (ext4) passes and partman
#    asks its own confirmation, which the person answers with 1 (Yes).
di_run partman "$di_cmdline" "" '\n1\n' "$partman_script"
log=$(cat "$d/partman.log")
assert_contains "templates loaded by udpkg" "$log" "seinstall-udeb templates in cdebconf: 3"
assert_contains "cdebconf's text frontend" "$log" "!! ERROR: SELinux cannot label the file systems chosen"
dialog=$(sed -n '/!! ERROR: SELinux cannot label/,/Press enter to continue/p' <<<"$log")
assert_contains "the dialog" "$dialog" "seinstall checked the partitioning against the SELinux policy and refused it"
assert_contains "the dialog" "$dialog" "reiserfs"
assert_contains "the dialog" "$dialog" "system_u:object_r:nfs_t:s0"
assert_contains "the dialog" "$dialog" "fix: format /dev/vda1 for / as ext4"
assert_contains "partman went back to the partitioning screens" "$log" "PERSON: round 2: / on ext4"
assert_contains "partman's own confirmation after the check passed" "$log" "Continue with the installation?"
assert_contains "partman finished" "$log" "PARTMAN-EXIT 0 after 2 rounds"

# 2. Booted with seinstall.unsupported=warn: the same layout goes through at once.
di_run partman-warn "$di_cmdline seinstall.unsupported=warn" "" '1\n' "$partman_script"
log=$(cat "$d/partman-warn.log")
case $log in *"!! ERROR"*) fail "seinstall.unsupported=warn still showed an error" ;; esac
assert_contains "check under seinstall.unsupported=warn" "$log" "permissive"
assert_contains "partman finished" "$log" "PARTMAN-EXIT 0 after 1 rounds"

# 3. finish-install: the hook on a real /target, as finish-install runs it.
make_fs_image "$d/target.img" ext4 64
mount_image "$d/target.img" "$d/t"
make_target "$d/t"
umount "$d/t" || fail "umount $d/t"
# shellcheck disable=SC2016 # run by d-i's shell
finish_script='
cat >/tmp/finish-install <<"F"
#!/bin/sh
# As finish-install runs its hooks: from a confmodule, so they share its cdebconf frontend.
. /usr/share/debconf/confmodule
/usr/lib/finish-install.d/95seinstall
echo "HOOK-EXIT $?" >&2
F
chmod +x /tmp/finish-install && /tmp/finish-install'
di_run finish "$di_cmdline" "$d/target.img" '\n' "$finish_script" "/tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish.log")
assert_contains "finish-install hook" "$log" "HOOK-EXIT 0"
case $log in *"!! ERROR"*) fail "the finish-install hook showed an error on success" ;; esac
mount_image "$d/target.img" "$d/t"
assert_contains "target config" "$(cat "$d/t/etc/selinux/config")" "SELINUX=enforcing"
assert_contains "target GRUB defaults" "$(cat "$d/t/etc/default/grub")" "security=selinux"
assert_contains "target /etc/hostname label" "$(label_of "$d/t/etc/hostname")" ":net_conf_t:"
changes=$(setfiles -F -n -v -r "$d/t" "$d/t/etc/selinux/default/contexts/files/file_contexts" "$d/t" 2>&1)
[ -z "$changes" ] || fail "setfiles -F -n would still change labels on /target: $changes"
echo "ok: setfiles -F -n finds no label to change on /target"
rm -f "$d/t/etc/selinux/config"
umount "$d/t" || fail "umount $d/t"

# 4. An install that must be refused: /target/home on tmpfs. The dialog says why.
finish_script="
mount -t tmpfs tmpfs /target/home
$finish_script"
di_run finish-refused "$di_cmdline" "$d/target.img" '\n' "$finish_script" "/tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish-refused.log")
assert_contains "finish-install hook" "$log" "HOOK-EXIT 1"
assert_contains "cdebconf's text frontend" "$log" "!! ERROR: SELinux was not set up on the installed system"
assert_contains "the dialog" "$log" "Nothing was changed: the system boots as it was installed"
assert_contains "the dialog" "$log" "/home"
mount_image "$d/target.img" "$d/t"
[ ! -e "$d/t/etc/selinux/config" ] || fail "a refused install wrote /target's config"
echo "ok: a refused install shows the reason and leaves the config alone"
