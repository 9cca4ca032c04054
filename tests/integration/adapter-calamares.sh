#!/bin/bash
# Calamares adapter, in the real Calamares (Debian 12's calamares package, 3.2.61): its job
# runner loads the seinstall module (adapters/calamares/seinstall, unchanged) twice through
# settings.conf instances with the adapter's own .conf files: seinstall@check right where the
# partition module's jobs end (they leave the planned layout in global storage "partitions"),
# before Calamares' own `mount` module; seinstall@install before its own `umount` module.
# The only stand-in is the partition page and its jobs: Calamares' partition page finds no disk
# here (KPMcore's sfdisk backend lists no loop device), so a small job module puts the layout a
# person would have chosen into global storage "partitions", with the keys the partition
# module's FillGlobalStorageJob writes (device, fs, fsName, mountPoint, claimed, ...).
# - seinstall-fstypes: partition.conf's availableFileSystemTypes from the policy and the mkfs
#   programs: ext4, xfs, btrfs offered; reiserfs, fat32/fat16 not, even with their mkfs on PATH;
# - a kept ReiserFS root (real mkreiserfs image) and a kept vfat root are refused before
#   mount: the images' sha256 is unchanged; so is an ext4 root refused for its tmpfs /home,
#   which the same sequence without seinstall@check writes to; the dialog is captured under Xvfb;
# - the messages are translated: the job module's from po/de.po (a .mo where Calamares finds
#   python modules' ones), the page's from its own .ts files (de and fr, Qt's .qm in the plugin);
# - a root the mount module could not mount is caught instead of checking the live system;
# - booted with seinstall.unsupported=warn, a tmpfs /home goes on in permissive mode;
# - a good layout (50,000 files) installs enforcing, the relabel's progress feeding the job's
#   progress bar, and the `umount` module unmounts the labeled target.
# - the seinstallcheck page (a C++ view module, built here against Calamares' headers) right
#   after a stand-in partition page, under Xvfb and driven with xdotool: a NEW ReiserFS root is
#   refused on the page, before the exec phase (Set up stays disabled: pressing it starts no
#   job), the image's sha256 unchanged; Back returns to the partition page, a good layout
#   passes, and Set up installs it in the same session. The same layout without the page is
#   formatted by the (stand-in) partition job before seinstall@check refuses it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool setfattr attr

a=$TOP/installer-plugin/adapters/calamares
# Importing main.py below must leave no __pycache__ in the tree: make install (and with it the
# package) would ship it.
export PYTHONDONTWRITEBYTECODE=1
stamp=$(mktemp)
on_exit "rm -f $stamp"
py=/usr/bin/python3
[ -x "$py" ] || skip "no /usr/bin/python3 (Calamares runs python job modules with it)"
"$py" -c 'import yaml' 2>/dev/null || skip "python3-yaml is missing (needed to read the .conf files)"

# Static checks: python syntax and names, YAML shapes, the sequence order.
for f in "$a/seinstall/main.py" "$a/seinstall-fstypes"; do
        "$py" -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$f" ||
                fail "$f does not compile"
        if command -v pyflakes3 >/dev/null; then
                pyflakes3 "$f" || fail "pyflakes3 found problems in $f"
        fi
done
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
assert exec_.index("seinstall@check") == exec_.index("partition") + 1, exec_
assert exec_.index("seinstall@check") < exec_.index("mount"), exec_
assert exec_.index("seinstall@install") == exec_.index("umount") - 1, exec_
show = [m for step in s["sequence"] for k, v in step.items() if k == "show" for m in v]
assert show.index("seinstallcheck") == show.index("partition") + 1, show
print("ok: module.desc, the .conf files and the sequence are as Calamares needs them")
EOF
# The plan the module hands to seinstall, from "partitions" as FillGlobalStorageJob writes it.
"$py" - "$a" <<'EOF' || fail "plan_lines() does not turn global storage \"partitions\" into the plan"
import sys, types
stub = types.ModuleType("libcalamares")
stub.job = types.SimpleNamespace(configuration={})
stub.utils = types.SimpleNamespace()
sys.modules["libcalamares"] = stub
sys.path.insert(0, sys.argv[1] + "/seinstall")
import main
got = main.plan_lines([
    {"device": "/dev/sda1", "fs": "fat32", "fsName": "fat32", "mountPoint": "/boot/efi"},
    {"device": "/dev/sda2", "fs": "reiserfs", "mountPoint": "/", "claimed": False},
    {"device": "/dev/sda3", "fs": "linuxswap", "mountPoint": ""},
    {"device": "/dev/sda4", "fs": "unformatted", "mountPoint": ""},
    {"device": "/dev/mapper/luks-x", "fs": "ext4", "mountPoint": "/my home"}])
want = ["/dev/sda1 /boot/efi vfat defaults 0 0", "/dev/sda2 / reiserfs defaults 0 0",
        "/dev/mapper/luks-x /my\\040home ext4 defaults 0 0"]
assert got == want, got
print("ok: the plan from \"partitions\": " + " | ".join(got))
EOF
pyc=$(find "$a" -name __pycache__ -newer "$stamp")
[ -z "$pyc" ] || fail "the test wrote python bytecode into the tree: $pyc"
# The job module's messages: the .pot holds every message of main.py (regenerated exactly as
# installer-plugin/adapters/calamares/README.md says), and po/de.po and po/fr.po translate each of them (gettext, as Calamares'
# python modules are translated).
if command -v xgettext >/dev/null; then
        pot=$(mktemp)
        on_exit "rm -f $pot"
        (cd "$a" && xgettext --keyword=_ --add-comments --from-code=UTF-8 \
                --no-location --omit-header -o - seinstall/main.py) >"$pot"
        "$py" - "$pot" "$a/po/seinstall-calamares.pot" <<'EOF' || fail "po/seinstall-calamares.pot is stale: regenerate it (installer-plugin/adapters/calamares/README.md)"
import re, sys
ids = [set(re.findall(r'^msgid ((?:".*"\n?)+)', open(f).read(), re.M)) - {'""\n'} for f in sys.argv[1:]]
assert ids[0] == ids[1], ids[0] ^ ids[1]
print("ok: the .pot has the %d messages of main.py" % len(ids[0]))
EOF
        for l in de fr; do
                msgcmp "$a/po/$l.po" "$a/po/seinstall-calamares.pot" || fail "po/$l.po lacks messages of the .pot (msgmerge it)"
                stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$a/po/$l.po" 2>&1) || fail "msgfmt po/$l.po: $stats"
                case $stats in *fuzzy* | *untranslated*) fail "po/$l.po is not complete: $stats" ;; esac
                echo "ok: po/$l.po: $stats"
        done
fi
# The page's messages (Qt's tr(), as Calamares' C++ modules are translated): lupdate finds no
# message in its sources that lang/seinstallcheck_de.ts or _fr.ts lacks, and none is unfinished.
lupdate=$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)
if [ -x "$lupdate" ]; then
        tsd=$(scratch_dir)
        for l in de fr; do
                ts=$a/seinstallcheck/lang/seinstallcheck_$l.ts
                cp "$ts" "$tsd/"
                (cd "$a/seinstallcheck" && "$lupdate" -silent -no-obsolete -locations none \
                        SeinstallCheck.cpp SeinstallCheckViewStep.cpp -ts "$tsd/${ts##*/}") ||
                        fail "lupdate on the page's sources"
                "$py" - "$ts" "$tsd/${ts##*/}" <<'EOF' || fail "${ts#"$TOP"/} is stale or incomplete: lupdate it and translate every message (installer-plugin/adapters/calamares/README.md)"
import sys
import xml.etree.ElementTree as ET
def messages(path):
    got = {}
    for ctx in ET.parse(path).getroot().iter("context"):
        for m in ctx.iter("message"):
            t = m.find("translation")
            got[(ctx.findtext("name"), m.findtext("source"))] = (t.get("type"), t.text)
    return got
shipped, fresh = messages(sys.argv[1]), messages(sys.argv[2])
assert set(shipped) == set(fresh), set(shipped) ^ set(fresh)
bad = [k for k, (kind, text) in fresh.items() if kind is not None or not text]
assert not bad, bad
print("ok: %s translates all %d messages of the page" % (sys.argv[1].rsplit("/", 1)[1], len(fresh)))
EOF
        done
else
        echo "note: no lupdate (qttools5-dev-tools): the .ts files are not compared with the page's sources"
fi

require_command check
export PATH=${SEINSTALL%/*}:$PATH

# seinstall-fstypes: what partition.conf may offer. mkfs.reiserfs and mkfs.fat exist (faked if
# the host lacks them), so only the policy keeps them out.
d=$(scratch_dir)
mkdir -p "$d/fakebin"
for m in mkfs.reiserfs mkfs.fat; do
        command -v $m >/dev/null || { printf '#!/bin/sh\nexit 1\n' >"$d/fakebin/$m" && chmod +x "$d/fakebin/$m"; }
done
printf -- '---\n# Calamares partition.conf\nefiSystemPartition: "/boot/efi"\ndefaultFileSystemType: "reiserfs"\n# availableFileSystemTypes:  ["ext4","f2fs"]\n' \
        >"$d/partition.conf"
explain=$(PATH=$d/fakebin:$PATH "$a/seinstall-fstypes" --explain --write "$d/partition.conf" 2>&1 >"$d/fstypes.out") ||
        fail "seinstall-fstypes failed: $explain"
echo "$explain"
assert_contains "reiserfs, mkfs present" "$(grep '^reiserfs' <<<"$explain")" "no    policy: refuse (genfs); mkfs: /"
assert_contains "fat32, mkfs present" "$(grep '^fat32' <<<"$explain")" "no    policy: refuse (genfs); mkfs: /"
"$py" - "$d/partition.conf" "$d/fstypes.out" <<'EOF' || fail "partition.conf: $(cat "$d/partition.conf")"
import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
offered = c["availableFileSystemTypes"]
assert offered == open(sys.argv[2]).read().split(), (offered,)
for fs in ("ext4", "xfs", "btrfs"):
    assert fs in offered, (fs, offered)
for fs in ("reiserfs", "fat32", "fat16", "exfat", "ntfs", "nilfs2"):
    assert fs not in offered, (fs, offered)
assert c["defaultFileSystemType"] == "ext4", c
assert c["efiSystemPartition"] == "/boot/efi", c
print("ok: partition.conf offers " + ", ".join(offered) + "; default ext4")
EOF
grep -q '^# Calamares partition.conf' "$d/partition.conf" || fail "--write dropped partition.conf's comments"

command -v calamares >/dev/null || skip "calamares is not installed (make deps installs it)"
for t in Xvfb import mkfs.fat msgfmt; do
        command -v $t >/dev/null || skip "$t is missing (make deps installs xvfb, imagemagick, dosfstools, gettext)"
done
require_command install
require_loop
calamares_version=$(dpkg-query -W -f='${Version}' calamares 2>/dev/null)
echo "host: calamares $calamares_version, real binary, $(dpkg-query -W -f='${Package} ${Version}\n' libqt5core5a libqt6core6t64 2>/dev/null | head -n 1)"

# The seinstallcheck view module, and the stand-in for the partition page, built with CMake
# against the installed Calamares (its headers and CMake config ship in the calamares package).
for t in cmake xdotool; do
        command -v $t >/dev/null || skip "$t is missing (make deps installs cmake, xdotool)"
done
build_module() { # SOURCE_DIR BUILD_DIR
        { nice cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" &&
                nice cmake --build "$2" -j2; } >"$2.log" 2>&1
}
# One build directory per Calamares (adapter-calamares-trixie.sh runs this test in a Debian 13
# chroot on the same tree).
cmod=$SEINSTALL_BUILD_DIR/calamares-${calamares_version:-unknown}
[[ $cmod = /* ]] || cmod=$TOP/$cmod
mkdir -p "$cmod"
if ! build_module "$a/seinstallcheck" "$cmod/seinstallcheck"; then
        grep -q 'Could not find a package configuration file provided by "Qt5\|ECM\|KF5\|YAMLCPP' "$cmod/seinstallcheck.log" &&
                skip "Calamares' build dependencies are missing (make deps installs qtbase5-dev, qttools5-dev, libkf5coreaddons-dev, ...)"
        fail "building the seinstallcheck module: $(tail -n 20 "$cmod/seinstallcheck.log")"
fi
build_module "$TOP/tests/hosts/calamares-partition-standin" "$cmod/standin" ||
        fail "building the stand-in partition page: $(tail -n 20 "$cmod/standin.log")"

out_dir=${SEINSTALL_CALAMARES_OUT:-$TOP/build/hosts}
mkdir -p "$out_dir"
mods=$d/modules
cfg=$d/config
mkdir -p "$mods" "$cfg/modules" "$cfg/branding/seinstall-test" "$d/home" "$d/xdg"
chmod 700 "$d/xdg"
cp -r "$a/seinstall" "$mods/"
mkdir -p "$mods/seinstallcheck" "$mods/standinpartition"
cp "$cmod/seinstallcheck/libcalamares_viewmodule_seinstallcheck.so" "$cmod/seinstallcheck/module.desc" "$mods/seinstallcheck/"
cp "$a/seinstallcheck/seinstallcheck.conf" "$cfg/modules/"
cp "$cmod/standin/libcalamares_viewmodule_standinpartition.so" "$cmod/standin/module.desc" "$mods/standinpartition/"
printf -- '---\nlayoutFile: %s\n' "$d/layout.json" >"$cfg/modules/standinpartition.conf"
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
# The stand-in for the partition page and its jobs: "partitions" as FillGlobalStorageJob fills
# it, and the locale the locale page would have chosen.
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
    if conf.get("lang"):
        libcalamares.globalstorage.insert("localeConf", {"LANG": conf["lang"]})
    return None
EOF
# The job module's German, where Calamares looks for python modules' translations
# (XDG_DATA_DIRS/locale/LANG/LC_MESSAGES), compiled from the shipped po/de.po as the package
# build does.
mkdir -p "$d/share/locale/de/LC_MESSAGES"
msgfmt -o "$d/share/locale/de/LC_MESSAGES/seinstall-calamares.mo" "$a/po/de.po" || fail "msgfmt po/de.po"

write_settings() { # EXEC_MODULE...
        {
                cat <<EOF
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
EOF
                if [ -n "${SHOW:-}" ]; then
                        echo "- show:"
                        # shellcheck disable=SC2086 # SHOW: module names, one word each
                        printf '  - %s\n' $SHOW
                fi
                echo "- exec:"
                printf '  - %s\n' "$@"
                cat <<EOF
- show:
  - finished
branding: seinstall-test
prompt-install: false
dont-chroot: true
quit-at-end: ${QUIT_AT_END:-true}
EOF
        } >"$cfg/settings.conf"
}
full_sequence=(testlayout seinstall@check mount seinstall@install umount)
# ran_to_end LOG N: the last of N jobs, Calamares' umount, started ("Unmount file systems." in
# 3.2, "Unmounting file systems…" in 3.3).
ran_to_end() {
        grep -qE "Starting job \"Unmount(ing)? file systems(\.|…)\" \( $2 / $2 \)" "$1" ||
                fail "the sequence did not reach its end (umount, job $2 of $2): $(grep 'Starting job' "$1")"
        echo "ok: the sequence ran to its end (umount, job $2 of $2)"
}

layout() { # [--lang L] DEVICE FS MOUNTPOINT [DEVICE FS MOUNTPOINT]...
        {
                echo "---"
                if [ "$1" = --lang ]; then
                        echo "lang: $2"
                        shift 2
                fi
                echo "partitions:"
                while [ $# -ge 3 ]; do
                        printf -- '- device: %s\n  fs: %s\n  fsName: %s\n  mountPoint: %s\n  claimed: false\n  partlabel: ""\n  uuid: ""\n' \
                                "$1" "$2" "$2" "$3"
                        shift 3
                done
        } >"$cfg/modules/testlayout.conf"
}
# Calamares' mount module mounts the target on a directory it makes in TMPDIR
# (calamares-root-*): each run here gets the test's own, so that whatever a failed sequence left
# mounted there (Calamares skips umount after a failed job) is found, and is this test's only,
# whatever TMPDIR the test itself runs with.
ctmp=$d/calamares-tmp
mkdir -p "$ctmp"
unmount_calamares_roots() {
        awk -v d="$ctmp/calamares-root-" 'index($2, d) == 1 {print $2}' /proc/self/mounts |
                sort -r | xargs -r umount -l
}
on_exit unmount_calamares_roots

# calamares_run LOG [WRAPPER...]: Calamares headless (offscreen), quitting at the end.
calamares_run() {
        local log=$1
        shift
        HOME=$d/home XDG_RUNTIME_DIR=$d/xdg XDG_DATA_DIRS=$d/share:/usr/local/share:/usr/share \
                TMPDIR=$ctmp QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software \
                timeout 300 "$@" calamares -d -c "$cfg" >"$log" 2>&1
        local rc=$?
        unmount_calamares_roots
        return $rc
}
sum() { sha256sum "$1" | cut -d' ' -f1; }

# 1. A kept ReiserFS root (the seed's), on a screen (Xvfb): refused before mount, the image's
#    bytes unchanged, the failure dialog captured.
command -v mkreiserfs >/dev/null || skip "mkreiserfs is missing (make deps installs reiserfsprogs)"
make_fs_image "$d/reiser.img" reiserfs 64 || fail "mkreiserfs $d/reiser.img"
before=$(sum "$d/reiser.img")
layout "$d/reiser.img" reiserfs /
QUIT_AT_END=false write_settings "${full_sequence[@]}"
exec 5< <(Xvfb -displayfd 1 -screen 0 800x520x24 -nolisten tcp 2>"$d/xvfb.log" & echo "$!")
read -r xpid <&5
read -r -t 30 disp <&5 || fail "Xvfb did not start: $(cat "$d/xvfb.log")"
on_exit "kill $xpid"
log=$d/refused.log
HOME=$d/home XDG_RUNTIME_DIR=$d/xdg TMPDIR=$ctmp DISPLAY=:$disp QT_QUICK_BACKEND=software \
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
cp "$log" "$out_dir/calamares-refused.log"
sed -n '/Starting job "seinstall"/,$p' "$log" | grep -v '^ *$' | head -n 40
assert_contains "Calamares' error" "$(cat "$log")" 'ERROR: Installation failed: "SELinux cannot work on the file systems chosen"'
details=$(sed -n '/- details:/,/Calamares will quit/p' "$log")
assert_contains "the dialog's details, first line" "$(sed -n 1p <<<"$details")" "/ (reiserfs)"
assert_contains "the dialog's details" "$details" "Fix: format $d/reiser.img for / as ext4, xfs or btrfs"
assert_contains "Calamares stopped before mount" "$(cat "$log")" 'Skipping non-emergency job "mount"'
assert_eq "the ReiserFS image's sha256 after the refusal" "$before" "$(sum "$d/reiser.img")"
echo "ok: the kept ReiserFS root was refused before mount; $d/reiser.img is unchanged (sha256 $before)"
[ "$(stat -c %s "$shot")" -gt 10000 ] || fail "the screenshot $shot is (nearly) empty"
echo "ok: the failure dialog's screenshot is $shot ($(identify -format '%wx%h' "$shot"))"

# 2. vfat as /, in German: refused before mount, bytes unchanged.
make_fs_image "$d/vfat.img" vfat 64 || fail "mkfs.vfat $d/vfat.img"
before=$(sum "$d/vfat.img")
layout --lang de_DE.UTF-8 "$d/vfat.img" fat32 /
write_settings "${full_sequence[@]}"
calamares_run "$d/vfat.log"
assert_contains "the translated title" "$(cat "$d/vfat.log")" 'ERROR: Installation failed: "SELinux kann auf den gewählten Dateisystemen nicht arbeiten"'
assert_contains "the translated job name" "$(cat "$d/vfat.log")" '"seinstall: Prüfen, ob die Dateisysteme SELinux-Labels tragen können"'
assert_contains "the vfat refusal" "$(sed -n '/- details:/,/Calamares will quit/p' "$d/vfat.log")" "/ (vfat)"
assert_eq "the vfat image's sha256 after the refusal" "$before" "$(sum "$d/vfat.img")"
echo "ok: vfat as / refused before mount, in German; $d/vfat.img is unchanged"
# This kernel cannot mount vfat (nor ReiserFS): the control is an ext4 root with /home on tmpfs,
# refused with the check (bytes unchanged) and written by the mount module without it.
make_fs_image "$d/ctl.img" ext4 64 || fail "mkfs.ext4 $d/ctl.img"
before=$(sum "$d/ctl.img")
layout "$d/ctl.img" ext4 / tmpfs tmpfs /home
calamares_run "$d/ctl.log"
assert_contains "tmpfs /home refused" "$(sed -n '/- details:/,/Calamares will quit/p' "$d/ctl.log")" "/home (tmpfs)"
assert_eq "the ext4 image's sha256 after the refusal" "$before" "$(sum "$d/ctl.img")"
write_settings testlayout mount seinstall@install umount
calamares_run "$d/ctl-nocheck.log"
[ "$(sum "$d/ctl.img")" != "$before" ] || fail "without seinstall@check the ext4 image was not written either: the sha256 test proves nothing"
echo "ok: with seinstall@check the refused ext4 image is unchanged; without it the mount module wrote to it (sha256 changed)"

make_fs_image "$d/root.img" ext4 256
mount_image "$d/root.img" "$d/root"
make_target "$d/root"
mkdir -p "$d/root/usr/share/many"
(cd "$d/root/usr/share/many" && seq 1 50000 | xargs touch) || fail "creating 50000 files"
umount "$d/root" || fail "umount $d/root"
write_settings "${full_sequence[@]}"

# 3. A root the mount module cannot mount: caught, not the live system checked instead.
layout "$d/missing.img" ext4 /
calamares_run "$d/unmounted.log"
assert_contains "unmounted root" "$(cat "$d/unmounted.log")" 'ERROR: Installation failed: "SELinux: the target'"'"'s root is not mounted"'

# 4. Booted with seinstall.unsupported=warn: a tmpfs /home goes on, permissive.
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

# 5. The good layout installs enforcing, the relabel's progress reaching Calamares' job
#    progress; Calamares' umount module unmounts the target.
layout "$d/root.img" ext4 /
calamares_run "$d/good.log"
cp "$d/good.log" "$out_dir/calamares-good.log"
if grep -q 'Installation failed' "$d/good.log"; then
        fail "the good layout failed: $(grep -A5 'Installation failed' "$d/good.log")"
fi
grep '\[PYTHON JOB\]: "seinstall: ' "$d/good.log" | sed 's/^.*"seinstall: //; s/" *$//' | grep -v '^/'
ran_to_end "$d/good.log" 5
# Into a pipe seinstall writes the first progress line at once, then one every 5 s: a relabel
# that ends sooner gives one report, which must have been read from seinstall's own line.
nprog=$(grep -c 'seinstall: progress [01]\.[0-9][0-9] (.*[0-9] of ~[0-9]* entries' "$d/good.log")
[ "$nprog" -ge 1 ] || fail "no progress report read from the relabel's progress line: $(grep 'progress' "$d/good.log" | head)"
echo "ok: the relabel reported progress $nprog times through libcalamares.job.setprogress"
if grep -q "$d/root.img" /proc/self/mounts || grep -qF "$ctmp/calamares-root-" /proc/self/mounts; then
        fail "Calamares' umount module left the target mounted"
fi
echo "ok: Calamares' umount module unmounted the target"
mount_image "$d/root.img" "$d/root"
config=$(cat "$d/root/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the target"
assert_contains "target config" "$config" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
assert_contains "target /usr/bin/true label" "$(label_of "$d/root/usr/bin/true")" ":bin_t:"
assert_contains "target /usr/share/many/49999 label" "$(label_of "$d/root/usr/share/many/49999")" ":usr_t:"
# setfiles (what a relabel would change) finds nothing to change after Calamares finished.
changes=$(setfiles -F -n -v -r "$d/root" "$d/root/etc/selinux/default/contexts/files/file_contexts" \
        "$d/root" 2>&1)
[ -z "$changes" ] || fail "setfiles -F -n would still change labels: $changes"
echo "ok: setfiles -F -n finds no label to change after Calamares finished"
umount "$d/root" || fail "umount $d/root"

# 6. The seinstallcheck page, on a screen (Xvfb), driven by xdotool as a person's keyboard.
standin_layout() { # DEVICE FS MOUNTPOINT CLAIMED
        printf '{"partitions": [{"device": "%s", "fs": "%s", "fsName": "%s", "mountPoint": "%s", "claimed": %s}]}\n' \
                "$1" "$2" "$2" "$3" "$4" >"$d/layout.json"
}
exec 5< <(Xvfb -displayfd 1 -screen 0 800x520x24 -nolisten tcp 2>"$d/xvfb2.log" & echo "$!")
read -r xpid <&5
read -r -t 30 disp <&5 || fail "Xvfb did not start: $(cat "$d/xvfb2.log")"
on_exit "kill $xpid"
start_calamares() { # LOG [VAR=VALUE]...
        log=$1
        shift
        env HOME=$d/home XDG_RUNTIME_DIR=$d/xdg TMPDIR=$ctmp DISPLAY=:$disp QT_QUICK_BACKEND=software "$@" \
                calamares -d -c "$cfg" >"$log" 2>&1 &
        cpid=$!
        on_exit "kill $cpid 2>/dev/null"
}
wait_log() { # PATTERN COUNT: until the log holds COUNT lines with PATTERN
        local _
        for _ in $(seq 1 120); do
                [ "$(grep -c -- "$1" "$log")" -ge "$2" ] && return 0
                kill -0 $cpid 2>/dev/null || fail "Calamares ended while waiting for '$1': $(tail -n 20 "$log")"
                sleep 0.5
        done
        fail "no '$1' (x$2) in the log within a minute: $(tail -n 20 "$log")"
}
press() { # KEY: to Calamares' window, focused, once the page has settled
        sleep 1
        DISPLAY=:$disp xdotool search --sync --onlyvisible --name 'seinstall test' windowfocus --sync key "$1" ||
                fail "xdotool could not press $1"
}
shoot() {
        sleep 1 # the page paints
        import -display ":$disp" -window root "$1" || fail "import could not capture the screen"
}
stop_calamares() {
        kill "$cpid" 2>/dev/null
        wait "$cpid" 2>/dev/null
        unmount_calamares_roots
}

#    First the problem the page solves: without it, Next on the partition page runs the
#    (stand-in) partition job, which formats the new ReiserFS root before seinstall@check
#    refuses it in the exec phase.
make_fs_image "$d/new.img" ext4 64 || fail "mkfs.ext4 $d/new.img"
cp "$d/new.img" "$d/new-nopage.img"
before=$(sum "$d/new-nopage.img")
standin_layout "$d/new-nopage.img" reiserfs / true
QUIT_AT_END=false SHOW="standinpartition" write_settings standinpartition seinstall@check mount seinstall@install umount
start_calamares "$d/nopage.log"
wait_log 'standinpartition: page shown' 1
wait_log 'All requirements have been checked' 1
press alt+n # the first page's button reads Next, and starts the exec phase
wait_log 'Calamares will quit when the dialog closes' 1
stop_calamares
assert_contains "the exec-phase refusal" "$(cat "$d/nopage.log")" 'ERROR: Installation failed: "SELinux cannot work on the file systems chosen"'
assert_contains "the stand-in partition job formatted first" "$(cat "$d/nopage.log")" "standinpartition: formatted"
[ "$(sum "$d/new-nopage.img")" != "$before" ] || fail "without the page the new root was not formatted either: the sha256 test below proves nothing"
echo "ok: without seinstallcheck the new ReiserFS root is formatted, then refused in the exec phase"

#    The page in German and in French, the language Calamares shows (here from LANG, as in a
#    live system booted in that language): its messages from its own translations
#    (lang/seinstallcheck_LANG.ts), which Calamares' loadTranslator() finds in the plugin's
#    resources; the new ReiserFS root refused, unchanged.
before=$(sum "$d/new.img")
standin_layout "$d/new.img" reiserfs / true
SHOW="standinpartition seinstallcheck" write_settings standinpartition seinstall@check mount seinstall@install umount
for lang in de fr; do
        case $lang in
        de) title="SELinux kann auf den gewählten Dateisystemen nicht arbeiten" fix="Abhilfe: " next=alt+w
            tail="Es wurde nichts auf einen Datenträger geschrieben. Klicken Sie auf Zurück" ;;
        fr) title="SELinux ne peut pas fonctionner sur les systèmes de fichiers choisis" fix="Solution : " next=alt+s
            tail="Rien n’a été écrit sur aucun disque. Cliquez sur Précédent" ;;
        esac
        start_calamares "$d/page-$lang.log" "LANG=${lang}_${lang^^}.UTF-8"
        wait_log 'standinpartition: page shown' 1
        wait_log 'All requirements have been checked' 1
        # Calamares' own buttons are in that language from the first page on ("&Weiter",
        # "&Suivant"): the page's translator, installed when the module loads, makes Qt send
        # the LanguageChange that retranslates them.
        press "$next"
        wait_log "seinstallcheck: \"$title\" (Next disabled)" 1
        shoot "$out_dir/calamares-page-refused-$lang.png"
        stop_calamares
        # Calamares names the language de_DE; Qt's loader falls back from _de_DE.qm to _de.qm.
        grep -E "seinstallcheck: messages in \"${lang}(_[A-Z]+)?\" from \":/lang/seinstallcheck_$lang.qm\"" "$log" ||
                fail "the page did not load :/lang/seinstallcheck_$lang.qm: $(grep 'seinstallcheck: .*translation\|seinstallcheck: messages' "$log")"
        says=$(grep 'seinstallcheck: the page says:' "$log")
        assert_contains "the page's text in $lang" "$says" "$fix"
        assert_contains "the page's text in $lang" "$says" "$tail"
        case $says in *"Fix: "* | *"Nothing has been written"*) fail "the $lang page still says English: $says" ;; esac
        assert_eq "the new ReiserFS root's sha256 after the refusal in $lang" "$before" "$(sum "$d/new.img")"
        echo "ok: the page refused the new ReiserFS root in $lang (title, \"$fix\" and the advice)"
done
cp "$d/page-de.log" "$out_dir/calamares-page-de.log"

#    With the page: refused before the exec phase, Back, a good layout (the kept ext4 root of
#    step 5, its config removed and a label spoiled first), Set up, installed.
mount_image "$d/root.img" "$d/root"
rm -f "$d/root/etc/selinux/config"
setfattr -n security.selinux -v "system_u:object_r:tmp_t:s0" "$d/root/etc/hostname" ||
        fail "setfattr on $d/root/etc/hostname"
umount "$d/root" || fail "umount $d/root"
before=$(sum "$d/new.img")
standin_layout "$d/new.img" reiserfs / true
SHOW="standinpartition seinstallcheck" write_settings standinpartition seinstall@check mount seinstall@install umount
start_calamares "$d/page.log"
wait_log 'standinpartition: page shown' 1
wait_log 'All requirements have been checked' 1
press alt+n
wait_log 'seinstallcheck: "SELinux cannot work on the file systems chosen" (Next disabled)' 1
shoot "$out_dir/calamares-page-refused.png"
# Qt 5 prints a QStringList as ("..."), Qt 6 as QList("...").
grep -E 'seinstallcheck: the planned layout: (QList)?\("none / reiserfs defaults 0 0"\)' "$log" ||
        fail "the page's plan is not none / reiserfs: $(grep 'seinstallcheck: the planned layout' "$log")"
assert_contains "the page's refusal" "$(cat "$log")" 'seinstallcheck: refused "/" "reiserfs"'
assert_contains "the page's text in English" "$(grep 'seinstallcheck: the page says:' "$log")" "Fix: "
press alt+s # "Set up", disabled: nothing may start
sleep 2
if grep -q 'Starting job' "$log"; then
        fail "Set up started the exec phase from the refused page: $(grep 'Starting job' "$log")"
fi
assert_eq "the new ReiserFS root's sha256 after the refusal" "$before" "$(sum "$d/new.img")"
echo "ok: the page refused the new ReiserFS root; Set up stayed disabled; $d/new.img is unchanged (sha256 $before)"
press alt+b
wait_log 'standinpartition: page shown' 2
echo "ok: Back returned to the partition page"
standin_layout "$d/root.img" ext4 / false
press alt+n
wait_log 'seinstallcheck: "The file systems chosen can carry SELinux labels." (Next enabled)' 1
shoot "$out_dir/calamares-page-ok.png"
press alt+s
for _ in $(seq 1 600); do
        kill -0 $cpid 2>/dev/null || break
        sleep 0.5
done
kill -0 $cpid 2>/dev/null && fail "Calamares did not finish the good layout within 5 minutes: $(tail -n 20 "$log")"
stop_calamares
cp "$log" "$out_dir/calamares-page.log"
if grep -q 'Installation failed' "$log"; then
        fail "the good layout failed after Back: $(grep -A5 'Installation failed' "$log")"
fi
ran_to_end "$log" 6
assert_eq "the new ReiserFS root's sha256 at the end" "$before" "$(sum "$d/new.img")"
mount_image "$d/root.img" "$d/root"
assert_contains "target config" "$(cat "$d/root/etc/selinux/config" 2>/dev/null)" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
umount "$d/root" || fail "umount $d/root"
echo "ok: after Back the good layout installed enforcing in the same session; the screenshots are $out_dir/calamares-page-{refused,ok}.png"
