#!/bin/bash
# The sandbox the target's programs run in (apply --regenerate's update-grub; issue 26, points
# 1-7). A hostile update-grub, on a target loop-mounted as an installer mounts it with the
# installer's /dev, /proc, /sys and a /run-like directory bound in, tries every attack of
# tests/integration/lib/sandbox-attack.c on victims OUTSIDE the target, which this test then
# compares before and after: a host block device (a loop device over a scratch file), the
# terminal seinstall runs on (under script(1)), a root process, a unix socket in the bound
# /run and an abstract one, root's user keyring, the log passed as stderr. Then: a process it
# leaves behind, an update-grub that never returns, its output, and no bwrap at all.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_loop
require_static_busybox "to run update-grub in the target"
require_tool bwrap bubblewrap
for c in keyctl script python3 cc; do
        command -v "$c" >/dev/null || skip "needs $c (make deps)"
done

d=$(scratch_dir)
t=$d/t
cc -static -O1 -o "$d/attack" "$TOP/tests/integration/lib/sandbox-attack.c" 2>"$d/cc.err" ||
        skip "cannot build a static program here: $(cat "$d/cc.err")"
make_fs_image "$d/target.img" ext4
mount_image "$d/target.img" "$t"
own_dev=$(findmnt -n -o SOURCE "$t")
make_target "$t"
mkdir -p "$t/bin" "$t/usr/sbin" "$t/boot/grub" "$t/dev" "$t/proc" "$t/sys" "$t/run" "$d/instrun"
cp /bin/busybox "$t/bin/busybox"
cp "$d/attack" "$t/bin/attack"

# --- the victims --------------------------------------------------------------------------
# a host block device: 1 MiB of known bytes behind a loop device
python3 -c 'import sys; sys.stdout.buffer.write(b"VICTIM-BYTES-16\n" * 65536)' >"$d/victim.img"
victim_dev=$(losetup -f --show "$d/victim.img") || fail "losetup"
on_exit "losetup -d '$victim_dev'"
victim_sum=$(sha256sum <"$victim_dev")
# the installer's /dev, /proc, /sys and a /run-like directory, bound into the target
for m in dev proc sys; do
        mount --bind "/$m" "$t/$m" || fail "bind /$m"
        on_exit "umount -l '$t/$m'"
done
printf 'installer secret\n' >"$d/instrun/secret"
mount --bind "$d/instrun" "$t/run" || fail "bind mount of the /run-like directory"
on_exit "umount -l '$t/run'"
# listeners: a unix socket in that directory and an abstract one; each logs what connects
abstract="seinstall-test-$$"
cat >"$d/listen.py" <<'PY'
import socket, sys
path, log = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path if not path.startswith("@") else "\0" + path[1:])
s.listen(8)
open(log + ".ready", "w").close()
while True:
    c, _ = s.accept()
    with open(log, "a") as f:
        f.write("connection\n")
    c.close()
PY
python3 "$d/listen.py" "$d/instrun/victim.sock" "$d/run-sock.log" &
l1=$!
python3 "$d/listen.py" "@$abstract" "$d/abstract-sock.log" &
l2=$!
on_exit "kill $l1 $l2"
# a root process of the host
sleep 1000 &
victim_pid=$!
on_exit "kill $victim_pid"
# root's user keyring
key_id=$(keyctl add user seinstall_test_secret "the-key-secret-$$" @u) || skip "keyctl add failed here"
on_exit "keyctl unlink $key_id @u"
for i in $(seq 50); do
        [ -e "$d/run-sock.log.ready" ] && [ -e "$d/abstract-sock.log.ready" ] && break
        sleep 0.1
done
# the installer's log, passed as stderr
printf 'installer log line: the-log-secret-%s\n' "$$" >"$d/installer.log"
chmod 0600 "$d/installer.log"
log_before=$(cat "$d/installer.log")

# --- the hostile update-grub --------------------------------------------------------------
cat >"$t/usr/sbin/update-grub" <<HOSTILE
#!/bin/busybox sh
/bin/attack report $victim_dev $own_dev $victim_pid $key_id /run/victim.sock $abstract \
        'touch $d/INJECTED
' >/boot/grub/attempts
/bin/attack daemon
/bin/attack noise
/bin/busybox grep "^GRUB_CMDLINE_LINUX=" /etc/default/grub >/boot/grub/grub.cfg
HOSTILE
chmod +x "$t/usr/sbin/update-grub"

# Under a terminal (script), stderr appended to the log as an installer's %post --log= does;
# what the terminal has to read afterwards is read and run, as an installer's shell would.
cat >"$d/run.sh" <<RUN
"$SEINSTALL" apply --root "$t" --mode permissive --regenerate >"$d/out" 2>>"$d/installer.log"
echo \$? >"$d/rc"
if read -r -t 2 line; then echo "terminal had: \$line" >"$d/typed"; eval "\$line"; fi
RUN
timeout -s KILL 60 script -qec "bash $d/run.sh" /dev/null >"$d/script.out" 2>&1 </dev/null ||
        true
[ -s "$d/rc" ] || fail "seinstall did not finish under script: $(cat "$d/script.out")"
assert_eq "exit status of apply --regenerate" 0 "$(cat "$d/rc")"
cat "$t/boot/grub/attempts"
[ -s "$t/boot/grub/grub.cfg" ] || fail "update-grub could not write grub.cfg in the target"

# --- each attempt denied, each victim as it was ------------------------------------------
for a in device-write device-read own-device-write tiocsti open-dev-tty stdin-is-tty \
        see-host-process connect-run-socket connect-abstract-socket key-read-by-id \
        key-search-user-keyring stderr-is-file log-read log-truncate fd3-open; do
        grep -q "^$a denied" "$t/boot/grub/attempts" ||
                fail "attempt $a was not denied: $(grep "^$a " "$t/boot/grub/attempts")"
done
grep -q "^own-device-read ok" "$t/boot/grub/attempts" ||
        fail "the target's own disk ($own_dev) is not readable for update-grub's probing"
echo "ok: every attempt denied; the target's own disk readable"
assert_eq "the host block device's bytes" "$victim_sum" "$(sha256sum <"$victim_dev")"
[ ! -e "$t/boot/grub/stolen-device" ] || fail "the host block device was read into the target"
[ ! -e "$d/INJECTED" ] || fail "a command typed into the terminal ran: $(cat "$d/typed")"
[ ! -e "$d/typed" ] || fail "the terminal got input: $(cat "$d/typed")"
echo "ok: nothing was typed into seinstall's terminal"
kill -0 "$victim_pid" || fail "the host's root process was killed"
echo "ok: the host's root process lives"
[ ! -e "$d/run-sock.log" ] || fail "a connection reached the socket in the bound /run"
[ ! -e "$d/abstract-sock.log" ] || fail "a connection reached the host's abstract socket"
echo "ok: no connection reached either socket"
[ ! -e "$t/boot/grub/stolen-key" ] || fail "the keyring's secret reached the target"
grep -rqs "the-key-secret-$$" "$t/boot" && fail "the keyring's secret is in the target"
echo "ok: the user keyring's secret stayed out of the target"
assert_eq "mode of the installer's log" 600 "$(stat -c %a "$d/installer.log")"
assert_eq "the log's first line (not truncated)" "$log_before" "$(head -n 1 "$d/installer.log")"
grep -rqs --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=run \
        "the-log-secret-$$" "$t" && fail "the installer's log reached the target"
echo "ok: the log kept its mode and content, nothing of it in the target"

# --- what is left behind, and the output ---------------------------------------------------
pgrep -x sbx-daemon >/dev/null && fail "a process update-grub started outlived seinstall: $(pgrep -a -x sbx-daemon)"
echo "ok: no process of the sandbox outlived seinstall"
log=$(cat "$d/installer.log")
case $log in *$'\e'*) fail "a raw escape character reached seinstall's stderr" ;; esac
case $log in *$'\a'*) fail "a raw bell reached seinstall's stderr" ;; esac
assert_contains "escaped output" "$log" 'update-grub: \e[2J\e[31mred text\e[0m and a bell\x07'
assert_contains "forged line prefixed" "$log" \
        "seinstall: /usr/sbin/update-grub: seinstall: error: forged message from the target"
grep -q '^seinstall: error: forged' "$d/installer.log" && fail "a forged line starts a line of the log"
assert_contains "NUL shown as U+FFFD" "$log" 'line with a NUL: [�]'
assert_contains "output bounded" "$log" "more bytes of output not shown"
size=$(stat -c %s "$d/installer.log")
[ "$size" -lt $((100 * 1024)) ] || fail "the relayed output is not bounded: $size bytes"
echo "ok: output escaped, prefixed and bounded ($size bytes for 200 KiB)"

# --- an update-grub that never returns ------------------------------------------------------
sed -i 's/security=selinux//' "$t/etc/default/grub"
printf '#!/bin/busybox sh\n/bin/attack daemon\nexec /bin/busybox sleep 100000\n' >"$t/usr/sbin/update-grub"
start=$(date +%s)
SEINSTALL_SANDBOX_TIMEOUT=3 expect_exit 3 timeout -s KILL 60 "$SEINSTALL" apply --root "$t" \
        --mode permissive --regenerate
took=$(($(date +%s) - start))
[ "$took" -lt 30 ] || fail "the hanging update-grub took $took s to be stopped"
assert_contains "the message names it" "$ERR" "/usr/sbin/update-grub in $t ran longer than 3 s"
assert_contains "the message says what was done" "$ERR" "killed it and every process it started"
pgrep -x sbx-daemon >/dev/null && fail "a process of the killed sandbox lives on"
echo "ok: killed after the limit in $took s, with everything it started"
# reset_grub: GRUB's defaults as before apply, so that the next apply regenerates again
reset_grub() { sed -i 's/ *security=selinux//' "$t/etc/default/grub"; }
reset_grub
SEINSTALL_SANDBOX_TIMEOUT=0 expect_exit 2 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
assert_contains "a bad limit named" "$ERR" "SEINSTALL_SANDBOX_TIMEOUT=0"
# the command reads the limits from its environment before anything else, for every command
# (the library reads no environment); a value that is not a number in range is exit 2
for v in 86401 -1 +5 5s 99999999999999999999 " 5"; do
        SEINSTALL_SANDBOX_TIMEOUT=$v expect_exit 2 "$SEINSTALL" check --root "$t"
        assert_contains "SEINSTALL_SANDBOX_TIMEOUT='$v'" "$ERR" \
                "SEINSTALL_SANDBOX_TIMEOUT=$v is not a number of seconds from 1 to 86400"
done
for v in 0 524289 -1 x " 4"; do
        SEINSTALL_LINKS_MAX=$v expect_exit 2 "$SEINSTALL" check --root "$t"
        assert_contains "SEINSTALL_LINKS_MAX='$v'" "$ERR" "is not a number of files from 1 to 524288"
done
SEINSTALL_SANDBOX_TIMEOUT= SEINSTALL_LINKS_MAX=524288 expect_exit 0 "$SEINSTALL" apply --root "$t" \
        --mode permissive --dry-run
echo "ok: the limits from the environment: each bad value refused by every command, exit 2"

# --- where the sandbox cannot be made, nothing runs ---------------------------------------
printf '#!/bin/busybox sh\n/bin/busybox touch /boot/grub/RAN\n' >"$t/usr/sbin/update-grub"
reset_grub
expect_exit 3 unshare -m sh -c "mount --bind /dev/null /usr/bin/bwrap && exec '$SEINSTALL' apply --root '$t' --mode permissive --regenerate"
assert_contains "no bwrap: the message" "$ERR" "install bubblewrap"
[ ! -e "$t/boot/grub/RAN" ] || fail "update-grub ran without its sandbox"
umount -l "$t/run"
rmdir "$t/run" && ln -s /etc "$t/run"
reset_grub
expect_exit 2 "$SEINSTALL" apply --root "$t" --mode permissive --regenerate
assert_contains "a symlinked mount point: the message" "$ERR" "$t/run is not a directory"
[ ! -e "$t/boot/grub/RAN" ] || fail "update-grub ran with /run a symlink"
echo "ok: without bwrap (exit 3) or with a symlinked mount point (exit 2) nothing ran"
