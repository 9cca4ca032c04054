#!/bin/bash
# The process and memory limits of the sandbox the target's programs run in (issue 26): a
# hostile update-grub that is a fork bomb, then one that allocates memory in many processes.
# Each must end far sooner than the wall clock with exit 3 naming the limit it hit, no process
# of it may survive, and the sandbox's cgroup must be gone. Then, with no cgroup filesystem
# mounted (as in an installer's initramfs): a cgroup2 mounted by seinstall where the kernel
# has its pids controller free for cgroup v2, else a refusal with nothing run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_static_busybox "to run update-grub in the target"
require_tool bwrap bubblewrap
command -v cc >/dev/null || skip "needs cc (make deps)"

d=$(scratch_dir)
t=$d/t
cc -static -O1 -o "$d/attack" "$TOP/tests/integration/lib/sandbox-attack.c" 2>"$d/cc.err" ||
        skip "cannot build a static program here: $(cat "$d/cc.err")"
make_fs_image "$d/target.img" ext4
mount_image "$d/target.img" "$t"
make_target "$t"
mkdir -p "$t/bin" "$t/usr/sbin" "$t/boot/grub" "$t/dev" "$t/proc" "$t/sys" "$t/run"
cp /bin/busybox "$t/bin/busybox"
cp "$d/attack" "$t/bin/attack"
reset_grub() { sed -i 's/ *security=selinux//' "$t/etc/default/grub"; }
on_exit "pkill -KILL -f sbx-forkbomb; pkill -KILL -f 'attack hog'"

# run_apply WANT: apply --regenerate, its pid in $d/pid (the cgroup is named after it), the
# time it took in $took.
run_apply() {
        local start
        reset_grub
        start=$(date +%s)
        SEINSTALL_SANDBOX_TIMEOUT=120 expect_exit "$1" timeout -s KILL 200 bash -c \
                'echo $$ >"$0"; exec "$@"' "$d/pid" "$SEINSTALL" apply --root "$t" \
                --mode permissive --regenerate
        took=$(($(date +%s) - start))
}
# no_leftovers MARKER: no process matching MARKER, no cgroup of that seinstall run.
no_leftovers() {
        local left
        sleep 0.5
        if pgrep -f "$1" >/dev/null; then
                fail "$(pgrep -c -f "$1") processes of the sandbox ($1) outlived seinstall"
        fi
        left=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "seinstall-sandbox-$(cat "$d/pid")-*" 2>/dev/null)
        [ -z "$left" ] || fail "the sandbox's cgroup is left behind: $left"
        echo "ok: no process of the sandbox and no cgroup of it left"
}

case $(cat /proc/self/cgroup) in *pids*|0::*) ;; *) skip "no cgroup here at all" ;; esac

# --- a fork bomb: every process forks two and waits --------------------------------------
# First it tries to lift its limit or leave its cgroup through the installer's /sys (bound
# read-only): "max" into every pids.max, its pid into every cgroup.procs it finds.
cat >"$t/usr/sbin/update-grub" <<'BOMB'
#!/bin/busybox sh
for f in $(/bin/busybox find /sys/fs/cgroup -maxdepth 4 -name pids.max -o -maxdepth 4 -name cgroup.procs); do
        case $f in *pids.max) v=max ;; *) v=$$ ;; esac
        echo "$f" >>/boot/grub/tried
        if (echo "$v" >"$f") 2>/dev/null; then echo "$f" >>/boot/grub/escaped; fi
done
exec /bin/busybox sh -c 'b() { b & b & wait; }; b' sbx-forkbomb
BOMB
chmod +x "$t/usr/sbin/update-grub"
rm -f "$t/boot/grub/tried" "$t/boot/grub/escaped"
run_apply 3
[ ! -e "$t/boot/grub/escaped" ] || fail "the sandbox wrote to its cgroups: $(cat "$t/boot/grub/escaped")"
if [ -d /sys/fs/cgroup ]; then
        grep -q seinstall-sandbox- "$t/boot/grub/tried" ||
                fail "the fork bomb did not find its own cgroup to attack: $(cat "$t/boot/grub/tried")"
        echo "ok: $(wc -l <"$t/boot/grub/tried") cgroup files (its own among them) not writable from the sandbox"
fi
[ "$took" -lt 30 ] || fail "the fork bomb took $took s to be stopped (wall clock 120 s)"
assert_contains "the process limit named" "$ERR" \
        "/usr/sbin/update-grub in $t reached the sandbox's limit of 256 processes at once"
assert_contains "what was done" "$ERR" "killed it and every process it started"
echo "ok: the fork bomb stopped at the process limit in $took s: $ERR"
no_leftovers sbx-forkbomb

# --- memory in many processes: 8 x 128 MiB against the 512 MiB of the sandbox -------------
if awk '$1 == "memory" && $4 == 1 { found = 1 } END { exit !found }' /proc/cgroups; then
        cat >"$t/usr/sbin/update-grub" <<'HOG'
#!/bin/busybox sh
for i in 1 2 3 4 5 6 7 8; do /bin/attack hog 128 & done
wait
HOG
        run_apply 3
        [ "$took" -lt 30 ] || fail "the memory hog took $took s to be stopped (wall clock 120 s)"
        assert_contains "the memory limit named" "$ERR" \
                "/usr/sbin/update-grub in $t reached the sandbox's memory limit of 512 MiB"
        echo "ok: the memory hog stopped at the memory limit in $took s"
        no_leftovers "attack hog"
else
        echo "not tried: the kernel has no memory controller"
fi

# --- a well-behaved update-grub still runs ---------------------------------------------------
printf '#!/bin/busybox sh\n/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg\n' \
        >"$t/usr/sbin/update-grub"
run_apply 0
[ -s "$t/boot/grub/grub.cfg" ] || fail "update-grub did not write grub.cfg"
no_leftovers sbx-forkbomb

# --- no cgroup filesystem mounted, as in an installer's initramfs --------------------------
cat >"$t/usr/sbin/update-grub" <<'BOMB'
#!/bin/busybox sh
/bin/busybox touch /boot/grub/RAN
exec /bin/busybox sh -c 'b() { b & b & wait; }; b' sbx-forkbomb
BOMB
reset_grub
cat >"$d/nocg.sh" <<NOCG
findmnt -rn -t cgroup,cgroup2 -o TARGET | sort -r | while read -r m; do umount "\$m" || exit 1; done
if findmnt -rn -t cgroup,cgroup2 >/dev/null; then echo "a cgroup filesystem is still mounted" >&2; exit 99; fi
echo \$\$ >"$d/pid"
SEINSTALL_SANDBOX_TIMEOUT=120 exec "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
NOCG
# pids on cgroup v2 unless a mounted v1 hierarchy holds it
pids_v1=$(awk '$1 == "pids" && $2 != 0 { print "yes" }' /proc/cgroups)
start=$(date +%s)
if [ "$pids_v1" = yes ]; then
        expect_exit 3 timeout -s KILL 200 unshare -m bash "$d/nocg.sh"
        assert_contains "the refusal says why" "$ERR" \
                "Cannot run /usr/sbin/update-grub of $t in a sandbox: cgroup v2 has no cgroup"
        assert_contains "and what would allow it" "$ERR" "or of cgroup v1 (its pids hierarchy mounted)"
        [ ! -e "$t/boot/grub/RAN" ] || fail "update-grub ran without a process limit"
        echo "ok: pids is bound to an unmounted v1 hierarchy: refused, nothing ran: $ERR"
else
        expect_exit 3 timeout -s KILL 200 unshare -m bash "$d/nocg.sh"
        assert_contains "the process limit named" "$ERR" "reached the sandbox's limit of 256"
        [ "$(($(date +%s) - start))" -lt 30 ] || fail "the fork bomb was not stopped in time"
        [ -e "$t/boot/grub/RAN" ] || fail "update-grub did not run under seinstall's own cgroup2"
        echo "ok: seinstall's own cgroup2 mount bounded the fork bomb"
fi
no_leftovers sbx-forkbomb
