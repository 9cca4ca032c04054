# shellcheck shell=bash
# Sourced by tests/integration/adapter-debian-installer.sh: debian-installer's own environment,
# cached. Source after tests/lib.sh.
#
# di_env CACHE sets DI_ROOT (Debian 12's netboot initrd unpacked: d-i's busybox, cdebconf with
# its text and newt frontends, udpkg, the templates of every udeb in it) and DI_UDEBS (a
# directory with the udebs that download from the archive's debian-installer component:
# partman-base; and libmount1-udeb, which seinstall-udeb depends on and the initrd lacks, when
# the archive serves it: after a failed download $DI_UDEBS/.unavailable-NAME says so and it is
# not tried again), and DI_ARCHIVE_PACKAGES (the archive's main/debian-installer Packages list,
# as apt keeps it: read it with apt-helper cat-file). The initrd comes from the
# debian-installer-12-netboot-amd64 package; udebs come through apt-get with a private
# configuration that names main/debian-installer (the host's own apt configuration is not
# touched). DI_VERSION says which installer it is.
DI_INITRD=/usr/lib/debian-installer/images/12/amd64/text/debian-installer/amd64/initrd.gz
DI_UDEB_NAMES="partman-base"
DI_UDEB_OPTIONAL="libmount1-udeb"

# _di_packages_list APTDIR: the main/debian-installer Packages list apt-get update left there.
_di_packages_list() {
        local f
        for f in "$1/lists/"*_debian-installer_binary-amd64_Packages*; do
                [ -f "$f" ] && echo "$f" && return 0
        done
        return 1
}

di_env() {
        local cache=$1/di key apt o n missing=
        # shellcheck disable=SC2034 # used by the test that sources this
        DI_VERSION="debian-installer-12-netboot-amd64 $(dpkg-query -W -f='${Version}' debian-installer-12-netboot-amd64 2>/dev/null)"
        [ -r "$DI_INITRD" ] || {
                echo "no $DI_INITRD (make deps installs debian-installer-12-netboot-amd64)"
                return 1
        }
        mkdir -p "$cache" || return 1
        exec 8>"$cache/.lock"
        flock 8
        key=$(sha256sum "$DI_INITRD" | cut -c1-12)
        DI_ROOT=$cache/root-$key
        if [ ! -e "$DI_ROOT/.done" ]; then
                rm -rf "$DI_ROOT" && mkdir -p "$DI_ROOT"
                (cd "$DI_ROOT" && zcat "$DI_INITRD" | cpio -id --quiet) || return 1
                touch "$DI_ROOT/.done"
        fi
        DI_UDEBS=$cache/udebs
        apt=$cache/apt
        for n in $DI_UDEB_NAMES $DI_UDEB_OPTIONAL; do
                ls "$DI_UDEBS/${n}_"*.udeb >/dev/null 2>&1 || [ -e "$DI_UDEBS/.unavailable-$n" ] ||
                        missing="$missing $n"
        done
        DI_ARCHIVE_PACKAGES=$(_di_packages_list "$apt")
        if [ -n "$missing" ] || [ -z "$DI_ARCHIVE_PACKAGES" ]; then
                mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$DI_UDEBS"
                echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main/debian-installer" \
                        >"$apt/sources.list"
                o=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
                        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
                        -o APT::Architecture=amd64 -o Debug::NoLocking=1)
                apt-get -q "${o[@]}" update >&2 || return 1
                for n in $missing; do
                        (cd "$DI_UDEBS" && apt-get -q "${o[@]}" download "$n" >&2) && continue
                        case " $DI_UDEB_OPTIONAL " in *" $n "*) : >"$DI_UDEBS/.unavailable-$n" ;; *) return 1 ;; esac
                done
                DI_ARCHIVE_PACKAGES=$(_di_packages_list "$apt") || return 1
        fi
        exec 8>&-
        return 0
}
