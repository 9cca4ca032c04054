#!/bin/bash
# Anaconda adapter. Host: Anaconda is not packaged for Debian, so the kickstart snippet
# (adapters/anaconda/seinstall.ks, unchanged) runs through tests/hosts/anaconda-run-scripts.py,
# which runs %pre/%post the way anaconda 45.21 does (its script file in ROOT/tmp, interpreter,
# chroot or --nochroot, ANA_INSTALL_PATH and LC_ALL=C, the --log file, --erroronfail stopping
# the install), on the paths Anaconda uses: the kickstart at /run/install/ks.cfg, the scripts
# under /usr/share/seinstall/adapters, the installed system loop-mounted at /mnt/sysroot, a
# private /tmp (all in a private mount namespace). pykickstart parses the kickstart when it
# can be imported (it is not in Debian 12: SEINSTALL_PYKICKSTART=DIR names a source tree);
# else the harness reads the %pre/%pre-install/%post sections itself and the test says so.
# Also: the layout the %pre script plans (seinstall's own kickstart reader: %include,
# %ksappend, quoting, part/logvol/raid/btrfs/autopart/reqpart), each way of planning the seed's
# ReiserFS root refused, vfat as / refused, a %pre that writes the storage lines for an
# %include, and the %pre-install check of what is mounted at /mnt/sysroot.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool shellcheck shellcheck

a=$TOP/installer-plugin/adapters/anaconda
harness=$TOP/tests/hosts/anaconda-run-scripts.py
shellcheck -s sh "$a/seinstall-pre" "$a/seinstall-pre-install" "$a/seinstall-post" ||
        fail "shellcheck found problems"
echo "ok: shellcheck passes on seinstall-pre, seinstall-pre-install and seinstall-post"
# The snippet runs both with the options that make Anaconda stop and show the output.
assert_contains "seinstall.ks" "$(cat "$a/seinstall.ks")" "%pre --erroronfail"
assert_contains "seinstall.ks" "$(cat "$a/seinstall.ks")" "%pre-install --erroronfail"
assert_contains "seinstall.ks" "$(cat "$a/seinstall.ks")" "%post --nochroot --erroronfail"

export PATH=${SEINSTALL%/*}:$PATH
# Scratch space outside /tmp: the Anaconda runs below get a private /tmp.
export TMPDIR=/var/tmp
d=$(scratch_dir)

# The kickstart's layout becomes the plan: part/logvol with --fstype=T or --fstype T, quoted
# types, Anaconda's "efi", CRLF line ends; swap, PVs and storage lines inside sections are not
# mounts seinstall checks. The plan is `seinstall profile KS --plan`: every plan line is
# preceded by a comment naming the kickstart line.
write_ks() { # FILE ROOT_FSTYPE [EXTRA_LINE...]
        local f=$1 fs=$2
        shift 2
        {
                echo "# test kickstart"
                echo "lang en_US.UTF-8"
                printf 'part /boot/efi --fstype="efi" --size=200\r\n'
                echo "part / --fstype=$fs --size=4000 --onpart=$d/root.img"
                echo "part swap --fstype=swap --size=512"
                echo "part pv.01 --size=1 --grow"
                echo "logvol /home --vgname=vg --name=home --fstype xfs --size=1000"
                echo "%pre"
                echo "part /bogus --fstype=vfat"
                echo "%end"
                printf '%s\n' "$@"
        } >"$f"
}
write_ks "$d/good.ks" ext4
out=$(sh "$a/seinstall-pre" "$d/good.ks" 2>&1)
assert_contains "planned layout" "$out" "planned /boot/efi vfat defaults"
assert_contains "planned layout" "$out" "$d/root.img / ext4 defaults"
assert_contains "planned layout" "$out" "/dev/vg/home /home xfs defaults"
assert_contains "planned layout" "$out" "# $d/good.ks:4: part / --fstype=ext4"
case $(grep -v '^#' <<<"$out") in *swap* | *bogus* | *pv.01*) fail "the plan holds more than mounts: $out" ;; esac
echo "ok: the kickstart's storage commands become the planned layout"
expect_exit 1 sh "$a/seinstall-pre" "$d/nonexistent.ks"
assert_contains "missing kickstart" "$ERR" "cannot read the kickstart"

require_command profile
require_command check
require_command install
require_loop
command -v python3 >/dev/null || skip "no python3 (Anaconda's script runner is Python)"
make_fs_image "$d/root.img" ext4 64
make_fs_image "$d/reiser.img" reiserfs 64

# Each way a kickstart can plan the seed's ReiserFS root, read by seinstall-pre through
# seinstall's own kickstart reader: refused with the reason (exit 1), where the awk reader
# it replaces saw no part line after an %include, never read an included file, ignored btrfs
# and quoting. A mode is chosen so the verdict does not depend on this host's config.
pre_refuses() { # NAME KICKSTART_TEXT: seinstall-pre exits 1 and says why
        printf 'selinux --enforcing\n%s\n' "$2" >"$d/form.ks"
        expect_exit 1 sh "$a/seinstall-pre" "$d/form.ks"
        assert_contains "$1: refusal" "$OUT" "Refused"
        assert_contains "$1: the root refused" "$OUT" "refuse /:"
        assert_contains "$1: the planned root" "$(grep -v '^#' <<<"$OUT")" " / "
        echo "ok: $1 refused"
}
pre_passes() { # NAME KICKSTART_TEXT
        printf 'selinux --enforcing\n%s\n' "$2" >"$d/form.ks"
        expect_exit 0 sh "$a/seinstall-pre" "$d/form.ks"
        assert_contains "$1: accepted" "$OUT" "Accepted"
        echo "ok: $1 accepted"
}
printf 'part /boot --fstype=ext4 --size=500\n' >"$d/inc-boot.ks"
printf 'part / --fstype=reiserfs --size=4000\n' >"$d/inc-root.ks"
printf 'part / --fstype=ext4 --size=4000\n' >"$d/inc-goodroot.ks"
pre_refuses "part after an %include" "%include $d/inc-boot.ks
part / --fstype=reiserfs --size=4000"
assert_contains "the included file's line in the plan" "$OUT" "# $d/inc-boot.ks:1: part /boot"
pre_refuses "part in an included file" "part /boot --fstype=ext4 --size=500
%include $d/inc-root.ks"
pre_refuses "part in a %ksappend file" "%ksappend $d/inc-root.ks"
pre_refuses "quoted, and an option prefix" "part \"/\" --fst 'reiserfs' --size=4000"
pre_refuses "--type, the other name of --fstype" "partition / --type=reiserfs --size=4000"
pre_refuses "logvol" "part pv.01 --size=1 --grow
volgroup vg pv.01
logvol / --vgname=vg --name=root --fstype=reiserfs --size=4000"
pre_refuses "raid" "part raid.01 --size=4000
part raid.02 --size=4000
raid / --level=1 --device=root --fstype=reiserfs raid.01 raid.02"
pre_refuses "autopart --fstype" "autopart --fstype=reiserfs"
pre_refuses "a later claim of / replaces an earlier one" "part / --fstype=ext4 --size=4000
logvol / --vgname=vg --name=root --fstype=reiserfs --size=4000"
pre_refuses "an existing ReiserFS kept with --noformat (probed)" \
        "part / --noformat --onpart=$d/reiser.img"
assert_contains "probed type" "$OUT" "reiserfs"
pre_refuses "vfat as /" "part / --fstype=vfat --size=4000"
assert_contains "vfat as /: the type" "$OUT" "vfat"
# The same layouts with a root that keeps labels pass.
pre_passes "btrfs volume and subvolumes" "part btrfs.01 --size=8000
btrfs none --label=fedora btrfs.01
btrfs / --subvol --name=root LABEL=fedora
btrfs /home --subvol --name=home LABEL=fedora"
assert_contains "btrfs subvolume planned" "$OUT" "planned /home btrfs defaults"
pre_passes "autopart --type=btrfs" "autopart --type=btrfs"
pre_passes "autopart without --fstype (the default, xfs)" "autopart"
assert_contains "default file system" "$OUT" "planned / xfs defaults"
pre_passes "reqpart and an included root" "reqpart --add-boot
%include $d/inc-goodroot.ks"
assert_contains "reqpart's /boot" "$OUT" "planned /boot xfs defaults"
# A kickstart pykickstart refuses is refused with its file and line, before anything else.
printf 'part / --fstype=ext4 --bogus\n' >"$d/form.ks"
expect_exit 1 sh "$a/seinstall-pre" "$d/form.ks"
assert_contains "bad option" "$ERR" "$d/form.ks:1: Unexpected arguments to partition command: --bogus"

# pykickstart, if it can be imported (the harness imports it through PYTHONPATH).
if [ -n "${SEINSTALL_PYKICKSTART:-}" ]; then
        export PYTHONPATH=$SEINSTALL_PYKICKSTART${PYTHONPATH:+:$PYTHONPATH}
fi
if pkver=$(python3 -c 'import pykickstart; print(pykickstart.__version__)' 2>/dev/null); then
        echo "host: kickstart parsed by pykickstart $pkver"
else
        echo "host: pykickstart is not importable here (not in Debian 12; SEINSTALL_PYKICKSTART=DIR)," \
                "so the harness reads the %pre/%post sections itself"
fi
echo "host: Anaconda's script runner as in anaconda 45.21 (tests/hosts/anaconda-run-scripts.py)"

# The installer's /usr/share with seinstall's adapters in it (a read-only overlay).
mkdir -p "$d/share/seinstall"
cp -r "$TOP/installer-plugin/adapters" "$d/share/seinstall/"
ln -sf "$SEINSTALL" "$d/seinstall"

# anaconda KICKSTART PHASE[,PHASE...] [SYSROOT_IMAGE or ramfs]: what Anaconda does with the kickstart, in a
# private mount namespace with the paths Anaconda uses. stdout: the harness's output, the log
# files and the state of the installed system afterwards.
anaconda() {
        local ks=$1 kind=$2 img=${3:-}
        echo "BOOT_IMAGE=/images/pxeboot/vmlinuz inst.stage2=hd:LABEL=Fedora inst.ks=file:/run/install/ks.cfg" \
                >"$d/cmdline"
        # shellcheck disable=SC2016 # the inner shell's variables
        unshare -m --propagation private bash -c '
                set -e
                d=$1 ks=$2 kind=$3 img=$4 harness=$5 top=$6
                mount --bind "$d/cmdline" /proc/cmdline
                # The tree under test may itself live below /tmp, /run or /mnt (a clean clone
                # in /tmp): keep it visible at its own path over the private mounts below.
                mkdir -p "$d/top" && mount --bind "$top" "$d/top"
                mount -t tmpfs tmpfs /tmp
                mount -t tmpfs tmpfs /run && mkdir -p /run/install && cp "$ks" /run/install/ks.cfg
                mount -t overlay overlay -o "lowerdir=$d/share:/usr/share" /usr/share
                mount -t tmpfs tmpfs /mnt && mkdir /mnt/sysroot
                case $top in /tmp/* | /run/* | /mnt/*) mkdir -p "$top" && mount --bind "$d/top" "$top" ;; esac
                case $img in
                "") ;;
                ramfs) mount -t ramfs ramfs /mnt/sysroot ;;
                *) mount -o loop "$img" /mnt/sysroot ;;
                esac
                set +e
                python3 "$harness" "$kind" /run/install/ks.cfg /mnt/sysroot
                rc=$?
                for f in /tmp/*.log /mnt/sysroot/tmp/*.log /mnt/sysroot/root/*.log; do
                        [ -f "$f" ] && echo "== $f" && cat "$f"
                done
                ls -l /tmp/ks-script-* 2>/dev/null | sed "s/^/== script file: /"
                [ -z "$img" ] || cp -a /mnt/sysroot/. "$d/after/" 2>/dev/null
                exit $rc' _ "$d" "$ks" "$kind" "$img" "$harness" "$TOP"
}

# A kickstart as a person writes it: the snippet pasted in, with the layout and mode.
user_ks() { # FILE ROOT_FSTYPE EXTRA...
        local f=$1
        write_ks "$@"
        cat "$a/seinstall.ks" >>"$f"
}

# %pre: the seed's ReiserFS root is refused; --erroronfail stops Anaconda with the reason.
user_ks "$d/seed.ks" reiserfs "selinux --enforcing"
sed -i "s|$d/root.img|$d/reiser.img|" "$d/seed.ks"
expect_exit 1 anaconda "$d/seed.ks" pre
echo "$OUT"
assert_contains "Anaconda's %pre run" "$OUT" "Running... /bin/sh /tmp/ks-script-"
assert_contains "Anaconda stops" "$OUT" "ANACONDA STOPS (error dialog, then exit): %pre script at line"
assert_contains "the --log file" "$OUT" "== /tmp/seinstall-pre.log"
# The error dialog shows the log: the reason and the fix.
dialog=$(sed -n '/^ANACONDA STOPS/,/^== /p' <<<"$OUT")
assert_contains "error dialog" "$dialog" "reiserfs"
assert_contains "error dialog" "$dialog" "nfs_t"

# The good layout passes %pre, and Anaconda goes on.
user_ks "$d/good.ks" ext4 "selinux --enforcing"
expect_exit 0 anaconda "$d/good.ks" pre
assert_contains "good %pre" "$OUT" "Return code of /bin/sh: 0"

# The seed's root after an %include, as Anaconda runs it: the %include no longer hides it.
printf 'part /boot --fstype=ext4 --size=500\n' >"$d/inc-boot.ks"
user_ks "$d/inc.ks" ext4 "selinux --enforcing"
sed -i "s|^part / .*|%include $d/inc-boot.ks\npart / --fstype=reiserfs --size=4000|" "$d/inc.ks"
expect_exit 1 anaconda "$d/inc.ks" pre
assert_contains "Anaconda stops (%include, then part /)" "$OUT" "ANACONDA STOPS (error dialog, then exit)"
assert_contains "the refusal" "$(sed -n '/^ANACONDA STOPS/,/^== /p' <<<"$OUT")" "refuse /:"

# A %pre writes the storage lines into a file the kickstart %includes (the file exists only
# once it has run): Anaconda's first pass skips the missing %include, runs the %pre scripts in
# order, and seinstall's %pre, the last one, reads the file the first one wrote.
gen_ks() { # FILE ROOT_FSTYPE
        {
                echo "selinux --enforcing"
                echo "%pre"
                echo "echo 'part / --fstype=$2 --size=4000' >/tmp/part-include"
                echo "echo 'part /boot/efi --fstype=efi --size=200' >>/tmp/part-include"
                echo "%end"
                echo "%include /tmp/part-include"
                cat "$a/seinstall.ks"
        } >"$1"
}
gen_ks "$d/gen.ks" reiserfs
expect_exit 1 anaconda "$d/gen.ks" pre
echo "$OUT"
assert_contains "the generated file in the plan" "$OUT" "# /tmp/part-include:1: part / --fstype=reiserfs"
assert_contains "Anaconda stops (generated %include)" "$OUT" "ANACONDA STOPS (error dialog, then exit)"
assert_contains "the refusal" "$(sed -n '/^ANACONDA STOPS/,/^== /p' <<<"$OUT")" "refuse /:"
gen_ks "$d/gen.ks" ext4
expect_exit 0 anaconda "$d/gen.ks" pre
assert_contains "generated good layout" "$OUT" "# /tmp/part-include:1: part / --fstype=ext4"
assert_contains "generated good layout" "$OUT" "Accepted"

# %pre-install: after Anaconda's storage tasks, whatever chose the layout (a person in the GUI
# or TUI, which no %pre sees): the file systems mounted at /mnt/sysroot are checked, and
# --erroronfail stops the install before any package is written. A kickstart without storage
# commands, as an interactive install has: %pre has nothing to check and lets it through.
user_ks "$d/interactive.ks" ext4 "selinux --enforcing"
sed -i '/^part \|^logvol /d' "$d/interactive.ks"
# vfat as /, or where this kernel cannot mount vfat, ramfs: neither keeps a label per file.
make_fs_image "$d/vfat-root.img" vfat 64
bad_root=$d/vfat-root.img
if ! unshare -m sh -c "mount -o loop '$bad_root' '$d/share' 2>/dev/null"; then
        bad_root=ramfs
        echo "host: this kernel cannot mount vfat; the %pre-install check gets a ramfs root instead"
fi
expect_exit 0 anaconda "$d/interactive.ks" pre
assert_contains "no planned layout" "$OUT" "nothing to check before partitioning"
expect_exit 1 anaconda "$d/interactive.ks" pre-install "$bad_root"
echo "$OUT"
assert_contains "%pre-install run" "$OUT" "(pre-install)"
assert_contains "Anaconda stops (%pre-install)" "$OUT" "ANACONDA STOPS (ScriptError)"
assert_contains "the reason" "$OUT" "refuse /:"
assert_contains "the --log file" "$OUT" "== /tmp/seinstall-pre-install.log"
expect_exit 0 anaconda "$d/interactive.ks" pre,pre-install "$d/root.img"
assert_contains "%pre-install on ext4" "$OUT" "Accepted"

# %post --nochroot on the installed system at /mnt/sysroot, found through ANA_INSTALL_PATH;
# a chrooted %post of the person's own runs inside it (a shell copied in for it).
mount_image "$d/root.img" "$d/root"
make_target "$d/root"
mkdir -p "$d/root/bin" "$d/root/root"
cp /bin/busybox "$d/root/bin/sh" 2>/dev/null || cp "$(command -v busybox)" "$d/root/bin/sh" ||
        skip "no busybox to give the target a shell for the chrooted %post"
umount "$d/root" || fail "umount $d/root"
# shellcheck disable=SC2016 # the %post script's variables
user_ks "$d/post.ks" ext4 "selinux --permissive" "%post --log=/root/chroot-post.log" \
        'echo "in chroot: ANA_INSTALL_PATH=$ANA_INSTALL_PATH LC_ALL=$LC_ALL"; ls /etc/hostname' "%end"
mkdir -p "$d/after"
expect_exit 0 anaconda "$d/post.ks" post "$d/root.img"
echo "$OUT"
assert_contains "%post --nochroot" "$OUT" "Running... /bin/sh /tmp/ks-script-"
assert_contains "chrooted %post" "$OUT" "Running in chroot '/mnt/sysroot'... /bin/sh /tmp/ks-script-"
assert_contains "chrooted %post's log inside the system" "$OUT" "== /mnt/sysroot/root/chroot-post.log"
assert_contains "chrooted %post's environment" "$OUT" "ANA_INSTALL_PATH=/mnt/sysroot LC_ALL=C"
assert_contains "the --log file" "$OUT" "== /tmp/seinstall-post.log"
config=$(cat "$d/after/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the target"
assert_contains "target config" "$config" "SELINUX=permissive"
mount_image "$d/root.img" "$d/root"
assert_contains "target /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
umount "$d/root" || fail "umount $d/root"

# %post --erroronfail with nothing at ANA_INSTALL_PATH: Anaconda stops with a ScriptError.
expect_exit 1 anaconda "$d/good.ks" post
assert_contains "Anaconda stops" "$OUT" "ANACONDA STOPS (ScriptError)"
assert_contains "the reason" "$OUT" "no installed system at /mnt/sysroot"
