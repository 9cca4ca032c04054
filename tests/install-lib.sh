# shellcheck shell=bash disable=SC2034
# Helpers for the tests of the installed tree: `make install` into a scratch DESTDIR, building
# consumers against it, and knowing whether a seinstall command exists yet.
# Source after lib.sh: . "$(dirname "$0")/../install-lib.sh"

BUILD_DIR=${SEINSTALL_BUILD:-build}
# A sanitized tree (make check SANITIZE=1) installs sanitized binaries; whatever links against
# them must load the sanitizer runtime first.
SAN_FLAGS=
[[ $BUILD_DIR == */san ]] && SAN_FLAGS="-fsanitize=address,undefined"
MULTIARCH=$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)

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
