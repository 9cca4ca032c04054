#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# initrd-relabel ROOT — the pending SELinux relabel, done in the initramfs before the real root
# runs, so the policy is loaded over right labels and no reboot is needed. Called by the
# initramfs-tools boot script (local-bottom) and the dracut pre-pivot hook with the real root's
# mount point (${rootmnt}, /sysroot).
#
# Only when a relabel is pending (/.autorelabel, /etc/selinux/.autorelabel), the booted kernel
# runs SELinux, the configuration does not say disabled, and `noautorelabel` is not on the
# kernel command line. Then: the root is remounted read-write if it was read-only; the
# filesystems the booted system mounts from its fstab are mounted below ROOT where they can be
# (overlays last, after what their layers live on); one `seinstall relabel --root ROOT` labels
# all of them with the target's own file contexts, progress on the console; on success the
# marks go, and an enforcing choice that waited for this relabel (the first-boot mark says
# mode=enforcing, relabel=pending) is completed in /etc/selinux/config, so this same boot comes
# up enforcing. Everything mounted here is unmounted again and the root is remounted as it was.
#
# What the initramfs could not mount is listed in /run/seinstall/relabel-mounts, which the
# booted system's seinstall-relabel-generator turns into one seinstall-relabel-mount@.service
# per mount point, ordered before local-fs.target.
#
# A failed relabel keeps the marks: seinstall-relabel.service and the distribution's own
# autorelabel then run in the booted system as they would without this. Never fails the boot.
#
# For tests: SEINSTALL_INITRD_CMDLINE (a file instead of /proc/cmdline), SEINSTALL_INITRD_SYS
# (instead of /sys), SEINSTALL_INITRD_RUN (instead of /run/seinstall), SEINSTALL (the command).

root=${1:-}
cmdline_file=${SEINSTALL_INITRD_CMDLINE:-/proc/cmdline}
sys=${SEINSTALL_INITRD_SYS:-/sys}
run=${SEINSTALL_INITRD_RUN:-/run/seinstall}
seinstall=${SEINSTALL:-seinstall}
mounted=''

say() { echo "seinstall (initramfs): $*"; }

if [ -z "$root" ] || [ ! -d "$root" ]; then
        say "usage: initrd-relabel ROOT (the real root's mount point)"
        exit 0
fi
root=${root%/}

# ---- is a relabel to be done here? -------------------------------------------------------
pending=''
for m in /.autorelabel /etc/selinux/.autorelabel; do
        if [ -e "$root$m" ] || [ -L "$root$m" ]; then
                pending="$pending $m"
        fi
done
[ -n "$pending" ] || exit 0

# shellcheck disable=SC2013 # the command line is words
for arg in $(cat "$cmdline_file" 2>/dev/null); do
        if [ "$arg" = noautorelabel ]; then
                say "a relabel is pending, but noautorelabel is on the kernel command line: skipped"
                exit 0
        fi
done

selinux_on() {
        [ -d "$sys/fs/selinux" ] && return 0
        grep -qs 'selinux' "$sys/kernel/security/lsm"
}
if ! selinux_on; then
        say "a relabel is pending (${pending# }), but this kernel runs without SELinux: left for a boot with SELinux"
        exit 0
fi
if grep -Eqs '^[[:space:]]*SELINUX[[:space:]]*=[[:space:]]*"?disabled' "$root/etc/selinux/config"; then
        say "a relabel is pending, but $root/etc/selinux/config says SELINUX=disabled: no policy will load, left as it is"
        exit 0
fi
if ! command -v "$seinstall" >/dev/null 2>&1; then
        say "$seinstall is not in this initramfs (rebuild it: update-initramfs -u or dracut -f): the relabel is left to the booted system"
        exit 0
fi

# ---- the root, read-write while labeling ---------------------------------------------------
# mount_opts DIR: the options of the mount at DIR, from /proc/mounts (the last one there).
mount_opts() {
        awk -v d="$1" '$2 == d { o = $4 } END { print o }' /proc/mounts
}
root_was_ro=''
case ,$(mount_opts "$root"), in
*,ro,*)
        if ! mount -o remount,rw "$root"; then
                say "cannot remount $root read-write: the relabel is left to the booted system"
                exit 0
        fi
        root_was_ro=1
        ;;
esac

cleanup() {
        local_m=''
        # Last mounted first.
        for local_m in $mounted; do
                umount "$local_m" 2>/dev/null || umount -l "$local_m" 2>/dev/null ||
                        say "cannot unmount $local_m"
        done
        mounted=''
        if [ -n "$root_was_ro" ]; then
                sync
                mount -o remount,ro "$root" || say "cannot remount $root read-only again"
        fi
}

# ---- the booted system's mounts, where they can be mounted here ---------------------------
# device SPEC: a device path for an fstab source (UUID=, LABEL=, PARTUUID=, PARTLABEL=, a path).
device() {
        case $1 in
        UUID=*) echo "/dev/disk/by-uuid/${1#UUID=}" ;;
        LABEL=*) echo "/dev/disk/by-label/${1#LABEL=}" ;;
        PARTUUID=*) echo "/dev/disk/by-partuuid/${1#PARTUUID=}" ;;
        PARTLABEL=*) echo "/dev/disk/by-partlabel/${1#PARTLABEL=}" ;;
        *) echo "$1" ;;
        esac
}

# options OPTS [OVERLAY]: fstab options as mount(8) here takes them: read-write (labels are
# written), without what only systemd or mount(8)'s helpers read; an overlay's layer paths
# are made paths below the root.
options() {
        echo "$1" | tr ',' '\n' | while IFS= read -r o; do
                case $o in
                '' | ro | rw | defaults | auto | noauto | nofail | user | users | nouser | owner | group | \
                        _netdev | x-* | comment=* | nobootwait)
                        continue
                        ;;
                lowerdir=* | upperdir=* | workdir=*)
                        [ -n "${2:-}" ] || { echo "$o"; continue; }
                        k=${o%%=*} v=${o#*=} out=''
                        old_ifs=$IFS
                        IFS=:
                        for p in $v; do
                                case $p in /*) p=$root$p ;; esac
                                out=${out:+$out:}$p
                        done
                        IFS=$old_ifs
                        echo "$k=$out"
                        ;;
                *) echo "$o" ;;
                esac
        done | tr '\n' ',' | sed 's/,$//'
}

mkdir -p "$run" 2>/dev/null
later=$run/relabel-mounts
rm -f "$later"
note_later() {
        echo "$1" >>"$later"
        say "$1: $2; it is labeled in the booted system (seinstall-relabel-mount@.service)"
}

# One pass over the fstab's entries of a kind (rest: all but overlays, overlay: only them),
# sorted by mount point so that a parent is mounted before what is mounted on it.
mount_pass() {
        kind=$1
        sed -e 's/#.*//' "$root/etc/fstab" 2>/dev/null |
                awk 'NF >= 3 { print $2, $1, $3, ($4 == "" ? "defaults" : $4) }' | LC_ALL=C sort |
                while read -r mp spec type opts; do
                        mp=$(printf '%b' "$(echo "$mp" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')")
                        case $mp in / | none | '') continue ;; /*) ;; *) continue ;; esac
                        case $type in
                        swap | tmpfs | ramfs | proc | sysfs | devpts | devtmpfs | cgroup* | \
                                securityfs | efivarfs | debugfs | tracefs | mqueue | hugetlbfs | \
                                nfs | nfs4 | cifs | smb3 | smbfs | ceph | glusterfs | fuse* | 9p | \
                                sshfs | davfs | autofs)
                                continue
                                ;;
                        # One label for the whole filesystem, from the policy (genfscon): a
                        # vfat /boot/efi has nothing to relabel.
                        vfat | msdos | exfat | iso9660 | udf | ntfs | ntfs3)
                                continue
                                ;;
                        esac
                        case ,$opts, in *,noauto,* | *,bind,* | *,rbind,* | *,_netdev,*) continue ;; esac
                        if [ "$type" = overlay ]; then
                                [ "$kind" = overlay ] || continue
                        else
                                [ "$kind" = rest ] || continue
                        fi
                        case ,$opts, in
                        *,x-systemd.automount,*)
                                note_later "$mp" "mounted on demand (x-systemd.automount)"
                                continue
                                ;;
                        esac
                        if [ ! -d "$root$mp" ]; then
                                note_later "$mp" "no directory $mp on the root filesystem to mount it on"
                                continue
                        fi
                        o=$(options "$opts" "$([ "$type" = overlay ] && echo 1)")
                        dev=$(device "$spec")
                        if [ "$type" = overlay ]; then
                                set -- -t overlay -o "rw${o:+,$o}" "$spec" "$root$mp"
                        elif [ "$type" = auto ]; then
                                set -- -o "rw${o:+,$o}" "$dev" "$root$mp"
                        else
                                set -- -t "$type" -o "rw${o:+,$o}" "$dev" "$root$mp"
                        fi
                        if err=$(mount "$@" 2>&1); then
                                echo "$root$mp" >>"$run/mounted"
                                say "mounted $mp ($type) to label it"
                                [ "$type" = overlay ] && hide_layers "$o"
                        else
                                note_later "$mp" "cannot be mounted in the initramfs ($(echo "${err:-mount failed}" | head -n 1))"
                        fi
                done
}

# hide_layers OPTS: an overlay's upper and work directories, under an empty tmpfs once the
# overlay is mounted: their files are labeled through the overlay, with the labels of the paths
# the booted system sees, not also through the filesystem they are on with others.
hide_layers() {
        for o in $(echo "$1" | tr ',' ' '); do
                case $o in upperdir=* | workdir=*) ;; *) continue ;; esac
                if mount -t tmpfs -o size=64k,mode=0700 seinstall-hidden "${o#*=}"; then
                        echo "${o#*=}" >>"$run/mounted"
                fi
        done
}

# The relabel is per mount: a btrfs subvolume the booted system does not mount (a snapshot,
# often read-only, /var/lib/machines) is not part of it, as setfiles' XDEV walk leaves it. The
# walk would go into it (it is on the same mount), so it is hidden under an empty tmpfs while
# the root is labeled. A subvolume's root directory is inode 256.
hide_subvolumes() {
        awk -v r="$root" '$3 == "btrfs" && ($2 == r || index($2, r "/") == 1) { print $2 }' /proc/mounts |
                LC_ALL=C sort -u | while read -r m; do
                find "$m" -xdev -mindepth 1 -type d -inum 256 2>/dev/null
        done | LC_ALL=C sort -u | while read -r sv; do
                grep -qs " $sv " /proc/mounts && continue
                if mount -t tmpfs -o size=64k,mode=0700 seinstall-hidden "$sv"; then
                        echo "$sv" >>"$run/mounted"
                        say "${sv#"$root"}: a btrfs subvolume the booted system does not mount: not relabeled"
                fi
        done
}

relabel() {
        say "relabeling ${root} and the filesystems mounted below it for SELinux (a relabel was asked for by${pending})"
        "$seinstall" relabel --root "$root" --progress
}

rm -f "$run/mounted"
mount_pass rest
hide_subvolumes
# Overlays: the lower /etc is the root filesystem's own directory, labeled by the walk above
# only while the overlay does not hide it; labeling through the overlay would copy every file
# up. So the rest is labeled first, then what the overlays show (their upper files).
overlays=''
grep -Eqs '^[^#]*[[:space:]]overlay[[:space:]]' "$root/etc/fstab" && overlays=1
# mounted_list: what was mounted here, the last first.
mounted_list() {
        [ -f "$run/mounted" ] && awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' "$run/mounted"
}
mounted=$(mounted_list)
rc=0
relabel || rc=$?
if [ $rc = 0 ] && [ -n "$overlays" ]; then
        mount_pass overlay
        mounted=$(mounted_list)
        relabel || rc=$?
fi
rm -f "$run/mounted"

if [ $rc != 0 ]; then
        say "the relabel failed (status $rc): the marks stay, so the booted system relabels (seinstall-relabel.service, then the distribution's autorelabel)"
        cleanup
        exit 0
fi
# As fixfiles cleans up /tmp: the file contexts leave what is below /tmp and /var/tmp alone
# (<<none>>), but what was made there with SELinux off carries no label, unlabeled_t once the
# policy loads (systemd-tmpfiles' /tmp/.X11-unix, .XIM-unix): it gets the label of the
# directory itself; a label that is there stays. coreutils' stat and chcon (the hooks copy
# them) read and write the context without a policy loaded.
tmp_fix() {
        [ -x /usr/bin/stat ] && [ -x /usr/bin/chcon ] && [ -x /usr/bin/find ] || return 0
        for d in /tmp /var/tmp; do
                [ -d "$root$d" ] || continue
                ctx=$(/usr/bin/stat -c %C "$root$d" 2>/dev/null) || continue
                case $ctx in '' | '?' | *:unlabeled_t:* | *:file_t:*) continue ;; esac
                /usr/bin/find "$root$d" -xdev -mindepth 1 -print 2>/dev/null | while IFS= read -r f; do
                        c=$(/usr/bin/stat -c %C "$f" 2>/dev/null)
                        case $c in
                        '' | '?' | *:unlabeled_t:* | *:file_t:*)
                                /usr/bin/chcon -h "$ctx" "$f" && say "${f#"$root"}: no label, now $ctx (as /tmp's clean-up in fixfiles)"
                                ;;
                        esac
                done
        done
}
tmp_fix
rm -f "$root/.autorelabel" "$root/etc/selinux/.autorelabel"
# The overlay is unmounted below: a mark in its upper layer went through it above.
say "relabeled; the marks are removed, the boot goes on with no reboot"

# An enforcing choice that waited for this relabel: complete it now, unless a filesystem is
# left for the booted system (it boots permissive then, and the first-boot screen finishes
# the choice once everything is labeled).
mark=$root/var/lib/seinstall/firstboot
if grep -qsx 'mode=enforcing' "$mark" && grep -qsx 'relabel=pending' "$mark"; then
        if [ -s "$later" ]; then
                say "enforcing waits: $(tr '\n' ' ' <"$later")is not labeled yet"
        elif "$seinstall" apply --root "$root" --mode enforcing --labeled --bootloader none >/dev/null; then
                say "SELinux was to be enforcing once relabeled: /etc/selinux/config says enforcing now"
        else
                say "could not set enforcing in /etc/selinux/config: this boot is permissive, the first-boot screen finishes the choice"
        fi
fi
cleanup
exit 0
