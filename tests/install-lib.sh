# shellcheck shell=bash disable=SC2034
# Helpers for the tests of the installed tree: `make install` into a scratch DESTDIR, building
# consumers against it, and knowing whether a seinstall command exists yet.
# Source after lib.sh: . "$(dirname "$0")/../install-lib.sh"

BUILD_DIR=${SEINSTALL_BUILD:-build}
# A sanitized tree (make check SANITIZE=1) installs sanitized binaries; whatever links against
# them must load the sanitizer runtime first.
SAN_FLAGS=
[[ $BUILD_DIR == */san ]] && SAN_FLAGS="-fsanitize=address,undefined"
MULTIARCH=$(${CC:-cc} -print-multiarch 2>/dev/null)
[ -n "$MULTIARCH" ] || MULTIARCH=$(${CC:-cc} -dumpmachine)

# run_make ARGS...: make in the top directory, not as a child of the make running the tests
# (its jobserver and -s would leak in), in the same flavour as the tree under test.
run_make() {
        env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
                make --no-print-directory -C "$TOP" ${SAN_FLAGS:+SANITIZE=1} "$@"
}

# install_tree DESTDIR [VAR=VALUE...]: make install into DESTDIR; fails the test on error.
install_tree() {
        local dest=$1 log
        shift
        log=$(mktemp)
        on_exit "rm -f '$log'"
        run_make install DESTDIR="$dest" "$@" >"$log" 2>&1 ||
                fail "make install DESTDIR=$dest $*: $(tail -n 20 "$log")"
        echo "ok: make install DESTDIR=$dest $*"
}

# require_command NAME: skip unless `seinstall NAME` is more than the placeholder that says
# "not built yet" (commands land on main one by one).
require_command() {
        local out
        out=$("$SEINSTALL" "$1" --help 2>&1)
        case $out in
        *"not built yet"*) skip "seinstall $1 is not on main yet ('$out')" ;;
        esac
}

# make_target DIR: a small installed system in DIR (normally a loop-mounted ext4): Debian's
# default policy copied from the host, a Debian 12-like kernel config (SELinux built in, not the
# default LSM), GRUB defaults, and a few files to label.
make_target() {
        local t=$1
        [ -d /etc/selinux/default/policy ] || skip "the host has no selinux-policy-default (make deps)"
        mkdir -p "$t"/{etc/selinux,etc/default,boot,usr/bin,usr/sbin,var/log,home/person,root,tmp}
        cp -a /etc/selinux/default "$t/etc/selinux/" || fail "copying the host's policy into $t"
        [ -f /etc/selinux/semanage.conf ] && cp /etc/selinux/semanage.conf "$t/etc/selinux/"
        cat >"$t/boot/config-6.1.0-test-amd64" <<'CONFIG'
CONFIG_SECURITY=y
CONFIG_SECURITY_SELINUX=y
# CONFIG_SECURITY_SELINUX_BOOTPARAM is not set
CONFIG_SECURITY_SELINUX_DEVELOP=y
CONFIG_DEFAULT_SECURITY_APPARMOR=y
CONFIG_LSM="landlock,lockdown,yama,loadpin,safesetid,integrity,apparmor,selinux,smack,tomoyo,bpf"
CONFIG
        printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' \
                >"$t/etc/default/grub"
        echo target >"$t/etc/hostname"
        cp /bin/true "$t/usr/bin/true"
        echo "hello" >"$t/home/person/notes"
        : >"$t/var/log/installer.log"
}

# make_unbuilt_target DIR: a target whose policy is installed as modules but not built (Debian's
# default store copied from the host, no policy.N), as the policy build meets it; skips without
# the host's store.
make_unbuilt_target() {
        local t=$1
        [ -d /var/lib/selinux/default/active/modules ] ||
                skip "no selinux-policy-default modules on this machine (make deps)"
        [ -d /etc/selinux/default ] || skip "no selinux-policy-default on this machine (make deps)"
        mkdir -p "$t/etc/selinux" "$t/var/lib/selinux" "$t/usr/bin"
        cp -a /etc/selinux/default "$t/etc/selinux/" || fail "copying the host's policy into $t"
        rm -rf "$t/etc/selinux/default/policy"
        cp -a /var/lib/selinux/default "$t/var/lib/selinux/" || fail "copying the host's store into $t"
        printf 'SELINUX=permissive\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
}

# label_of FILE: its security.selinux label ("" when it has none).
label_of() {
        getfattr --absolute-names --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0'
}

# fake_debconf DIR: debian-installer's debconf confmodule in a fake installer root DIR. Every
# call is appended to DIR/debconf.log ("INPUT critical seinstall/refused", "SUBST ..."); the
# calls succeed as cdebconf's do.
fake_debconf() {
        mkdir -p "$1/usr/share/debconf"
        cat >"$1/usr/share/debconf/confmodule" <<CONFMODULE
# fake cdebconf confmodule for tests
_log() { printf '%s\n' "\$*" >>'$1/debconf.log'; }
db_capb() { _log "CAPB \$*"; }
db_subst() { _log "SUBST \$*"; }
db_input() { _log "INPUT \$*"; }
db_go() { _log "GO"; }
db_get() { _log "GET \$*"; RET=; }
CONFMODULE
}

# linked_homes T N: N btrfs subvolumes T/home/uNN (each a filesystem of its own, with its own
# st_dev) on the btrfs T, each holding a file with two names whose paths call for different
# labels in Debian's policy: /home/uNN/.ssh/id (ssh_home_t, the name that sorts first) and
# /home/uNN/notes (user_home_t). Half are made .ssh first, half notes first, so that whichever
# order a walk meets them in, some file meets its two names in each order.
linked_homes() {
        local t=$1 n=$2 i u
        for ((i = 0; i < n; i++)); do
                u=$t/home/u$(printf %02d "$i")
                btrfs -q subvolume create "$u" >/dev/null || fail "btrfs subvolume create $u"
                if ((i % 2)); then
                        echo "$i" >"$u/notes"
                        mkdir "$u/.ssh"
                        ln "$u/notes" "$u/.ssh/id"
                else
                        mkdir "$u/.ssh"
                        echo "$i" >"$u/.ssh/id"
                        ln "$u/.ssh/id" "$u/notes"
                fi
        done
}

# linked_homes_fs D N: a btrfs image D/root.img mounted on D/t, made a target (make_target)
# holding linked_homes D/t N; skips where loop devices or btrfs-progs are missing.
linked_homes_fs() {
        require_loop
        require_tool btrfs btrfs-progs
        make_fs_image "$1/root.img" btrfs 256
        mount_image "$1/root.img" "$1/t"
        make_target "$1/t"
        linked_homes "$1/t" "$2"
}

# linked_homes_mislabel T N: the name notes of every file linked_homes made gets tmp_t, a label
# wrong for both its names.
linked_homes_mislabel() {
        local i
        for ((i = 0; i < $2; i++)); do
                setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 "$1/home/u$(printf %02d "$i")/notes" ||
                        fail "setfattr on $1/home/u$(printf %02d "$i")/notes"
        done
}

# linked_homes_check T N: both names of every file linked_homes made read back ssh_home_t (the
# label of the name that sorts first); fails naming the first that does not.
linked_homes_check() {
        local t=$1 n=$2 i u name l bad=0
        for ((i = 0; i < n; i++)); do
                u=$t/home/u$(printf %02d "$i")
                for name in .ssh/id notes; do
                        l=$(label_of "$u/$name")
                        case $l in
                        *:ssh_home_t:*) ;;
                        *) echo "$u/$name: '$l', expected ssh_home_t" >&2; bad=$((bad + 1)) ;;
                        esac
                done
        done
        [ "$bad" = 0 ] || fail "$bad names of files with two names on $n filesystems have the wrong label"
        echo "ok: both names of $n files on $n filesystems read back ssh_home_t"
}
