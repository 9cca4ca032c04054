#!/bin/bash
# A test runner stopped from outside takes its test's QEMU guest, mounts and loop devices with
# it. A stand-in test, through the helpers the real ones use (tests/lib.sh's make_fs_image,
# scratch_dir, mount_image), loop-mounts an ext4 image, starts a QEMU guest and waits; QEMU
# started the two ways the tests start it, each in a process group of its own: as
# tests/vm-lib.sh does, under `timeout -s KILL`, and as qemu/e2e.sh does, through
# qemu/serial.py on its console. tests/run-tests.sh running it is then stopped three ways:
# SIGTERM; a time limit (`timeout 25 tests/run-tests.sh ...`); SIGKILL (then the watcher
# tests/reap.sh cleans up). Each time: no QEMU process of it, no mount, no loop device on its
# image, and no run directory are left.
. "$(dirname "$0")/../lib.sh"
require_loop
require_tool qemu-system-x86_64 qemu-system-x86

d=$(scratch_dir)
standin=$d/standin.sh
cat >"$standin" <<'STANDIN'
#!/bin/bash
. "$SEINSTALL_TOP/tests/lib.sh"
info=$STANDIN_INFO
s=$(scratch_dir)
make_fs_image "$s/disk.img" ext4 16
mount_image "$s/disk.img" "$s/mnt"
echo "$s/disk.img" >"$info/image"
echo "$s/mnt" >"$info/mount"
echo "standin: mounted $s/disk.img on $s/mnt; starting QEMU"
if [ "$STANDIN_VIA" = serial ]; then
        # as qemu/e2e.sh runs a guest: qemu/serial.py on its serial console, waiting
        echo "expect 900 never NEVER-PRINTED" >"$s/script"
        python3 "$SEINSTALL_TOP/qemu/serial.py" --log "$s/serial.log" --script "$s/script" -- \
                qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none -monitor none \
                -serial stdio -S -name "seinstall-standin-$$" -pidfile "$info/qemu.pid"
else
        timeout -s KILL 900 nice qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none \
                -monitor none -S -name "seinstall-standin-$$" -pidfile "$info/qemu.pid" </dev/null
fi
echo "standin: QEMU ended"
STANDIN

# Is this QEMU (pid in FILE) still running? Its pid could be reused: check its name too.
qemu_alive() {
        local pid
        pid=$(cat "$1" 2>/dev/null) || return 1
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "seinstall-standin-"
}

for run in timeout-TERM timeout-timeout timeout-KILL serial-TERM serial-timeout serial-KILL; do
        via=${run%%-*} how=${run#*-}
        info=$d/$run
        mkdir -p "$info/logs" "$info/tmp"
        export SEINSTALL_TOP=$TOP STANDIN_INFO=$info STANDIN_VIA=$via
        if [ "$how" = timeout ]; then
                TMPDIR=$info/tmp TEST_LOGDIR=$info/logs timeout 25 bash "$TOP/tests/run-tests.sh" \
                        "$standin" >"$info/runner.out" 2>&1 &
        else
                TMPDIR=$info/tmp TEST_LOGDIR=$info/logs bash "$TOP/tests/run-tests.sh" \
                        "$standin" >"$info/runner.out" 2>&1 &
        fi
        runner=$!
        on_exit "kill -KILL $runner"
        for _ in $(seq 1 200); do
                qemu_alive "$info/qemu.pid" && [ -s "$info/mount" ] && break
                sleep 0.1
        done
        qemu_alive "$info/qemu.pid" ||
                fail "$run: the stand-in did not start QEMU: $(cat "$info/runner.out" "$info"/logs/*.log 2>/dev/null)"
        img=$(cat "$info/image") mnt=$(cat "$info/mount")
        grep -q " $mnt " /proc/self/mounts || fail "$run: $mnt is not mounted"
        [ -n "$(losetup -j "$img")" ] || fail "$run: no loop device on $img"
        qpid=$(cat "$info/qemu.pid")
        on_exit "qemu_alive '$info/qemu.pid' && kill -KILL $qpid"
        echo "$run: the stand-in runs QEMU (pid $qpid, process group $(ps -o pgid= -p "$qpid" | tr -d ' ')), $img on $mnt ($(losetup -j "$img" | cut -d: -f1))"
        case $how in
        TERM) kill -TERM "$runner" ;;
        KILL) kill -KILL "$runner" ;;
        esac
        wait "$runner"
        rc=$?
        echo "$run: the runner exited $rc: $(grep -v '^$' "$info/runner.out" | head -n 3 | tr '\n' ' ')"
        case $how in
        TERM) assert_eq "the runner's exit status after SIGTERM" 143 "$rc" ;;
        timeout) assert_eq "timeout's exit status" 124 "$rc" ;;
        KILL) assert_eq "the runner's exit status after SIGKILL" 137 "$rc" ;;
        esac
        [ "$how" = KILL ] || assert_contains "the runner says" "$(cat "$info/runner.out")" \
                "run-tests.sh: stopped by SIGTERM during $standin"
        # The runner (SIGTERM, timeout) cleans up before it exits; after SIGKILL the watcher
        # does, once the runner is gone: a few seconds.
        for _ in $(seq 1 200); do
                if ! qemu_alive "$info/qemu.pid" && ! grep -q " $mnt " /proc/self/mounts &&
                        [ -z "$(losetup -j "$img" 2>/dev/null)" ] &&
                        [ -z "$(ls -A "$info/tmp")" ]; then
                        break
                fi
                [ "$how" = KILL ] || break
                sleep 0.1
        done
        qemu_alive "$info/qemu.pid" && fail "$run: QEMU (pid $qpid) is still running"
        grep -q " $mnt " /proc/self/mounts && fail "$run: $mnt is still mounted"
        [ -z "$(losetup -j "$img" 2>/dev/null)" ] || fail "$run: a loop device is still on $img: $(losetup -j "$img")"
        echo "ok: $run: no QEMU, no mount, no loop device left"
        # The run directory goes with the watcher, just after the runner.
        for _ in $(seq 1 100); do
                [ -z "$(ls -A "$info/tmp")" ] && break
                sleep 0.1
        done
        [ -z "$(ls -A "$info/tmp")" ] || fail "$run: the run directory is left: $(ls -A "$info/tmp")"
        echo "ok: $run: the runner's directory is gone ($(tr '\n' ' ' <"$info/logs/reap.log"))"
done

# A test that passes but leaves a mount below its TMPDIR or a process in its session fails,
# and the runner takes both away.
leaky=$d/leaky.sh
cat >"$leaky" <<'LEAKY'
#!/bin/bash
mkdir -p "$TMPDIR/m"
mount -t tmpfs leaky "$TMPDIR/m" || exit 3
echo "$TMPDIR/m" >"$STANDIN_INFO/leaky-mount"
sleep 300 &
echo $! >"$STANDIN_INFO/leaky-pid"
exit 0
LEAKY
info=$d/leaky
mkdir -p "$info/logs" "$info/tmp"
STANDIN_INFO=$info TMPDIR=$info/tmp TEST_LOGDIR=$info/logs bash "$TOP/tests/run-tests.sh" "$leaky" \
        >"$info/runner.out" 2>&1 && rc=0 || rc=$?
cat "$info/runner.out"
assert_eq "the runner's exit status for a test that leaves things behind" 1 "$rc"
assert_contains "its report" "$(cat "$info/runner.out")" "LEFT BEHIND: reap: unmounting $(cat "$info/leaky-mount")"
assert_contains "its report" "$(cat "$info/runner.out")" "LEFT BEHIND: reap: ending session"
grep -q " $(cat "$info/leaky-mount") " /proc/self/mounts && fail "the leaked mount is still there"
lpid=$(cat "$info/leaky-pid")
[ "$(ps -o comm= -p "$lpid")" = sleep ] && kill "$lpid" && fail "the leaked sleep (pid $lpid) still runs"
echo "ok: a test leaving a mount and a process fails; both are gone"
