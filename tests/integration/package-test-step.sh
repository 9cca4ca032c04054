#!/bin/bash
# What a distribution's package build runs as its test step, where it runs: `make test` in a
# Debian 12 chroot that holds only the build dependencies (build-essential, pkg-config, the
# Makefile's DEPS_LIBS, check, gettext: none of the policy, the filesystem tools, python3,
# tmux, QEMU or the installers), as an unprivileged user, without a network, on a copy of the
# tracked tree. It must pass: every test runs or says SKIPPED with its reason, none fails for
# lack of something a package build does not have, and nothing is installed.
# The chroot (mmdebstrap, ~35 s) is kept in $SEINSTALL_HOSTS_CACHE, keyed by its package list.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
# `make test` runs every test, this one too: inside the chroot it has nothing to do.
[ -z "${SEINSTALL_IN_PACKAGE_BUILD:-}" ] || skip "already inside the package build's chroot"
require_root
require_tool mmdebstrap mmdebstrap
require_tool unshare util-linux
require_tool git git
git_checkout || skip "no git checkout (or no git): nothing to copy the tracked tree from"

libs=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^DEPS_LIBS := //p' | head -n 1)
[ -n "$libs" ] || fail "no DEPS_LIBS in the Makefile"
pkgs="build-essential,pkg-config,check,gettext,$(echo $libs | tr ' ' ',')"
echo "build dependencies: $pkgs"

cache=$HOSTS_CACHE/package-build
cache_dir "$cache"
exec 9>"$cache/.lock"
flock 9
key=$(printf 'bookworm %s v1' "$pkgs" | sha256sum | cut -c1-12)
tarball=$cache/root-$key.tar
if [ ! -s "$tarball" ]; then
        echo "building the chroot with mmdebstrap into $tarball"
        mmdebstrap --quiet --variant=apt --format=tar --include="$pkgs" bookworm "$tarball.tmp" ||
                fail "mmdebstrap could not build the package build's chroot"
        mv "$tarball.tmp" "$tarball"
fi

d=$(scratch_dir)
root=$d/root
mkdir -p "$root" && tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
for t in python3 tmux shellcheck mkfs.ext4 qemu-system-x86_64 calamares bwrap; do
        [ ! -e "$root/usr/bin/$t" ] && [ ! -e "$root/usr/sbin/$t" ] && [ ! -e "$root/sbin/$t" ] ||
                fail "the chroot has $t: it is not a build-dependencies-only root"
done
[ ! -e "$root/etc/selinux/default" ] || fail "the chroot has a policy"
mkdir -p "$root/src"
git -C "$TOP" ls-files -z | (cd "$TOP" && xargs -0 cp --parents -t "$root/src") ||
        fail "cannot copy the tracked tree"
chown -R 65534:65534 "$root/src"
mount -t proc proc "$root/proc" || fail "cannot mount /proc in the chroot"
on_exit "umount -l '$root/proc'"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" || fail "cannot bind /dev"
on_exit "umount -l '$root/dev'"

echo "== make test as nobody, no network, in the chroot"
unshare -n chroot "$root" setpriv --reuid=65534 --regid=65534 --clear-groups \
        env -i PATH=/usr/bin:/bin HOME=/tmp SEINSTALL_IN_PACKAGE_BUILD=1 \
        sh -c 'cd /src && make -j2 test' >"$d/test.log" 2>&1 && rc=0 || rc=$?
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$d/test.log" | tail -n 1)
grep -v '^  \(CC\|LD\|AR\) ' "$d/test.log" | grep -E '^(PASS|FAIL|SKIPPED) ' | sed 's/^/  /'
[ "$rc" = 0 ] || fail "make test in the package build's chroot exited $rc: $(grep -A3 '^FAIL' "$d/test.log" | head -n 40)"
[ -n "$summary" ] || fail "no summary line from make test: $(tail -n 20 "$d/test.log")"
passed=${summary%% passed*}
[ "$passed" -ge 10 ] || fail "only $passed tests passed there: $summary"
echo "ok: make test in a build-dependencies-only chroot, as nobody, offline: $summary"
