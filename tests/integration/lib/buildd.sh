# shellcheck shell=bash
# A Debian 12 chroot as Debian's buildds start from: `mmdebstrap --variant=buildd` (Essential,
# build-essential, apt; nothing else). Its tarball is kept in $HOSTS_CACHE/buildd, made afresh
# when the cache is empty; the packages apt downloads in it are kept there too. Source after
# lib.sh.

BUILDD_CACHE=$HOSTS_CACHE/buildd
BUILDD_TARBALL=$BUILDD_CACHE/bookworm-buildd.tar

# buildd_tarball: make the tarball unless the cache has it.
buildd_tarball() {
        cache_dir "$BUILDD_CACHE/archives/partial"
        (
                flock 9
                if [ ! -s "$BUILDD_TARBALL" ]; then
                        echo "building the buildd chroot with mmdebstrap into $BUILDD_TARBALL"
                        mmdebstrap --quiet --variant=buildd --format=tar bookworm "$BUILDD_TARBALL.tmp" &&
                                mv "$BUILDD_TARBALL.tmp" "$BUILDD_TARBALL"
                fi
        ) 9>"$BUILDD_CACHE/.lock"
        [ -s "$BUILDD_TARBALL" ] || fail "mmdebstrap could not build the buildd chroot"
}

# buildd_root DIR: a fresh copy of the chroot in DIR, with /proc, /dev, the host's resolver
# (apt reaches Debian's archive) and the cache's package directory; all unmounted at exit.
buildd_root() {
        local root=$1
        buildd_tarball
        mkdir -p "$root" && tar -C "$root" -xf "$BUILDD_TARBALL" || fail "cannot unpack $BUILDD_TARBALL"
        cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        mount -t proc proc "$root/proc" || fail "cannot mount /proc in $root"
        on_exit "umount -l '$root/proc'"
        mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" || fail "cannot bind /dev into $root"
        on_exit "umount -l '$root/dev'"
        # The packages downloaded before, copied in (apt locks its cache directory: a shared
        # one would make two tests at once fail); what apt downloads is copied back at exit.
        find "$BUILDD_CACHE/archives" -maxdepth 1 -name '*.deb' -exec cp -l -t "$root/var/cache/apt/archives/" {} + 2>/dev/null ||
                find "$BUILDD_CACHE/archives" -maxdepth 1 -name '*.deb' -exec cp -t "$root/var/cache/apt/archives/" {} +
        on_exit "flock '$BUILDD_CACHE/.lock' cp -n -t '$BUILDD_CACHE/archives/' '$root'/var/cache/apt/archives/*.deb"
        # mmdebstrap's chroot cleans apt's cache after each install: keep what was downloaded.
        rm -f "$root/etc/apt/apt.conf.d/docker-clean"
        echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90keep"
}

# buildd_apt ROOT ARGS...: apt-get in ROOT as root, with the network, no recommends.
buildd_apt() {
        local root=$1
        shift
        chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
                apt-get -q -y -o APT::Install-Recommends=false "$@"
}
