#!/bin/bash
# qemu/e2e.sh — end to end: install onto virtual disks with seinstall, boot the result on
# Debian 12's own kernel with SELinux, and check what the running system says. Nothing faked:
# the kernel, the policy (selinux-policy-default) and the target (mmdebstrap) are Debian's.
#
# Scenarios (each prints PASS/FAIL/SKIPPED, what it verified and how long each boot took):
#   seed        / planned on ReiserFS: `seinstall check` refuses and explains nfs_t; with
#               seinstall.unsupported=warn on the installer's command line the install goes
#               ahead in permissive mode and says so.
#   good        ext4 /, vfat /boot/efi, xfs /home; `seinstall install` from a kickstart profile
#               (selinux --enforcing) labels and configures; the installed disk then boots
#               with the command line seinstall wrote, enforcing, on the target's own policy.
#   first-boot  the first-boot screen on the serial console: Down, Space, F12 picks
#               Permissive; Disabled on the next screen leads to a boot with SELinux off.
#   avc         (qemu/scenarios-avc.sh) /etc/shadow mislabeled after a permissive install:
#               seinstall verify names it on the image; booted, seinstall avc puts its
#               denials under "label" and the Debian policy's known ones under "policy".
#   initrd      (qemu/scenarios-initrd.sh) a guest with Debian's own initramfs-tools initramfs switched from SELinux off
#               to enforcing: the next boot relabels in the initramfs and reaches the login
#               shell enforcing, with no reboot.
#   trial, trial-shadow  a trial install goes enforcing by itself after a clean boot; with
#               /etc/shadow mislabeled it stays permissive and its console line says why: the
#               trial checks the boot-critical files' labels as well as the boot's denials,
#               since the kernel's audit lines are rate-limited and a reader may not have run.
# A scenario whose seinstall piece is not built yet says SKIPPED with that reason; the test
# then exits 77 (skipped) unless something failed. Serial logs stay in build/e2e/.
#
# Environment: SEINSTALL_E2E_CACHE (default /var/cache/seinstall-e2e: kernel, target tarball),
# SEINSTALL_E2E_ONLY="seed good" to run some scenarios, SEINSTALL_E2E_KEEP=1 keeps the disks.
. "$(dirname "$0")/../tests/lib.sh"

E2E_DIR=$TOP/qemu
CACHE=$E2E_CACHE
LOGDIR=$TOP/build/e2e
ONLY=${SEINSTALL_E2E_ONLY:-seed good first-boot grub uefi relabel avc trial trial-shadow initrd}
T0=$(date +%s)

log() { echo "e2e: $*"; }

. "$E2E_DIR/kernel.sh"
. "$E2E_DIR/initramfs.sh"
. "$E2E_DIR/target.sh"

command -v qemu-system-x86_64 >/dev/null ||
        skip "QEMU cannot run: qemu-system-x86_64 is not installed (make deps installs qemu-system-x86)"
require_root
for t in mmdebstrap busybox cpio debugfs checkpolicy setfiles sfdisk qemu-img mcopy getfattr; do
        command -v "$t" >/dev/null || fail "$t is missing: run make deps"
done
cache_dir "$CACHE"
mkdir -p "$LOGDIR" || fail "cannot create $LOGDIR"
# One run at a time on a machine: the cache is shared, and two QEMUs under TCG on a few cores
# would each take twice as long.
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
        log "another end-to-end run holds $CACHE/.lock: waiting for it"
        flock 9
fi
rm -f "$LOGDIR"/*.log
WORK=$(mktemp -d /var/tmp/seinstall-e2e.XXXXXX)
if [ "${SEINSTALL_E2E_KEEP:-0}" = 1 ]; then
        log "keeping the disks in $WORK"
else
        on_exit "findmnt -rn -o TARGET -R '$WORK' | sort -r | xargs -r umount -l; rm -rf '$WORK'"
fi

# ---- booting -------------------------------------------------------------------------------
ACCEL=tcg
BOOT_TIMES=() BENCH_LINES=()
OVMF=/usr/share/ovmf/OVMF.fd

# boot NAME SCRIPT HOW [DISK[:ro]]...: run QEMU under serial.py with the serial log in
# $LOGDIR/NAME.log. HOW is either the kernel command line of a -kernel boot of the fetched
# kernel with the e2e initramfs, or "bios" / "uefi": the firmware (SeaBIOS, or OVMF from
# Debian's ovmf package) boots the first disk through the boot loader installed on it. A DISK
# ending in .qcow2 is a qcow2 overlay, others are raw; ":ro" discards the guest's writes.
# With REBOOTS=1 a reboot of the guest boots again (the script follows every boot); otherwise
# it ends QEMU. Fills STEPS with serial.py's step lines, records the boot's duration, and on
# failure prints the log's tail. Returns serial.py's status.
boot() {
        local name=$1 script=$2 how=$3 d dev opts fmt rc start secs i=0
        shift 3
        local drives=() firmware=()
        for d in "$@"; do
                opts=
                case $d in *:ro) d=${d%:ro} opts=,snapshot=on ;; esac
                fmt=raw
                case $d in *.qcow2) fmt=qcow2 ;; esac
                dev=virtio-blk-pci,drive=d$i
                [ $i = 0 ] && dev+=,bootindex=1
                drives+=(-drive "file=$d,if=none,id=d$i,format=$fmt$opts" -device "$dev")
                i=$((i + 1))
        done
        case $how in
        bios) ;;
        uefi) firmware=(-bios "$OVMF") ;;
        *) firmware=(-kernel "$KERNEL" -initrd "$INITRD" -append "$how") ;;
        esac
        LAST_LOG=$LOGDIR/$name.log
        start=$(date +%s.%N)
        STEPS=$(/usr/bin/python3 "$E2E_DIR/serial.py" --log "$LOGDIR/$name.log" --script "$script" -- \
                qemu-system-x86_64 -accel "$ACCEL" -cpu max -m 1024 -smp 2 -nodefaults \
                -display none -monitor none -serial stdio $([ "${REBOOTS:-0}" = 1 ] || echo -no-reboot) \
                "${firmware[@]}" "${drives[@]}")
        rc=$?
        secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        BOOT_TIMES+=("$name ${secs}s")
        echo "$STEPS" | sed "s/^/  [$name] /"
        if [ $rc != 0 ]; then
                echo "  [$name] QEMU run failed (serial.py status $rc); serial log $LOGDIR/$name.log ends:"
                tail -n 40 "$LOGDIR/$name.log" | sed 's/^/    | /'
        fi
        return $rc
}

# step_time NAME: seconds from QEMU start to the named step of the last boot.
step_time() { echo "$STEPS" | awk -v n="$1" '$1 == "step" && $2 == n { print $3 }'; }

# fact LOG KEY: the value of "E2E-FACT KEY value" (the last one) in a serial log.
fact() {
        tr -d '\r' <"$1" | sed -n "s/^.*E2E-FACT $(printf '%s' "$2" | sed 's/[][\/.*^$]/\\&/g') //p" | tail -n 1
}
# between LOG BEGIN END: the lines of a serial log between two marker lines.
between() {
        tr -d '\r' <"$1" | awk -v b="$2" -v e="$3" '$0 == e { p = 0 } p { print } $0 == b { p = 1 }'
}

# An installer run: /init runs /e2e/NAME.sh and prints E2E-EXIT; the guest powers off.
installer_script() {
        cat >"$WORK/installer.script" <<EOF
expect 120 booted E2E-INSTALLER
expect ${1:-600} done E2E-EXIT
exit 60
EOF
        echo "$WORK/installer.script"
}
INSTALLER_APPEND="console=ttyS0 quiet panic=-1"

# ---- checks ------------------------------------------------------------------------------
# Within a scenario (a subshell): `ok WHAT` notes a verified fact, `bad WHAT` a failed one;
# the scenario's status is FAIL if any was bad.
ok() { echo "  ok: $*"; VERIFIED+=("$*"); }
bad() { echo "  FAIL: $*"; FAILED+=("$*"); }
expect_eq() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else bad "$1: expected '$2', got '$3'"; fi; }
expect_match() { if printf '%s' "$3" | grep -Eq -- "$2"; then ok "$1 ~ /$2/"; else bad "$1: '$3' does not match /$2/"; fi; }
expect_nomatch() { if printf '%s' "$3" | grep -Eq -- "$2"; then bad "$1: '$3' matches /$2/"; else ok "$1 !~ /$2/"; fi; }

# A seinstall piece that is still the placeholder says "not built yet".
piece_missing() {
        "$SEINSTALL" "$1" --help 2>&1 | grep -q 'not built yet'
}

# ---- preparation -----------------------------------------------------------------------------
kernel_fetch "$CACHE" || fail "cannot fetch Debian's kernel package (apt-get download)"
log "kernel $KVER: $KERNEL"
INITRD=$WORK/initrd.cpio
build_initramfs "$INITRD" "$WORK/initramfs" || fail "cannot build the initramfs"
log "initramfs: $(du -h "$INITRD" | cut -f1)"

# Accelerator: KVM only if a short boot under it really reaches the installer's shell script.
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
        ACCEL=kvm
        printf 'expect 20 hello E2E-HELLO\nexpect 10 done E2E-EXIT\nexit 10\n' >"$WORK/probe.script"
        if boot kvm-probe "$WORK/probe.script" "$INSTALLER_APPEND e2e.scenario=hello" >/dev/null; then
                log "KVM works: using it"
        else
                ACCEL=tcg
                log "/dev/kvm is there but a Debian kernel does not boot under it in 20 s: using TCG"
        fi
fi
printf 'expect 120 hello E2E-HELLO\nexpect 30 done E2E-EXIT\nexit 30\n' >"$WORK/hello.script"
if ! boot hello "$WORK/hello.script" "$INSTALLER_APPEND e2e.scenario=hello"; then
        if ! grep -q 'E2E-INSTALLER\|Linux version' "$LOGDIR/hello.log" 2>/dev/null; then
                skip "QEMU cannot run here: no output from qemu-system-x86_64 -accel $ACCEL ($(head -c 300 "$LOGDIR/hello.log" 2>/dev/null))"
        fi
        fail "the installer initramfs does not boot (log $LOGDIR/hello.log)"
fi
log "QEMU ($ACCEL) boots the installer environment in $(step_time hello) s"

TARBALL=$(target_tarball "$CACHE") || fail "mmdebstrap could not build the Debian target"
target_tree "$TARBALL" "$WORK/tree" || fail "cannot unpack the target"
# The one target disk every scenario starts from; each boots a copy-on-write overlay of it.
BASE=$WORK/base.raw
target_disk "$WORK/tree" "$BASE" || fail "cannot build the partitioned target disk (sfdisk, mkfs)"
rm -rf "$WORK/tree"
PREP=$(($(date +%s) - T0))
log "target: $(basename "$TARBALL"), ready after $PREP s"

. "$E2E_DIR/scenarios.sh"
. "$E2E_DIR/scenarios-avc.sh"
. "$E2E_DIR/scenarios-initrd.sh"

# ---- run and summarize -------------------------------------------------------------------
declare -A RESULT WALL
for s in $ONLY; do
        echo
        echo "=== scenario $s"
        VERIFIED=() FAILED=() SKIP_REASON= BOOT_TIMES=() LAST_LOG=
        s0=$(date +%s)
        "scenario_${s//-/_}"
        WALL[$s]=$(($(date +%s) - s0))
        if [ ${#FAILED[@]} -gt 0 ] && [ -n "$LAST_LOG" ]; then
                echo "  the last serial log is kept in $LAST_LOG; it ends:"
                tr -d '\r' <"$LAST_LOG" | tail -n 25 | sed 's/^/    | /'
        fi
        if [ ${#FAILED[@]} -gt 0 ]; then
                RESULT[$s]="FAIL     $s (${WALL[$s]} s): ${FAILED[0]}${FAILED[1]:+ (and $((${#FAILED[@]} - 1)) more)}"
        elif [ -n "$SKIP_REASON" ]; then
                RESULT[$s]="SKIPPED  $s (${WALL[$s]} s): $SKIP_REASON${VERIFIED:+ (${#VERIFIED[@]} checks before that passed)}"
        else
                RESULT[$s]="PASS     $s (${WALL[$s]} s): ${#VERIFIED[@]} checks"
        fi
        [ ${#BOOT_TIMES[@]} -gt 0 ] && RESULT[$s]+="; boots: $(IFS=,; echo "${BOOT_TIMES[*]}" | sed 's/,/, /g')"
        echo "=== ${RESULT[$s]}"
done

echo
echo "e2e summary ($ACCEL, $(($(date +%s) - T0)) s in all, serial logs in $LOGDIR):"
echo "  preparation (kernel, initramfs, target disk): $PREP s"
failed=0 skipped=()
for s in $ONLY; do
        echo "  ${RESULT[$s]}"
        case ${RESULT[$s]} in FAIL*) failed=1 ;; SKIPPED*) skipped+=("$s") ;; esac
done
if [ ${#BENCH_LINES[@]} -gt 0 ]; then
        echo
        printf '%s\n' "${BENCH_LINES[@]}"
fi
[ $failed = 0 ] || exit 1
if [ ${#skipped[@]} -gt 0 ]; then
        echo
        echo "SKIPPED: scenario ${skipped[*]} not run ($(for s in "${skipped[@]}"; do echo -n "${RESULT[$s]#SKIPPED  }; "; done | sed 's/; $//'))"
        exit 77
fi
exit 0
