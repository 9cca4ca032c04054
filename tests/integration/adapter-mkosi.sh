#!/bin/bash
# mkosi adapter, in the real mkosi (Debian 12's mkosi 14): `mkosi build` of the example in
# installer-plugin/adapters/mkosi/example as it is (mkosi.conf: a Debian 12 gpt_ext4 image with
# systemd and selinux-policy-default; mkosi.extra: the kernel command line and fstab; the
# adapter's mkosi.finalize; the profile mkosi.seinstall.ks: selinux --enforcing), with the
# seinstall package this tree builds (`make deb`) in its mkosi.packages/, plus, as a second
# extra tree, the test's own unit that reports from the booted image. Then, on the image mkosi
# wrote:
# - seinstall is installed in it (dpkg knows the package; seinstall-firstboot.service enabled);
# - its labels equal a setfiles relabel of it (setfiles -F -n: 0 differences);
# - /etc/selinux/config and the kernel command line (/etc/kernel/cmdline) are what the
#   profile says;
# - it boots enforcing under QEMU, on Debian 12's kernel through the end-to-end test's
#   initramfs (qemu/kernel.sh and qemu/initramfs.sh, called, not changed), with the kernel
#   command line the image carries, as a boot loader reading /etc/kernel/cmdline would;
#   the first-boot screen comes up on the serial console (its title and buttons), F12 keeps
#   the mode chosen at install, the mark is gone; a unit in the image prints what the running
#   system says and powers off.
# mkosi runs with Incremental=yes: its cache images (the tree before extra trees and the
# finalize script) stay in $SEINSTALL_HOSTS_CACHE/mkosi (tests/lib.sh), so only the first build installs
# packages (measured: ~9 min on 2 loaded cores); later builds redo the image and finalize.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool shellcheck shellcheck

ex=$TOP/installer-plugin/adapters/mkosi/example
f=$ex/mkosi.finalize
shellcheck -s sh "$f" || fail "shellcheck found problems in mkosi.finalize"
echo "ok: shellcheck passes on mkosi.finalize"
export PATH=${SEINSTALL%/*}:$PATH

# Outside mkosi, and for mkosi's build image, the script does nothing.
d=$(scratch_dir)
expect_exit 2 env -u BUILDROOT sh "$f"
assert_contains "outside mkosi" "$ERR" "BUILDROOT"
mkdir -p "$d/untouched"
BUILDROOT=$d/untouched expect_exit 0 sh "$f" build
[ -z "$(ls -A "$d/untouched")" ] || fail "the build-image run changed the tree"
echo "ok: the build image is left alone"
# Without the seinstall package next to mkosi.conf, no image whose first boot cannot run.
mkdir -p "$d/nopkg"
BUILDROOT=$d/untouched expect_exit 2 env -C "$d/nopkg" sh "$f" final
assert_contains "without a package" "$ERR" "mkosi.packages/ (make deb builds it)"
[ -z "$(ls -A "$d/untouched")" ] || fail "the run without a package changed the tree"
echo "ok: without mkosi.packages/seinstall_*.deb the script stops and says so"

require_command install
require_loop
for t in mkosi debootstrap systemd-nspawn qemu-system-x86_64 busybox cpio setfiles sfdisk \
        dpkg-buildpackage dh; do
        command -v $t >/dev/null || skip "$t is missing (make deps installs it)"
done
[ -d /etc/selinux/default/policy ] || skip "the host has no selinux-policy-default (make deps)"
echo "host: mkosi $(dpkg-query -W -f='${Version}' mkosi), debootstrap $(dpkg-query -W -f='${Version}' debootstrap)"

cache=$HOSTS_CACHE/mkosi
out_dir=$TOP/build/hosts
cache_dir "$cache"
mkdir -p "$out_dir" || fail "cannot create $out_dir"
exec 9>"$cache/.lock"
flock 9
# The example directory is built as it is: its files are copied, unchanged, into a project
# directory in the cache (mkosi writes its image and cache images next to mkosi.conf). mkosi 14
# does not notice a changed mkosi.conf in its cache images, so the project directory is named
# after mkosi.conf's settings (comments aside; the rest of the example is applied after the
# cache: extra tree, finalize).
p=$cache/project-$(grep -v '^[[:space:]]*\(#\|$\)' "$ex/mkosi.conf" | sha256sum | cut -c1-12)
mkdir -p "$p" || fail "cannot create $p"
rm -rf "$p/mkosi.extra" "$p/mkosi.finalize" "$p/mkosi.seinstall.ks" "$p/mkosi.conf" "$p/mkosi.packages"
cp -a "$ex/." "$p/" || fail "cannot copy $ex into $p"
for f in $(cd "$ex" && find . -type f); do
        cmp -s "$ex/$f" "$p/$f" || fail "the project's $f differs from the example's"
done
echo "ok: the example ($(cd "$ex" && find . -type f | sort | tr '\n' ' ')) copied unchanged into $p"
# The seinstall package of this tree, as a person following
# installer-plugin/adapters/mkosi/README.md would put it there.
start=$(date +%s)
DEB_BUILD_PROFILES=pkg.seinstall.nocalamares DEB_BUILD_OPTIONS="parallel=2 nocheck" \
        run_make deb DEB="$d/deb" >"$out_dir/mkosi-deb.log" 2>&1 ||
        fail "make deb failed: $(tail -n 30 "$out_dir/mkosi-deb.log")"
mkdir -p "$p/mkosi.packages"
cp "$d"/deb/seinstall_*.deb "$p/mkosi.packages/" || fail "make deb built no seinstall_*.deb"
echo "ok: make deb built $(cd "$p/mkosi.packages" && echo seinstall_*.deb) in $(($(date +%s) - start))s"
# What only the test adds, as a second extra tree on mkosi's command line (the example's own
# mkosi.extra is named first, as mkosi would pick it): a unit that prints what the booted image
# says, then powers off.
facts=$d/facts-tree
mkdir -p "$facts/usr/local/sbin" "$facts/etc/systemd/system/multi-user.target.wants"
cat >"$facts/usr/local/sbin/seinstall-facts" <<'EOF'
#!/bin/sh
# What the booted image says, on the console, then power off.
echo "SEINSTALL-FACT enforce $(cat /sys/fs/selinux/enforce 2>&1)"
echo "SEINSTALL-FACT policy $(sestatus 2>&1 | sed -n 's/^Loaded policy name: *//p')"
echo "SEINSTALL-FACT config $(sed -n 's/^SELINUX=//p' /etc/selinux/config)"
echo "SEINSTALL-FACT cmdline $(cat /proc/cmdline)"
echo "SEINSTALL-FACT context $(cat /proc/self/attr/current)"
echo "SEINSTALL-FACT init $(cat /proc/1/attr/current)"
echo "SEINSTALL-FACT package $(dpkg-query -W -f='${Status}' seinstall 2>&1)"
echo "SEINSTALL-FACT mark $(if [ -e /var/lib/seinstall/firstboot ]; then echo present; else echo gone; fi)"
echo "SEINSTALL-FACT firstboot $(systemctl show -P Result seinstall-firstboot.service) $(systemctl show -P ExecMainStatus seinstall-firstboot.service)"
echo "SEINSTALL-FACT unlabeled $(find / -xdev \( -context '*:unlabeled_t:*' -o -context '*:file_t:*' \) 2>/dev/null | wc -l)"
dmesg 2>/dev/null | grep 'avc:  denied' | sed 's/^/SEINSTALL-AVC /'
echo "SEINSTALL-FACTS-END"
systemctl poweroff
EOF
chmod 755 "$facts/usr/local/sbin/seinstall-facts"
cat >"$facts/etc/systemd/system/seinstall-facts.service" <<'EOF'
[Unit]
Description=seinstall test: print what the booted image says
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/seinstall-facts
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
EOF
ln -sf ../seinstall-facts.service "$facts/etc/systemd/system/multi-user.target.wants/seinstall-facts.service"

start=$(date +%s)
(cd "$p" && mkosi --force --incremental --extra-tree mkosi.extra --extra-tree "$facts" build) >"$out_dir/mkosi-build.log" 2>&1 ||
        fail "mkosi build failed: $(tail -n 30 "$out_dir/mkosi-build.log")"
build_secs=$(($(date +%s) - start))
echo "ok: mkosi build took ${build_secs}s (log: $out_dir/mkosi-build.log)"
fin=$(sed -n '/Running finalize script/,/Trimming File System\|Unmounting image/p' "$out_dir/mkosi-build.log")
printf '%s\n' "$fin" | sed 's/^/  | /'
assert_contains "mkosi ran the finalize script" "$fin" "mkosi.finalize: seinstall install --root"
assert_contains "finalize script" "$fin" "mkosi.finalize: installing seinstall_"
assert_contains "finalize script" "$fin" "--no-cmdline --profile ./mkosi.seinstall.ks"
assert_contains "finalize script" "$fin" "Installed: SELinux enforcing (from profile), policy default."

# The image's root partition, loop-mounted read-only by its offset (no udev here).
img=$p/image.raw
start_sector=$(sfdisk -J "$img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["partitiontable"]["partitions"][0]["start"])') ||
        fail "cannot read the partition table of $img"
mount_image "$img" "$d/img" "ro,offset=$((start_sector * 512))"
for f in /usr/sbin/seinstall /usr/sbin/seinstall-firstboot /var/lib/seinstall/firstboot \
        /etc/systemd/system/multi-user.target.wants/seinstall-firstboot.service; do
        [ -e "$d/img$f" ] || [ -L "$d/img$f" ] || fail "the image has no $f"
done
grep -q '^Package: seinstall$' "$d/img/var/lib/dpkg/status" || fail "the image's dpkg does not know seinstall"
echo "ok: the image holds seinstall (its package, seinstall-firstboot.service enabled) and the first-boot mark"
config=$(cat "$d/img/etc/selinux/config") || fail "no /etc/selinux/config in the image"
assert_contains "image config" "$config" "SELINUX=enforcing"
assert_contains "image config" "$config" "SELINUXTYPE=default"
cmdline=$(cat "$d/img/etc/kernel/cmdline")
assert_contains "image kernel command line" "$cmdline" "security=selinux"
assert_contains "image kernel command line" "$cmdline" "root=/dev/vda1"
case " $cmdline " in *" enforcing=0 "* | *" selinux=0 "*) fail "kernel command line disables: $cmdline" ;; esac
fc=$d/img/etc/selinux/default/contexts/files/file_contexts
changes=$(setfiles -F -n -v -r "$d/img" "$fc" "$d/img" 2>&1)
nchanges=$(printf '%s' "$changes" | grep -c .)
nfiles=$(find "$d/img" -xdev | wc -l)
[ "$nchanges" = 0 ] || fail "setfiles -F -n would change $nchanges labels: $(head -n 20 <<<"$changes")"
echo "ok: setfiles -F -n on the image: 0 differences in $nfiles entries"
umount "$d/img" || fail "umount $d/img"

# Boot it: Debian's kernel and the end-to-end initramfs (root= mounted, then systemd).
E2E_DIR=$TOP/qemu
log() { echo "mkosi: $*"; }
. "$E2E_DIR/kernel.sh"
. "$E2E_DIR/initramfs.sh"
kernel_fetch "$E2E_CACHE" || fail "cannot fetch Debian's kernel"
build_initramfs "$d/initrd.cpio" "$d/initramfs" || fail "cannot build the initramfs"
# The first-boot screen (seinstall-firstboot.service) before the login prompt: drawn when its
# Cancel button is, F12 accepts the mode it starts on (enforcing, the install's).
cat >"$d/boot.script" <<'EOF'
expect 600 firstboot-screen SELinux on this system
expect 60 firstboot-drawn Cancel
sleep 2
key f12
expect 400 facts SEINSTALL-FACTS-END
exit 120
EOF
echo "booting the image with: $cmdline (kernel $KVER)"
start=$(date +%s)
steps=$(/usr/bin/python3 "$E2E_DIR/serial.py" --log "$out_dir/mkosi-boot.log" --script "$d/boot.script" -- \
        qemu-system-x86_64 -accel tcg -cpu max -m 1024 -smp 2 -nodefaults -display none \
        -monitor none -serial stdio -no-reboot -kernel "$KERNEL" -initrd "$d/initrd.cpio" \
        -append "$cmdline" -drive "file=$img,if=virtio,format=raw,snapshot=on") ||
        fail "the image did not boot to its facts: $(tail -n 30 "$out_dir/mkosi-boot.log")"
echo "ok: booted and powered off in $(($(date +%s) - start))s (serial.py: $(tr "\n" " " <<<"$steps"))"
# Console lines carry the journal's prefix ("[  78.1] seinstall-facts[214]: ").
facts=$(tr -d '\r' <"$out_dir/mkosi-boot.log" | grep -ao 'SEINSTALL-\(FACT\|AVC\) .*')
printf '%s\n' "$facts" | sed 's/^/  | /'
fact() { printf '%s\n' "$facts" | sed -n "s/^SEINSTALL-FACT $1 //p" | tail -n 1; }
assert_eq "SELinux enforcing in the booted image" 1 "$(fact enforce)"
assert_eq "loaded policy" default "$(fact policy)"
assert_contains "running kernel command line" "$(fact cmdline)" "security=selinux"
assert_contains "pid 1's context" "$(fact init)" ":init_t:"
assert_eq "files labeled unlabeled_t or file_t" 0 "$(fact unlabeled)"
grep -q '^step firstboot-drawn ' <<<"$steps" || fail "the first-boot screen was not drawn"
assert_contains "the seinstall package in the booted image" "$(fact package)" "install ok installed"
assert_eq "seinstall-firstboot.service after F12 (result, exit status)" "success 0" "$(fact firstboot)"
assert_eq "the first-boot mark after the screen" gone "$(fact mark)"
echo "ok: the image's first boot showed seinstall's first-boot screen on the serial console; F12 kept enforcing"
avcs=$(printf '%s\n' "$facts" | grep -c '^SEINSTALL-AVC')
bad=$(printf '%s\n' "$facts" | grep '^SEINSTALL-AVC' | grep -c 'unlabeled_t\|:file_t\|default_t')
echo "AVC denials in the kernel log: $avcs (the policy's own, listed above); caused by labels: $bad"
assert_eq "denials caused by labels" 0 "$bad"
