#!/bin/bash
# Calamares adapter, in the real Calamares (Debian 12's calamares package, 3.2.61): its job
# runner loads the seinstall module (adapters/calamares/seinstall, unchanged) twice through
# settings.conf instances with the adapter's own .conf files, after Calamares' own `mount`
# module has loop-mounted a real ext4 target and before its own `umount` module. The only
# stand-in is the partition page (interactive): a small job module puts the layout a person
# would have chosen into global storage ("partitions"), as the partition module does.
# - a refusing layout (ext4 /, tmpfs /home: this host's kernel has no ReiserFS) stops the
#   sequence with seinstall's reason; under Xvfb the dialog is captured with ImageMagick's
#   `import` into build/hosts/calamares-refused.png;
# - a good layout installs enforcing, and the `umount` module unmounts the labeled target;
# - a root the mount module could not mount is caught instead of checking the live system;
# - booted with seinstall.unsupported=warn, the refusing layout goes on in permissive mode.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

a=$TOP/installer-plugin/adapters/calamares
py=/usr/bin/python3
[ -x "$py" ] || skip "no /usr/bin/python3 (Calamares runs python job modules with it)"
"$py" -c 'import yaml' 2>/dev/null || skip "python3-yaml is missing (needed to read the .conf files)"

# Static checks: python syntax and names, YAML shapes, the sequence order.
"$py" -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$a/seinstall/main.py" ||
        fail "main.py does not compile"
if command -v pyflakes3 >/dev/null; then
        pyflakes3 "$a/seinstall/main.py" || fail "pyflakes3 found problems in main.py"
fi
"$py" - "$a" <<'EOF' || fail "the Calamares files are not what Calamares expects"
import os, sys, yaml
a = sys.argv[1]
desc = yaml.safe_load(open(os.path.join(a, "seinstall/module.desc")))
assert desc == {"type": "job", "name": "seinstall", "interface": "python", "script": "main.py"}, desc
assert os.path.exists(os.path.join(a, "seinstall", desc["script"]))
for conf, action in (("seinstall/seinstall.conf", "check"), ("seinstall-check.conf", "check"),
                     ("seinstall-install.conf", "install")):
    c = yaml.safe_load(open(os.path.join(a, conf)))
    assert c["action"] == action, (conf, c)
s = yaml.safe_load(open(os.path.join(a, "settings.conf.example")))
inst = {i["id"]: i for i in s["instances"]}
for i in inst.values():
    assert i["module"] == "seinstall" and os.path.exists(os.path.join(a, i["config"])), i
exec_ = [m for step in s["sequence"] for k, v in step.items() if k == "exec" for m in v]
assert exec_.index("seinstall@check") == exec_.index("mount") + 1, exec_
assert exec_.index("seinstall@install") == exec_.index("umount") - 1, exec_
assert exec_.index("seinstall@check") < exec_.index("unpackfs"), exec_
print("ok: module.desc, the .conf files and the sequence are as Calamares needs them")
EOF

command -v calamares >/dev/null || skip "calamares is not installed (make deps installs it)"
for t in Xvfb import; do
        command -v $t >/dev/null || skip "$t is missing (make deps installs xvfb and imagemagick)"
done
require_command check
require_command install
require_loop
echo "host: calamares $(dpkg-query -W -f='${Version}' calamares 2>/dev/null), real binary, Qt $(dpkg-query -W -f='${Version}' libqt5core5a 2>/dev/null)"

export PATH=${SEINSTALL%/*}:$PATH
out_dir=$TOP/build/hosts
mkdir -p "$out_dir"
d=$(scratch_dir)
mods=$d/modules
cfg=$d/config
mkdir -p "$mods" "$cfg/modules" "$cfg/branding/seinstall-test" "$d/home" "$d/xdg"
chmod 700 "$d/xdg"
cp -r "$a/seinstall" "$mods/"
cp "$a/seinstall-check.conf" "$a/seinstall-install.conf" "$cfg/modules/"
ln -s /usr/share/calamares/qml "$cfg/qml"
cp /usr/share/calamares/branding/default/squid.png "$cfg/branding/seinstall-test/"
# A branding whose slideshow is an image: the packaged QML slideshow needs OpenGL.
cat >"$cfg/branding/seinstall-test/branding.desc" <<'EOF'
---
componentName: seinstall-test
windowSize: 800px,520px
windowPlacement: free
strings:
    productName: "seinstall test"
    shortProductName: "seinstall"
    version: "0.1"
    shortVersion: "0.1"
    versionedName: "seinstall test 0.1"
    shortVersionedName: "seinstall 0.1"
    bootloaderEntryName: "seinstall"
images:
    productLogo: "squid.png"
    productIcon: "squid.png"
    productWelcome: "squid.png"
slideshow: [ "squid.png" ]
style:
    sidebarBackground: "#292F34"
    sidebarText: "#FFFFFF"
    sidebarTextSelect: "#292F34"
EOF
# The stand-in for the partition page: the layout goes into global storage as "partitions".
mkdir -p "$mods/testlayout"
cat >"$mods/testlayout/module.desc" <<'EOF'
---
type: "job"
name: "testlayout"
interface: "python"
script: "main.py"
EOF
cat >"$mods/testlayout/main.py" <<'EOF'
import libcalamares


def pretty_name():
    return "Test: the layout chosen on the partition page"


def run():
    conf = libcalamares.job.configuration or {}
    libcalamares.globalstorage.insert("firmwareType", "bios")
    libcalamares.globalstorage.insert("partitions", conf.get("partitions", []))
    return None
EOF
cat >"$cfg/settings.conf" <<EOF
---
modules-search: [ local, $mods, /usr/lib/x86_64-linux-gnu/calamares/modules ]
instances:
- id:       check
  module:   seinstall
  config:   seinstall-check.conf
- id:       install
  module:   seinstall
  config:   seinstall-install.conf
sequence:
- exec:
  - testlayout
  - mount
  - seinstall@check
  - seinstall@install
  - umount
- show:
  - finished
branding: seinstall-test
prompt-install: false
dont-chroot: true
quit-at-end: true
EOF

layout() { # ROOT_DEVICE ROOT_FS [MOUNTPOINT DEVICE FS]...
        {
                echo "---"
                echo "partitions:"
                while [ $# -ge 2 ]; do
                        printf -- '- device: %s\n  fs: %s\n  mountPoint: %s\n' "$1" "$2" "${3:-/}"
                        shift 3 2>/dev/null || shift $#
                done
        } >"$cfg/modules/testlayout.conf"
}
# Whatever a failed sequence left mounted (Calamares skips umount after a failed job).
unmount_calamares_roots() {
        awk '$2 ~ "^/tmp/calamares-root-" {print $2}' /proc/self/mounts | sort -r | xargs -r umount -l
}
on_exit unmount_calamares_roots

# calamares_run LOG [WRAPPER...]: Calamares headless (offscreen), quitting at the end.
calamares_run() {
        local log=$1
        shift
        HOME=$d/home XDG_RUNTIME_DIR=$d/xdg QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software \
                timeout 300 "$@" calamares -d -c "$cfg" >"$log" 2>&1
        local rc=$?
        unmount_calamares_roots
        return $rc
}

make_fs_image "$d/root.img" ext4 64
mount_image "$d/root.img" "$d/root"
make_target "$d/root"
umount "$d/root" || fail "umount $d/root"

# 1. Refusing layout, on a screen (Xvfb), with the failure dialog captured.
layout "$d/root.img" ext4 / tmpfs tmpfs /home
sed 's/^quit-at-end: true/quit-at-end: false/' "$cfg/settings.conf" >"$d/settings-x.conf"
cp "$cfg/settings.conf" "$d/settings.conf"
cp "$d/settings-x.conf" "$cfg/settings.conf"
exec 5< <(Xvfb -displayfd 1 -screen 0 800x520x24 -nolisten tcp 2>"$d/xvfb.log" & echo "$!")
read -r xpid <&5
read -r -t 30 disp <&5 || fail "Xvfb did not start: $(cat "$d/xvfb.log")"
on_exit "kill $xpid"
log=$d/refused.log
HOME=$d/home XDG_RUNTIME_DIR=$d/xdg DISPLAY=:$disp QT_QUICK_BACKEND=software \
        calamares -d -c "$cfg" >"$log" 2>&1 &
cpid=$!
on_exit "kill $cpid"
for _ in $(seq 1 240); do
        grep -q 'Calamares will quit when the dialog closes' "$log" && break
        kill -0 $cpid 2>/dev/null || break
        sleep 0.5
done
sleep 2 # the dialog paints
shot=$out_dir/calamares-refused.png
import -display ":$disp" -window root "$shot" || fail "import could not capture the screen"
kill "$cpid"
wait "$cpid" 2>/dev/null
kill "$xpid"
unmount_calamares_roots
cp "$d/settings.conf" "$cfg/settings.conf"
cp "$log" "$out_dir/calamares-refused.log"
sed -n '/Starting job "seinstall"/,$p' "$log" | grep -v '^ *$' | head -n 60
assert_contains "Calamares' error" "$(cat "$log")" 'ERROR: Installation failed: "SELinux cannot work on the file systems chosen"'
details=$(sed -n '/- details:/,/Calamares will quit/p' "$log")
assert_contains "the dialog's details, first line" "$(sed -n 1p <<<"$details")" "/home (tmpfs)"
assert_contains "the dialog's details" "$details" "Fix: put /home on a partition formatted as ext4"
assert_contains "Calamares stopped the sequence" "$(cat "$log")" 'Skipping non-emergency job "seinstall"'
[ "$(stat -c %s "$shot")" -gt 10000 ] || fail "the screenshot $shot is (nearly) empty"
echo "ok: the failure dialog's screenshot is $shot ($(identify -format '%wx%h' "$shot"))"
mount_image "$d/root.img" "$d/root"
[ ! -e "$d/root/etc/selinux/config" ] || fail "a refused install wrote the target's config"
umount "$d/root" || fail "umount $d/root"

# 2. A root the mount module cannot mount: caught, not the live system checked instead.
layout "$d/missing.img" ext4 /
calamares_run "$d/unmounted.log"
assert_contains "unmounted root" "$(cat "$d/unmounted.log")" 'ERROR: Installation failed: "SELinux: the target'"'"'s root is not mounted"'

# 3. Booted with seinstall.unsupported=warn: the refusing layout goes on, permissive.
layout "$d/root.img" ext4 / tmpfs tmpfs /home
echo "BOOT_IMAGE=/live/vmlinuz boot=live seinstall.unsupported=warn" >"$d/cmdline"
# shellcheck disable=SC2016 # the inner shell's $1 and $@
calamares_run "$d/warn.log" unshare -m --propagation private bash -c \
        'mount --bind "$1" /proc/cmdline && shift && exec "$@"' _ "$d/cmdline"
if grep -q 'Installation failed' "$d/warn.log"; then
        fail "seinstall.unsupported=warn: $(grep -A3 'Installation failed' "$d/warn.log")"
fi
assert_contains "check under seinstall.unsupported=warn" "$(cat "$d/warn.log")" "--unsupported warn"
mount_image "$d/root.img" "$d/root"
assert_contains "target config" "$(cat "$d/root/etc/selinux/config")" "SELINUX=permissive"
rm -f "$d/root/etc/selinux/config"
umount "$d/root" || fail "umount $d/root"

# 4. The good layout installs enforcing; Calamares' umount module unmounts the target.
layout "$d/root.img" ext4 /
calamares_run "$d/good.log"
cp "$d/good.log" "$out_dir/calamares-good.log"
if grep -q 'Installation failed' "$d/good.log"; then
        fail "the good layout failed: $(grep -A5 'Installation failed' "$d/good.log")"
fi
grep '\[PYTHON JOB\]: "seinstall: ' "$d/good.log" | sed 's/^.*"seinstall: //; s/" *$//'
assert_contains "the sequence ran to its end" "$(cat "$d/good.log")" 'Starting job "Unmount file systems." ( 5 / 5 )'
if grep -q "$d/root.img" /proc/self/mounts || awk '$2 ~ "^/tmp/calamares-root-"' /proc/self/mounts | grep -q .; then
        fail "Calamares' umount module left the target mounted"
fi
echo "ok: Calamares' umount module unmounted the target"
mount_image "$d/root.img" "$d/root"
config=$(cat "$d/root/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the target"
assert_contains "target config" "$config" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
assert_contains "target /usr/bin/true label" "$(label_of "$d/root/usr/bin/true")" ":bin_t:"
# setfiles (what a relabel would change) finds nothing to change after Calamares finished.
changes=$(setfiles -F -n -v -r "$d/root" "$d/root/etc/selinux/default/contexts/files/file_contexts" \
        "$d/root" 2>&1)
[ -z "$changes" ] || fail "setfiles -F -n would still change labels: $changes"
echo "ok: setfiles -F -n finds no label to change after Calamares finished"
