#!/bin/bash
# status and apply --regenerate read the boot menu itself (issue 34, item 1): grub.cfg's default
# entry (the first menuentry, set default= by number, title, id and "A>B", saved_entry of
# grubenv, an EFI grub.cfg that holds the menu, not a stub), the BLS entries beside
# /etc/kernel/cmdline. status says what the next boot gets and names a menu that lags its
# configuration; --regenerate regenerates whenever the menu lags, even with nothing to change.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3

T=$(scratch_dir)
mkdir -p "$T/boot/grub" "$T/etc/default" "$T/etc/selinux/default/policy"
printf 'CONFIG_SECURITY_SELINUX=y\nCONFIG_LSM="landlock,lockdown,yama,apparmor,selinux"\n' \
        >"$T/boot/config-6.1.0-13-amd64"
: >"$T/etc/selinux/default/policy/policy.33"
printf 'SELINUX=enforcing\nSELINUXTYPE=default\n' >"$T/etc/selinux/config"
printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX="security=selinux"\n' \
        >"$T/etc/default/grub"
# grub_cfg ARGS: a grub.cfg as Debian 12's grub-mkconfig writes it (its header's default logic,
# a function block, a submenu), the first entry's linux line ending with ARGS.
grub_cfg() {
        cat <<CFG
if [ -s \$prefix/grubenv ]; then
  set have_grubenv=true
  load_env
fi
if [ "\${next_entry}" ] ; then
   set default="\${next_entry}"
   set next_entry=
   save_env next_entry
   set boot_once=true
else
   set default="${DEFAULT:-0}"
fi
function savedefault {
  if [ -z "\${boot_once}" ]; then
    saved_entry="\${chosen}"
    save_env saved_entry
  fi
}
menuentry 'Debian GNU/Linux' --class debian --class gnu-linux \$menuentry_id_option 'gnulinux-simple-1234' {
	load_video
	if [ x\$grub_platform = xxen ]; then insmod xzio; insmod lzopio; fi
	echo	'Loading Linux 6.1.0-13-amd64 ...'
	linux	/boot/vmlinuz-6.1.0-13-amd64 root=UUID=1234 ro $1
	initrd	/boot/initrd.img-6.1.0-13-amd64
}
submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-1234' {
	menuentry 'Debian GNU/Linux, with Linux 6.1.0-13-amd64' --class debian \$menuentry_id_option 'gnulinux-6.1.0-13-amd64-advanced-1234' {
		linux	/boot/vmlinuz-6.1.0-13-amd64 root=UUID=1234 ro security=selinux quiet
	}
	menuentry 'Debian GNU/Linux, with Linux 6.1.0-13-amd64 (recovery mode)' --class debian \$menuentry_id_option 'gnulinux-6.1.0-13-amd64-recovery-1234' {
		linux	/boot/vmlinuz-6.1.0-13-amd64 root=UUID=1234 ro single
	}
}
CFG
}
menu_json() {
        "$SEINSTALL" status --root "$T" --json >"$T.json" || fail "status --json failed"
        json_assert "$T.json" -- "$@" || fail "status --json: $(cat "$T.json")"
}

# The configuration says security=selinux, the menu (update-grub not run since) does not.
grub_cfg "quiet" >"$T/boot/grub/grub.cfg"
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status names the menu and its default entry" "$OUT" \
        "boot menu:       /boot/grub/grub.cfg, entry 'Debian GNU/Linux' (the first menuentry): root=UUID=1234 ro quiet"
assert_contains "status names the lag and the fix, with --root" "$OUT" \
        "LAGS: /etc/default/grub says security=selinux but /boot/grub/grub.cfg's default entry has no security=: run chroot $T update-grub, or seinstall apply --root $T --regenerate"
assert_contains "status: the next boot gets no SELinux" "$OUT" "boots in:        disabled"
menu_json 'd["boot_mode"] == "disabled"' 'd["boot_menu"]["entry"] == "Debian GNU/Linux"' \
        '"security=selinux" in d["boot_menu"]["lag"]' 'd["kernel_args"]["security"] == "selinux"'
echo "ok: status --json has the menu and its lag"

# Which entry is the default: by number into a submenu, by title, by id, saved_entry.
DEFAULT="1>0" grub_cfg "quiet" >"$T/boot/grub/grub.cfg"
menu_json 'd["boot_menu"]["entry"] == "Debian GNU/Linux, with Linux 6.1.0-13-amd64"' \
        'd["boot_menu"]["chosen"] == "set default=\"1>0\""' 'd["boot_menu"]["lag"] is None' \
        'd["boot_mode"] == "enforcing"'
echo "ok: set default=\"1>0\" is the submenu's first entry, which has security=selinux"
DEFAULT="Advanced options for Debian GNU/Linux>gnulinux-6.1.0-13-amd64-recovery-1234" \
        grub_cfg "quiet security=selinux" >"$T/boot/grub/grub.cfg"
menu_json 'd["boot_menu"]["entry"].endswith("(recovery mode)")' '"has no security=" in d["boot_menu"]["lag"]'
echo "ok: a default by submenu title and entry id"
# shellcheck disable=SC2016 # GRUB's variable, for grub.cfg
DEFAULT='${saved_entry}' grub_cfg "quiet security=selinux" >"$T/boot/grub/grub.cfg"
menu_json 'd["boot_menu"]["chosen"] == "the first menuentry (no saved_entry in grubenv)"' \
        'd["boot_menu"]["lag"] is None'
printf '# GRUB Environment Block\nsaved_entry=gnulinux-advanced-1234>gnulinux-6.1.0-13-amd64-recovery-1234\n' \
        >"$T/boot/grub/grubenv"
menu_json 'd["boot_menu"]["chosen"].startswith("saved_entry")' 'd["boot_menu"]["entry"].endswith("(recovery mode)")'
echo "ok: GRUB_DEFAULT=saved reads saved_entry from grubenv"
rm "$T/boot/grub/grubenv"
DEFAULT="no such entry" grub_cfg "quiet security=selinux" >"$T/boot/grub/grub.cfg"
menu_json 'd["boot_menu"]["entry"] == "Debian GNU/Linux"' '"names no entry" in d["boot_menu"]["chosen"]'
echo "ok: a default naming no entry falls back to the first, as GRUB does"

# An EFI grub.cfg that is a stub (configfile) is not the menu; one with entries is.
mkdir -p "$T/boot/efi/EFI/debian"
printf "search.fs_uuid 1234 root\nset prefix=(\$root)'/boot/grub'\nconfigfile \$prefix/grub.cfg\n" \
        >"$T/boot/efi/EFI/debian/grub.cfg"
menu_json 'd["boot_menu"]["file"] == "/boot/grub/grub.cfg"'
grub_cfg "quiet" >"$T/boot/efi/EFI/debian/grub.cfg"
menu_json 'd["boot_menu"]["file"] == "/boot/efi/EFI/debian/grub.cfg"' \
        '"grub-mkconfig -o /boot/efi/EFI/debian/grub.cfg" in d["boot_menu"]["lag"]'
echo "ok: the EFI grub.cfg is the menu when it holds the entries"
rm -r "$T/boot/efi"

# A grub.cfg with no menu entry says nothing of the next boot: no lag claimed.
echo 'GRUB_CMDLINE_LINUX="security=selinux"' >"$T/boot/grub/grub.cfg"
menu_json 'd["boot_menu"]["lag"] is None' 'd["boot_menu"]["unknown"] is not None' 'd["boot_mode"] == "enforcing"'
echo "ok: a grub.cfg without entries: the configuration's command line, no lag claimed"

# apply with nothing to change in the defaults still names the lagging menu, with --root.
grub_cfg "quiet" >"$T/boot/grub/grub.cfg"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --labeled
assert_contains "apply's to-do for a lagging menu" "$OUT" \
        "run: chroot $T update-grub, or seinstall apply --root $T --regenerate"

# BLS entries beside /etc/kernel/cmdline (kernel-install's): the entries are the menu.
B=$(scratch_dir)
mkdir -p "$B/boot/loader/entries" "$B/etc/kernel" "$B/etc/selinux/default/policy"
cp "$T/boot/config-6.1.0-13-amd64" "$B/boot/"
: >"$B/etc/selinux/default/policy/policy.33"
echo "root=/dev/vda2 security=selinux" >"$B/etc/kernel/cmdline"
printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda2 security=selinux\n' >"$B/boot/loader/entries/a.conf"
printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda2\n' >"$B/boot/loader/entries/b.conf"
"$SEINSTALL" status --root "$B" --json >"$B.json" || fail "status --json (BLS)"
json_assert "$B.json" -- 'd["boot_menu"]["file"] == "/boot/loader/entries/b.conf"' \
        'd["boot_menu"]["lag"].startswith("/etc/kernel/cmdline says security=selinux but /boot/loader/entries/b.conf")' ||
        fail "status --json (BLS): $(cat "$B.json")"
echo "ok: a BLS entry lagging /etc/kernel/cmdline is named"

# Unified kernel images beside /etc/kernel/cmdline: their .cmdline section is what boots.
# uki FILE CMDLINE: a PE image as ukify writes one, its .cmdline section holding CMDLINE.
uki() {
        python3 - "$1" "$2" <<'PY'
import struct, sys
path, cmdline = sys.argv[1], sys.argv[2].encode() + b"\n"
pe = 0x80
sections = [(b".osrel", b"ID=debian\n"), (b".cmdline", cmdline), (b".linux", b"\0" * 64)]
table = pe + 24 + 240  # PE signature, COFF header, a PE32+ optional header
data = table + 40 * len(sections)
head = bytearray(data)
head[0:2] = b"MZ"
struct.pack_into("<I", head, 0x3C, pe)
head[pe:pe + 4] = b"PE\0\0"
struct.pack_into("<HHIIIHH", head, pe + 4, 0x8664, len(sections), 0, 0, 0, 240, 0x22)
body = b""
for i, (name, content) in enumerate(sections):
    raw = content + b"\0" * (-len(content) % 512)
    struct.pack_into("<8sIIII", head, table + 40 * i, name, len(content), 0x1000 * (i + 1),
                     len(raw), data + len(body))
    body += raw
open(path, "wb").write(bytes(head) + body)
PY
}
U=$(scratch_dir)
mkdir -p "$U/boot/efi/EFI/Linux" "$U/etc/kernel" "$U/etc/selinux/default/policy"
cp "$T/boot/config-6.1.0-13-amd64" "$U/boot/"
: >"$U/etc/selinux/default/policy/policy.33"
echo "root=/dev/vda2 security=selinux" >"$U/etc/kernel/cmdline"
printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$U/etc/selinux/config"
uki "$U/boot/efi/EFI/Linux/debian-6.1.efi" "root=/dev/vda2 quiet"
"$SEINSTALL" status --root "$U" --json >"$U.json" || fail "status --json (UKI)"
json_assert "$U.json" -- 'd["boot_menu"]["file"] == "/boot/efi/EFI/Linux/debian-6.1.efi"' \
        'd["boot_menu"]["cmdline"] == "root=/dev/vda2 quiet"' 'd["boot_mode"] == "disabled"' \
        'd["boot_menu"]["lag"].startswith("/etc/kernel/cmdline says security=selinux but /boot/efi/EFI/Linux/debian-6.1.efi has no security=: build the image again")' ||
        fail "status --json (UKI): $(cat "$U.json")"
echo "ok: a unified kernel image's built-in command line is the next boot's, its lag named"
uki "$U/boot/efi/EFI/Linux/debian-6.1.efi" "root=/dev/vda2 security=selinux quiet"
"$SEINSTALL" status --root "$U" --json >"$U.json" || fail "status --json (UKI)"
json_assert "$U.json" -- 'd["boot_menu"]["lag"] is None' 'd["boot_mode"] == "permissive"' ||
        fail "status --json (UKI that agrees): $(cat "$U.json")"
echo "ok: a unified kernel image that agrees: no lag"

# --regenerate regenerates whenever the menu lags, and only then. Needs root (the sandbox)
# and a static shell for the target's update-grub.
[ "$(id -u)" = 0 ] || skip "needs root for the sandbox (--regenerate)"
require_static_busybox "to run update-grub in the target"
require_tool bwrap bubblewrap
mkdir -p "$T/bin" "$T/usr/sbin"
cp /bin/busybox "$T/bin/busybox"
cat >"$T/usr/sbin/update-grub" <<'SH'
#!/bin/busybox sh
. /etc/default/grub
/bin/busybox echo "update-grub ran"
/bin/busybox printf "menuentry 'Debian GNU/Linux' {\n\tlinux /boot/vmlinuz root=/dev/vda1 ro %s %s\n}\n" \
        "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT" >/boot/grub/grub.cfg
SH
chmod +x "$T/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --labeled --regenerate
assert_contains "update-grub ran although GRUB's defaults did not change" "$ERR" "update-grub ran"
assert_contains "apply reports grub.cfg" "$OUT" "changed /boot/grub/grub.cfg: regenerated by /usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status after --regenerate" "$OUT" "boots in:        enforcing"
case $OUT in *LAGS*) fail "status still names a lag: $OUT" ;; esac
expect_exit 0 "$SEINSTALL" apply --root "$T" --mode enforcing --labeled --regenerate
case $ERR in *"update-grub ran"*) fail "update-grub ran although the menu agrees: $ERR" ;; esac
assert_contains "second run" "$OUT" "nothing to change"
# --regenerate alone: no mode, nothing but the menu.
grub_cfg "quiet" >"$T/boot/grub/grub.cfg"
before=$(md5sum "$T/etc/selinux/config" "$T/etc/default/grub")
expect_exit 0 "$SEINSTALL" apply --root "$T" --regenerate
assert_contains "apply --regenerate alone" "$ERR" "update-grub ran"
assert_eq "config and defaults untouched by --regenerate alone" "$before" \
        "$(md5sum "$T/etc/selinux/config" "$T/etc/default/grub")"
expect_exit 0 "$SEINSTALL" status --root "$T"
assert_contains "status after --regenerate alone" "$OUT" "boots in:        enforcing"

# install's last line claims only what the boot menu shows.
. "$(dirname "$0")/../install-lib.sh"
require_loop
d=$(scratch_dir)
make_fs_image "$d/a.img" ext4 128
mount_image "$d/a.img" "$d/a"
make_target "$d/a"
mkdir -p "$d/a/boot/grub"
grub_cfg "quiet" >"$d/a/boot/grub/grub.cfg"
expect_exit 0 "$SEINSTALL" install --root "$d/a" --mode enforcing --no-cmdline
assert_contains "install without --regenerate" "$OUT" \
        "Configured: SELinux enforcing (from --mode), policy default, but the boot menu does not say so yet:"
assert_contains "install names the lag and the fix" "$OUT" \
        "/etc/default/grub says security=selinux but /boot/grub/grub.cfg's default entry has no security=: run chroot $d/a update-grub, or seinstall apply --root $d/a --regenerate"
case $OUT in *"Installed:"*) fail "install claims Installed with a lagging menu: $OUT" ;; esac
mkdir -p "$d/a/bin" "$d/a/usr/sbin"
cp /bin/busybox "$d/a/bin/busybox"
cp "$T/usr/sbin/update-grub" "$d/a/usr/sbin/update-grub"
expect_exit 0 "$SEINSTALL" install --root "$d/a" --mode enforcing --no-cmdline --regenerate
assert_contains "install --regenerate with a lagging menu" "$OUT" \
        "Installed: SELinux enforcing (from --mode), policy default."
