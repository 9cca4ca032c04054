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
