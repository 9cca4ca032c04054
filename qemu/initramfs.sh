# Sourced by qemu/e2e.sh: the installer environment, a busybox initramfs.
#
# build_initramfs OUT STAGE: busybox-static, the kernel modules the scenarios need (with their
# dependencies, in load order, from modprobe --show-depends on the fetched kernel's
# modules.dep), the mkfs tools, getfattr, bwrap (seinstall runs the target's update-grub only
# under it), seinstall installed from this tree (make install) and
# every shared library those link (copied as ldd lists them), qemu/guest/init as /init and
# the scenario scripts in /e2e. The same image boots an installed target: without
# e2e.scenario= on the command line /init mounts root= and switch_roots to its init.
# STAGE is a scratch directory. Needs KDIR and KVER (kernel.sh). Builds in about a second.

E2E_MODULES="virtio_pci virtio_blk ext4 xfs vfat nls_cp437 nls_ascii nls_utf8 reiserfs nilfs2"
E2E_TOOLS="mke2fs mkfs.xfs mkfs.fat mkfs.reiserfs mkfs.nilfs2 getfattr setfattr bwrap"

# copy_with_libs ROOT FILE...: copy each executable into ROOT at the same path, with the
# shared libraries ldd says it needs (the dynamic loader included).
copy_with_libs() {
        local root=$1 f lib
        shift
        for f in "$@"; do
                mkdir -p "$root$(dirname "$f")"
                cp -L "$f" "$root$f"
                for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
                        [ -e "$root$lib" ] && continue
                        mkdir -p "$root$(dirname "$lib")"
                        cp -L "$lib" "$root$lib"
                done
        done
}

build_initramfs() {
        local out=$1 st=$2 m mods p
        rm -rf "$st" && mkdir -p "$st"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,newroot,target,payload,e2e}
        cp /bin/busybox "$st/bin/busybox"
        for p in $(/bin/busybox --list-full); do
                [ -e "$st/$p" ] || ln -s /bin/busybox "$st/$p"
        done

        # Modules, dependencies first. Ones the kernel has built in print "builtin" and are
        # skipped; the list keeps the order insmod needs.
        mods=$(for m in $E2E_MODULES; do
                modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" || return 1
        done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }') || return 1
        mkdir -p "$st/lib/modules"
        for m in $mods; do
                cp "$m" "$st/lib/modules/"
                echo "/lib/modules/$(basename "$m")" >>"$st/etc/e2e-modules"
        done

        for p in $E2E_TOOLS; do
                copy_with_libs "$st" "$(command -v "$p")" || return 1
        done
        cp /etc/mke2fs.conf "$st/etc/"

        # seinstall exactly as `make install` puts it on a system.
        make -s -C "$TOP" install DESTDIR="$st/seinstall-inst" PREFIX=/usr >/dev/null || return 1
        (cd "$st/seinstall-inst" && find . ! -type d) | while read -r p; do
                mkdir -p "$st/$(dirname "${p#.}")"
                cp -P "$st/seinstall-inst/${p#./}" "$st${p#.}"
        done
        rm -rf "$st/seinstall-inst"
        # Their libraries from the host (libseinstall is linked into the commands).
        for p in "$st"/usr/sbin/seinstall*; do
                for lib in $(LD_LIBRARY_PATH="$st/usr/lib/x86_64-linux-gnu" ldd "$p" | grep -o '/[^ ]*'); do
                        case $lib in "$st"*) continue ;; esac
                        [ -e "$st$lib" ] && continue
                        mkdir -p "$st$(dirname "$lib")"
                        cp -L "$lib" "$st$lib"
                done
        done

        install -m 0755 "$E2E_DIR/guest/init" "$st/init"
        cp "$E2E_DIR"/guest/*.sh "$E2E_DIR"/guest/*.cfg "$E2E_DIR"/guest/*.fstab "$st/e2e/" 2>/dev/null
        (cd "$st" && find . | cpio -o -H newc --quiet) >"$out" || return 1
}
