# Sourced by qemu/e2e.sh: Debian 12's own kernel, fetched with apt-get download and cached.
#
# kernel_fetch CACHE sets KVER (e.g. 6.1.0-57-amd64), KDIR (the unpacked package, with a
# modules.dep made by depmod) and KERNEL (what QEMU boots). The package is what
# linux-image-amd64 depends on today; the .deb and its unpacked tree stay in CACHE.
#
# KERNEL is the uncompressed vmlinux cut out of the bzImage when that works: QEMU boots it
# directly through its PVH entry point (Debian sets CONFIG_PVH=y), which skips the in-guest
# decompression that costs ~3 s per boot under TCG. Otherwise it is the bzImage itself.

kernel_fetch() {
        local cache=$1 pkg deb
        mkdir -p "$cache" || { log "cannot create the cache directory $cache"; return 1; }
        pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
        if [ -z "$pkg" ]; then
                log "apt-cache does not know linux-image-amd64: running apt-get update"
                apt-get update -q >&2 || return 1
                pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
        fi
        [ -n "$pkg" ] || { log "no linux-image-*-amd64 package in the apt sources"; return 1; }
        KVER=${pkg#linux-image-}
        KDIR=$cache/kernel-$KVER
        if [ ! -e "$KDIR/.done" ]; then
                deb=$(ls "$cache/${pkg}"_*_amd64.deb 2>/dev/null | head -n 1)
                if [ -z "$deb" ]; then
                        log "downloading $pkg (Debian's kernel for QEMU) into $cache"
                        (cd "$cache" && apt-get download -q "$pkg" >&2) || return 1
                        deb=$(ls "$cache/${pkg}"_*_amd64.deb | head -n 1)
                fi
                rm -rf "$KDIR"
                dpkg-deb -x "$deb" "$KDIR" || return 1
                depmod -b "$KDIR" "$KVER" || return 1
                /usr/bin/python3 "$E2E_DIR/vmlinux.py" "$KDIR/boot/vmlinuz-$KVER" \
                        "$KDIR/boot/vmlinux-$KVER" >&2 || rm -f "$KDIR/boot/vmlinux-$KVER"
                touch "$KDIR/.done"
        fi
        KERNEL=$KDIR/boot/vmlinuz-$KVER
        [ -s "$KDIR/boot/vmlinux-$KVER" ] && KERNEL=$KDIR/boot/vmlinux-$KVER
        return 0
}
