#!/bin/bash
# debian-installer adapter, in d-i's own environment. Host: Debian 12's netboot initrd
# (debian-installer-12-netboot-amd64) unpacked and used as a chroot: its busybox, cdebconf
# with its text frontend, udpkg and the templates of every udeb in it (loaded by its own
# S20templates startup script). partman-base (the one partman udeb the archive serves here),
# libmount1-udeb (a dependency of seinstall-udeb; the archive here answers 404, so a stand-in
# holding the host's own libmount.so.1 of the same util-linux version) and seinstall-udeb, built by the Debian
# package build (make deb, debian/), are installed with d-i's udpkg, which loads their
# templates into cdebconf. The preseed example (adapters/debian-installer/preseed.cfg) is
# loaded with d-i's own debconf-set-selections.
# - anna: d-i's own anna and net-retriever load seinstall-udeb and libmount1-udeb (the
#   stand-in) from a signed udeb repository served on 127.0.0.1, chosen by preseed.cfg's
#   anna/choose_modules line, SHA256 checked; partman then runs the hook anna installed. A
#   udeb that does not match Packages and a Release signed by an unknown key are refused.
#   Stand-ins: the installer's archive keyring holds the test repository's key (an image built
#   for that repository); anna/no_kernel_modules is preseeded (the chroot runs the host's
#   kernel, which has no module udebs); the udebs the installer already has are listed in the
#   repository by their archive stanzas without their files (404 here; anna does not fetch
#   them); main-menu is not running: download-installer's postinst is configured by hand.
# - partman: partman-base's own /bin/partman runs its main loop; the check.d protocol sends
#   the person back to the partitioning screens when 60seinstall refuses. Stand-ins: the
#   partitioning screens (display.d: "the person" plans ReiserFS, then ext4) and the fstab.d
#   script that prints the plan (partman-basicfilesystems/partman-target do not download
#   here); partman's init.d/commit.d/finish.d scripts, which need parted_server and disks,
#   are removed. The refusal is shown by cdebconf's text frontend with seinstall's template.
# - finish-install: 95seinstall runs in the chroot as finish-install runs its hooks (the
#   finish-install udeb is not served here) on a real loop-mounted ext4 /target; on a /target
#   without a policy it calls apt-install selinux-policy-default (a stand-in for d-i's
#   apt-install, which needs a mirror and a debootstrapped /target, installs the host's copy).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
. "$TOP/tests/hosts/di-env.sh"
require_tool shellcheck shellcheck
# The udeb repository anna reads: signed with gpg, indexed with dpkg-scanpackages, served by
# python3's http.server.
require_tool gpg gnupg
require_tool gpg-agent gnupg
require_tool dpkg-scanpackages dpkg-dev
require_tool python3 python3

a=$TOP/installer-plugin/adapters/debian-installer
check_hook=$a/partman/check.d/60seinstall
finish_hook=$a/finish-install.d/95seinstall
templates=$TOP/debian/seinstall-udeb.templates
shellcheck -s sh "$check_hook" "$finish_hook" || fail "shellcheck found problems in the d-i hooks"
echo "ok: shellcheck passes on both hooks"
# The templates the hooks show exist, each with a type and a description using REASON, every
# description translatable (po-debconf's _Description) and in debian/po/templates.pot.
for t in seinstall/refused seinstall/install-refused seinstall/failed; do
        grep -q "^Template: $t\$" "$templates" || fail "templates: $t missing"
        awk -v t="$t" '$0 == "Template: " t {f = 1; next} /^Template:/ {f = 0} f' "$templates" |
                grep -q 'REASON' || fail "templates: $t does not show \${REASON}"
done
! grep -n '^Description:' "$templates" || fail "templates: a Description: is not translatable (use _Description:)"
sed -n 's/^_Description: //p' "$templates" | while read -r short; do
        grep -qF "msgid \"$short\"" "$TOP/debian/po/templates.pot" ||
                fail "debian/po/templates.pot lacks '$short' (run debconf-updatepo in debian/po)"
done || exit 1
echo "ok: templates seinstall/refused, install-refused and failed show the reason, translatable"

require_loop
require_command check
require_command install
for t in dpkg-buildpackage dh po2debconf; do
        command -v $t >/dev/null || skip "no $t to build the udeb (make deps)"
done
cache=$HOSTS_CACHE
cache_dir "$cache"
if ! why=$(di_env "$cache"); then
        skip "debian-installer's environment cannot be set up: $why"
fi
di_env "$cache" >/dev/null || fail "di_env failed the second time"
echo "host: $DI_VERSION (netboot initrd unpacked in $DI_ROOT), $(cd "$DI_UDEBS" && echo *.udeb)"
d0=$(scratch_dir)

# libmount1-udeb from the archive; where the archive here does not serve it (404), a stand-in
# with the host's own libmount.so.1 from the same util-linux (the udeb's one library).
mount_udeb=$(ls "$DI_UDEBS"/libmount1-udeb_*.udeb 2>/dev/null | head -n 1)
if [ -z "$mount_udeb" ]; then
        v=$(dpkg-query -W -f='${Version}' libmount1)
        lm=$(dpkg -L libmount1 | grep '/libmount\.so\.1\.[0-9.]*$' | head -n 1)
        [ -f "$lm" ] || fail "the host's libmount1 has no libmount.so.1"
        su=$d0/libmount1-udeb
        mkdir -p "$su/DEBIAN" "$su/usr/lib/x86_64-linux-gnu"
        cp "$lm" "$su/usr/lib/x86_64-linux-gnu/" && ln -s "${lm##*/}" "$su/usr/lib/x86_64-linux-gnu/libmount.so.1"
        printf 'Package: libmount1-udeb\nPackage-Type: udeb\nSource: util-linux\nVersion: %s\nArchitecture: amd64\nMaintainer: seinstall test stand-in <test@localhost>\nDepends: libblkid1-udeb, libc6-udeb, libselinux1-udeb\nSection: debian-installer\nPriority: optional\nDescription: stand-in: the host libmount.so.1\n' \
                "$v" >"$su/DEBIAN/control"
        mount_udeb=$d0/libmount1-udeb_${v}_amd64.udeb
        dpkg-deb --root-owner-group --build "$su" "$mount_udeb" >/dev/null || fail "building the libmount1-udeb stand-in"
        echo "stand-in: libmount1-udeb (not served by the archive here) from the host's libmount1 $v"
else
        echo "host: ${mount_udeb##*/} from the archive"
fi

# The udeb as the package build makes it (nocheck: deb-package.sh runs the build's tests).
d=$(scratch_dir)
DEB_BUILD_OPTIONS="nocheck parallel=2" run_make deb DEB="$d/deb" \
        >"$d/deb.log" 2>&1 || fail "make deb failed: $(tail -n 30 "$d/deb.log")"
udeb=$(echo "$d"/deb/seinstall-udeb_*.udeb)
[ -f "$udeb" ] || fail "make deb built no seinstall-udeb: $(ls "$d/deb")"
assert_eq "the udeb's section" debian-installer "$(dpkg-deb -f "$udeb" Section)"
assert_contains "the udeb's dependencies" "$(dpkg-deb -f "$udeb" Depends)" "libmount1-udeb"
dpkg-deb -c "$udeb" | awk '{print "  " $6}'

# di_run NAME CMDLINE TARGET_IMAGE STDIN SCRIPT [UDEB...]: run SCRIPT with d-i's /bin/sh in a
# chroot of a fresh copy (overlay) of the installer, after what d-i does at start and when it
# loads the udebs (default: partman-base and seinstall-udeb; partman-base's postinst runs
# partman's init.d, which unmounts /target); /proc/cmdline reads CMDLINE; TARGET_IMAGE (or "")
# is loop-mounted on /target. STDIN is what the person types. Output in $d/NAME.log.
di_run() {
        local name=$1 cmdline=$2 img=$3 input=$4 script=$5 udebs
        shift 5
        udebs=${*:-/tmp/libmount1-udeb_*.udeb /tmp/partman-base_*.udeb /tmp/seinstall-udeb_*.udeb}
        mkdir -p "$d/$name/up" "$d/$name/work" "$d/$name/root"
        printf '%s\n' "$cmdline" >"$d/$name/cmdline"
        printf '%b' "$input" >"$d/$name/stdin"
        mkdir -p "$d/$name/up/tmp" && cp "$udeb" "$mount_udeb" "$DI_UDEBS"/partman-base_*.udeb "$d/$name/up/tmp/"
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
di_run finish "$di_cmdline" "$d/target.img" '\n' "$finish_script" "/tmp/libmount1-udeb_*.udeb /tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish.log")
assert_contains "finish-install hook" "$log" "HOOK-EXIT 0"
case $log in *"apt-install"*) fail "the hook installed a policy /target already had" ;; esac
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

finish_base=$finish_script

# 3b. A /target with GRUB installed (its update-grub and /boot/grub): d-i's initrd has no
#     bubblewrap, so seinstall install --regenerate writes nothing and says why (never half an
#     install), and the hook runs update-grub through d-i's in-target instead.
mount_image "$d/target.img" "$d/t"
mkdir -p "$d/t/bin" "$d/t/sbin" "$d/t/usr/bin" "$d/t/usr/sbin" "$d/t/boot/grub" "$d/t/proc" \
        "$d/t/dev" "$d/t/sys" "$d/t/run"
cp /bin/busybox "$d/t/bin/busybox"
# in-target's chroot_setup diverts start-stop-daemon with the target's dpkg-divert: a stand-in
# (a debootstrapped /target has dpkg's own).
printf '#!/bin/busybox sh\nexit 0\n' >"$d/t/usr/bin/dpkg-divert"
chmod +x "$d/t/usr/bin/dpkg-divert"
printf '#!/bin/busybox sh\n/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg\n' \
        >"$d/t/usr/sbin/update-grub"
chmod +x "$d/t/usr/sbin/update-grub"
sed -i 's/ *security=selinux//' "$d/t/etc/default/grub"
grub_before=$(sha256sum <"$d/t/etc/default/grub")
umount "$d/t" || fail "umount $d/t"
# shellcheck disable=SC2016 # run by d-i's shell
regen_script='
if command -v bwrap >/dev/null; then echo "BWRAP-PRESENT"; fi
seinstall install --root /target --regenerate --no-progress >/dev/null 2>/tmp/regen.err
echo "REGEN-EXIT $?" >&2
cat /tmp/regen.err >&2
ls /target/etc/selinux/config 2>/dev/null && echo "CONFIG-WRITTEN" >&2
'"$finish_base"
di_run finish-grub "$di_cmdline" "$d/target.img" '\n' "$regen_script" "/tmp/libmount1-udeb_*.udeb /tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish-grub.log")
case $log in *BWRAP-PRESENT*) fail "d-i's environment has bubblewrap here: the test shows nothing" ;; esac
assert_contains "--regenerate without bubblewrap: refused" "$log" "REGEN-EXIT 3"
assert_contains "--regenerate without bubblewrap: why" "$log" "install bubblewrap"
assert_contains "--regenerate without bubblewrap: nothing written" "$log" "Nothing was changed"
case $log in *CONFIG-WRITTEN*) fail "seinstall install --regenerate wrote the config without a sandbox" ;; esac
assert_contains "the hook falls back to in-target" "$log" "running update-grub through in-target"
assert_contains "finish-install hook with GRUB" "$log" "HOOK-EXIT 0"
mount_image "$d/target.img" "$d/t"
[ "$grub_before" != "$(sha256sum <"$d/t/etc/default/grub")" ] || fail "the hook did not set GRUB's command line"
assert_contains "grub.cfg made by the target's update-grub" "$(cat "$d/t/boot/grub/grub.cfg")" "security=selinux"
assert_contains "target config" "$(cat "$d/t/etc/selinux/config")" "SELINUX=enforcing"
rm -rf "$d/t/etc/selinux/config" "$d/t/boot/grub" "$d/t/usr/sbin/update-grub" \
        "$d/t/usr/bin/dpkg-divert"
umount "$d/t" || fail "umount $d/t"
echo "ok: in d-i without bubblewrap: --regenerate writes nothing; the hook runs update-grub through in-target"

# 4. An install that must be refused: /target/home on tmpfs. The dialog says why.
finish_script="
mount -t tmpfs tmpfs /target/home
$finish_script"
di_run finish-refused "$di_cmdline" "$d/target.img" '\n' "$finish_script" "/tmp/libmount1-udeb_*.udeb /tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish-refused.log")
assert_contains "finish-install hook" "$log" "HOOK-EXIT 1"
assert_contains "cdebconf's text frontend" "$log" "!! ERROR: SELinux was not set up on the installed system"
assert_contains "the dialog" "$log" "Nothing was changed: the system boots as it was installed"
assert_contains "the dialog" "$log" "/home"
mount_image "$d/target.img" "$d/t"
[ ! -e "$d/t/etc/selinux/config" ] || fail "a refused install wrote /target's config"
echo "ok: a refused install shows the reason and leaves the config alone"
umount "$d/t" || fail "umount $d/t"

# 5. A /target without a policy (no preseed put one there): the hook installs
#    selinux-policy-default with apt-install, then labels. The stand-in apt-install installs the
#    host's copy of that package's files; any other package fails as a missing one would.
make_fs_image "$d/bare.img" ext4 64
mount_image "$d/bare.img" "$d/t"
make_target "$d/t"
rm -rf "$d/t/etc/selinux/default"
umount "$d/t" || fail "umount $d/t"
# shellcheck disable=SC2016 # run by d-i's shell
apt_standin='
cat >/bin/apt-install <<"A"
#!/bin/sh
echo "APT-INSTALL $*" >&2
[ "$*" = selinux-policy-default ] || exit 100
mkdir -p /target/etc/selinux && cp -a /tmp/policy-default /target/etc/selinux/default
A
chmod +x /bin/apt-install'
for n in finish-nopolicy finish-nopolicy-mls; do
        mkdir -p "$d/$n/up/tmp" && cp -a /etc/selinux/default "$d/$n/up/tmp/policy-default" ||
                fail "staging the policy for the stand-in apt-install"
done
di_run finish-nopolicy "$di_cmdline" "$d/bare.img" '\n' "$apt_standin$finish_base" \
        "/tmp/libmount1-udeb_*.udeb /tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish-nopolicy.log")
assert_contains "the hook asked for the policy" "$log" "APT-INSTALL selinux-policy-default"
assert_contains "finish-install hook" "$log" "HOOK-EXIT 0"
mount_image "$d/bare.img" "$d/t"
assert_contains "target config" "$(cat "$d/t/etc/selinux/config")" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$d/t/etc/hostname")" ":net_conf_t:"
echo "ok: without a preseed the hook installs the policy into /target, then labels"
rm -rf "$d/t/etc/selinux/default" "$d/t/etc/selinux/config"
umount "$d/t" || fail "umount $d/t"

# 6. Booted with seinstall.policy=mls, whose package cannot be installed: the dialog says so
#    and how to preseed it; nothing is configured.
di_run finish-nopolicy-mls "$di_cmdline seinstall.policy=mls" "$d/bare.img" '\n' \
        "$apt_standin$finish_base" "/tmp/libmount1-udeb_*.udeb /tmp/seinstall-udeb_*.udeb"
log=$(cat "$d/finish-nopolicy-mls.log")
assert_contains "the hook asked for the mls policy" "$log" "APT-INSTALL selinux-policy-mls"
assert_contains "finish-install hook" "$log" "HOOK-EXIT 1"
assert_contains "cdebconf's text frontend" "$log" "!! ERROR: seinstall failed"
# cdebconf's text frontend wraps the dialog's lines.
assert_contains "the dialog" "$(tr -s '[:space:]' ' ' <<<"$log")" "d-i pkgsel/include string selinux-policy-mls"
mount_image "$d/bare.img" "$d/t"
[ ! -e "$d/t/etc/selinux/config" ] || fail "a failed policy install wrote /target's config"
umount "$d/t" || fail "umount $d/t"
echo "ok: a policy that cannot be installed is named in the dialog with the preseed line"

# 7. The preseed example, loaded with d-i's own debconf-set-selections (preseed's loader).
mkdir -p "$d/preseed/up/tmp" && cp "$a/preseed.cfg" "$d/preseed/up/tmp/preseed.cfg"
# shellcheck disable=SC2016 # run by d-i's shell
di_run preseed "$di_cmdline" "" '' '
debconf-set-selections /tmp/preseed.cfg && echo "LOADED"
echo "CHOOSE-MODULES=$(debconf-get anna/choose_modules)"
echo "PKGSEL-INCLUDE=$(debconf-get pkgsel/include)"' "/tmp/libmount1-udeb_*.udeb"
log=$(cat "$d/preseed.log")
assert_contains "preseed.cfg loads" "$log" "LOADED"
assert_contains "anna/choose_modules" "$log" "CHOOSE-MODULES=seinstall-udeb"
assert_contains "pkgsel/include" "$log" "PKGSEL-INCLUDE=selinux-policy-default"

# 8. anna loads the udeb from a udeb repository, as d-i's "Load installer components from an
#    installer mirror" does (download-installer: anna net-retriever default), then partman runs
#    the check.d hook anna installed. The repository is what a person adds the udeb to: a
#    mirror tree with dists/bookworm/Release (SHA256 of the Packages files, signed with the
#    repository's key) and main/debian-installer/binary-amd64/Packages[.gz] (dpkg-scanpackages
#    -t udeb: SHA256 and MD5sum of each udeb) listing seinstall-udeb and the udebs it depends
#    on. Served over HTTP on 127.0.0.1; the installer's archive keyring (archive.gpg, which
#    net-retriever gives to gpgv) holds the repository's key, as in an installer image built
#    for that repository. The udebs seinstall-udeb depends on that the installer already has
#    (libc6-udeb, libselinux1-udeb, libblkid1-udeb, libpcre2-8-0-udeb) are listed as Debian's
#    archive lists them (its Packages stanzas), without their files: the archive here answers
#    404 for them, and anna does not download a udeb the installer has in the same version.
gh=$d/gnupg
mkdir -m 700 "$gh" "$d/other-gnupg"
on_exit gpgconf --homedir "$gh" --kill gpg-agent
on_exit gpgconf --homedir "$d/other-gnupg" --kill gpg-agent
for h in "$gh" "$d/other-gnupg"; do
        gpg --homedir "$h" --batch --passphrase '' --quick-gen-key "seinstall test repository ($h)" \
                ed25519 sign never 2>/dev/null || fail "gpg could not make a signing key"
done
gpg --homedir "$gh" --export >"$d/repo-key.gpg" || fail "exporting the repository key"
www=$d/www

# repo NAME GNUPGHOME: a udeb repository in $www/NAME, Release signed with GNUPGHOME's key.
repo() {
        local r=$www/$1 h=$2 u src dir b=dists/bookworm/main/debian-installer/binary-amd64
        for u in "$udeb" "$mount_udeb"; do
                src=$(dpkg-deb -f "$u" Source | cut -d' ' -f1)
                src=${src:-$(dpkg-deb -f "$u" Package)}
                dir=$r/pool/main/${src:0:1}/$src
                mkdir -p "$dir" && cp "$u" "$dir/" || return 1
        done
        mkdir -p "$r/$b"
        (cd "$r" && dpkg-scanpackages -t udeb pool /dev/null 2>/dev/null) >"$r/$b/Packages" || return 1
        /usr/lib/apt/apt-helper cat-file "$DI_ARCHIVE_PACKAGES" | awk -v RS= -v ORS='\n\n' \
                '/^Package: (libc6|libselinux1|libblkid1|libpcre2-8-0)-udeb\n/' >>"$r/$b/Packages" || return 1
        gzip -9nk "$r/$b/Packages"
        {
                printf 'Origin: seinstall test\nLabel: seinstall test\nSuite: stable\nCodename: bookworm\n'
                printf 'Date: %s\nArchitectures: amd64\nComponents: main\n' "$(date -Ru)"
                printf 'Description: a udeb repository for anna\nSHA256:\n'
                for f in Packages Packages.gz; do
                        printf ' %s %s main/debian-installer/binary-amd64/%s\n' \
                                "$(sha256sum <"$r/$b/$f" | cut -d' ' -f1)" "$(stat -c %s "$r/$b/$f")" "$f"
                done
        } >"$r/dists/bookworm/Release"
        gpg --homedir "$h" --batch --yes --armor --detach-sign -o "$r/dists/bookworm/Release.gpg" \
                "$r/dists/bookworm/Release" 2>/dev/null
}
repo good "$gh" || fail "making the udeb repository"
grep -q '^Package: seinstall-udeb$' "$www/good/dists/bookworm/main/debian-installer/binary-amd64/Packages" ||
        fail "the repository's Packages lacks seinstall-udeb"
assert_eq "udebs in the repository's Packages" 6 \
        "$(grep -c '^SHA256: ' "$www/good/dists/bookworm/main/debian-installer/binary-amd64/Packages")"
# The same repository whose seinstall-udeb on the mirror is not the file Packages lists (one
# byte more: udpkg would still unpack it; anna's SHA256 check must not).
repo badsum "$gh" || fail "making the second repository"
printf 'x' >>"$(echo "$www"/badsum/pool/main/s/seinstall/seinstall-udeb_*.udeb)"
# And one whose Release is signed by a key the installer does not have.
repo badsig "$d/other-gnupg" || fail "making the third repository"

python3 -u -m http.server --bind 127.0.0.1 --directory "$www" 0 >"$d/http.out" 2>"$d/http.log" &
http_pid=$!
on_exit kill "$http_pid"
for _ in $(seq 50); do
        port=$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$d/http.out")
        [ -n "$port" ] && break
        sleep 0.2
done
[ -n "$port" ] || fail "python3 -m http.server did not start: $(cat "$d/http.out" "$d/http.log")"
echo "mirror: http://127.0.0.1:$port/{good,badsum,badsig}"

# The run: what main-menu does for "Load installer components": download-installer's postinst
# (anna net-retriever default) under cdebconf, the mirror and the component preseeded.
# shellcheck disable=SC2016 # run by d-i's shell
anna_script='
rm -f /tmp/*-udeb_*.udeb
debconf-set-selections /tmp/preseed.cfg && debconf-set-selections /tmp/mirror.cfg || echo "PRESEED FAILED"
cat >/tmp/load-components <<"L"
#!/bin/sh
. /usr/share/debconf/confmodule
udpkg --configure --force-configure download-installer
echo "ANNA-EXIT $?" >&2
L
chmod +x /tmp/load-components && /tmp/load-components
for p in seinstall-udeb libmount1-udeb libc6-udeb; do
        echo "STATUS $p: $(sed -n "/^Package: $p\$/,/^\$/s/^Status: //p" /var/lib/dpkg/status)"
done
echo "SEINSTALL-SHA256 $(sha256sum /usr/sbin/seinstall 2>&1)"'
# anna_run NAME DIRECTORY STDIN SCRIPT [DROP]: the run against http://127.0.0.1:PORT/DIRECTORY
# with preseed.cfg (without its lines matching DROP). The chroot runs the host's kernel, for
# which no archive has kernel module udebs: the test answers anna's question about that
# (anna/no_kernel_modules) in the preseed.
anna_run() {
        local name=$1 dir=$2 input=$3 script=$4 drop=${5:-^$}
        mkdir -p "$d/$name/up/tmp" "$d/$name/up/usr/share/keyrings"
        grep -v -- "$drop" "$a/preseed.cfg" >"$d/$name/up/tmp/preseed.cfg"
        printf 'd-i mirror/protocol string http\nd-i mirror/http/hostname string 127.0.0.1:%s\nd-i mirror/http/directory string /%s\nd-i anna/no_kernel_modules boolean true\n' \
                "$port" "$dir" >"$d/$name/up/tmp/mirror.cfg"
        cp "$d/repo-key.gpg" "$d/$name/up/usr/share/keyrings/archive.gpg"
        di_run "$name" "$di_cmdline" "" "$input" "$anna_script$script" "/tmp/partman-base_*.udeb"
}
anna_run anna good '\n1\n' "$partman_script"
log=$(cat "$d/anna.log")
assert_contains "anna (download-installer's postinst)" "$log" "ANNA-EXIT 0"
assert_contains "cdebconf's progress for anna" "$log" "Loading additional components"
assert_contains "anna installed seinstall-udeb" "$log" "STATUS seinstall-udeb: install ok installed"
assert_contains "anna installed its dependency" "$log" "STATUS libmount1-udeb: install ok installed"
http=$(cat "$d/http.log")
for f in dists/bookworm/Release dists/bookworm/Release.gpg \
        dists/bookworm/main/debian-installer/binary-amd64/Packages.gz \
        "pool/main/s/seinstall/${udeb##*/}" "pool/main/u/util-linux/${mount_udeb##*/}"; do
        assert_contains "the mirror's log" "$http" "\"GET /good/$f HTTP/1.1\" 200"
done
case $http in *"GET /good/pool/main/g/glibc/"*) fail "anna downloaded libc6-udeb, which the installer has in the same version" ;; esac
dpkg-deb --fsys-tarfile "$udeb" | tar -xOf - ./usr/sbin/seinstall >"$d/seinstall.udeb-copy"
[ -s "$d/seinstall.udeb-copy" ] || fail "the udeb has no /usr/sbin/seinstall"
want=$(sha256sum <"$d/seinstall.udeb-copy" | cut -d' ' -f1)
assert_contains "/usr/sbin/seinstall in the installer is the udeb's" "$log" "SEINSTALL-SHA256 $want"
echo "ok: anna fetched Release, checked its signature and Packages.gz, chose seinstall-udeb and libmount1-udeb, and installed them"
# With the udeb anna installed: the same refusal and second round as in 1.
assert_contains "templates loaded by anna" "$log" "seinstall-udeb templates in cdebconf: 3"
assert_contains "cdebconf's text frontend" "$log" "!! ERROR: SELinux cannot label the file systems chosen"
assert_contains "partman went back to the partitioning screens" "$log" "PERSON: round 2: / on ext4"
assert_contains "partman finished" "$log" "PARTMAN-EXIT 0 after 2 rounds"
echo "ok: partman refuses the ReiserFS root with the check.d hook anna installed"

# 9. Without preseed.cfg's anna/choose_modules line anna loads nothing from the repository:
#    seinstall-udeb is an optional component, loaded only when chosen.
anna_run anna-unchosen good '' "" '^d-i anna/choose_modules'
log=$(cat "$d/anna-unchosen.log")
assert_contains "anna without seinstall-udeb chosen" "$log" "ANNA-EXIT 0"
assert_contains "seinstall-udeb not installed" "$log" "STATUS seinstall-udeb: "$'\n'
assert_contains "libmount1-udeb not installed" "$log" "STATUS libmount1-udeb: "$'\n'
assert_eq "downloads of seinstall-udeb (the chosen run only)" 1 \
        "$(grep -c "GET /good/pool/main/s/seinstall/" "$d/http.log")"
echo "ok: seinstall-udeb is loaded only when anna/choose_modules names it"

# 10. The mirror's seinstall-udeb is not the file its Packages lists: anna downloads it, its
#     SHA256 does not match, the retriever's error dialog comes up (the person cancels: 3) and
#     seinstall-udeb is not installed.
anna_run anna-badsum badsum '3\n' ""
log=$(cat "$d/anna-badsum.log")
assert_contains "the mirror's log" "$(cat "$d/http.log")" "\"GET /badsum/pool/main/s/seinstall/${udeb##*/} HTTP/1.1\" 200"
assert_contains "the retriever's error dialog" "$log" "Downloading a file failed"
# 7: anna's exit status after a checksum that does not match (6 is a failed download).
assert_contains "anna refused the udeb" "$log" "ANNA-EXIT 7"
assert_contains "seinstall-udeb not installed" "$log" "STATUS seinstall-udeb: "$'\n'
echo "ok: a udeb whose SHA256 does not match Packages is refused"

# 11. A Release signed by a key the installer does not have: net-retriever refuses the
#     repository before it reads Packages.
anna_run anna-badsig badsig '3\n' ""
log=$(cat "$d/anna-badsig.log")
http=$(cat "$d/http.log")
assert_contains "the mirror's log" "$http" "\"GET /badsig/dists/bookworm/Release.gpg HTTP/1.1\" 200"
case $http in *"GET /badsig/dists/bookworm/main/"*) fail "net-retriever read Packages of a repository with a bad signature" ;; esac
assert_contains "the retriever's error dialog" "$log" "Downloading a file failed"
# 10: anna's exit status when the retriever gives it no Packages.
assert_contains "anna got no Packages" "$log" "ANNA-EXIT 10"
assert_contains "seinstall-udeb not installed" "$log" "STATUS seinstall-udeb: "$'\n'
echo "ok: a Release signed by an unknown key is refused"
