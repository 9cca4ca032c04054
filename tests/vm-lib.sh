# shellcheck shell=bash
# Sourced by an integration test that needs what this machine's kernel may lack (the device
# mapper, md RAID): vm_rerun runs the same test again inside QEMU on Debian 12's own kernel
# (qemu/kernel.sh fetches it into E2E_CACHE, as make e2e does), whose root is this machine's
# own root filesystem read-only over 9p with a tmpfs overlay on it: the same programs, the
# same build tree (SEINSTALL_BUILD, SEINSTALL), that kernel's modules. The guest's /tmp is the
# host's too (a tree cloned under /tmp is there; what the guest writes stays in the overlay);
# the test's scratch files go to a tmpfs of the guest's own (TMPDIR=/run/tmp). The guest's output is
# the test's output; its exit status the test's. About 80 s for sandbox-lvm-raid.sh.
#
# vm_rerun MODULES...: never returns. Skips when QEMU or the kernel cannot be had; the guest
# sees SEINSTALL_IN_VM=1 (a test checks it first, so that it never loops). TCG unless
# SEINSTALL_VM_ACCEL=kvm: nested KVM fails on some machines (this project's test machine).

vm_rerun() {
        local mods=("$@") st d out rc accel=${SEINSTALL_VM_ACCEL:-tcg}
        command -v qemu-system-x86_64 >/dev/null ||
                skip "needs qemu-system-x86_64 to run on a kernel with ${mods[*]} (make deps)"
        require_static_busybox "for the guest's init"
        E2E_DIR=$TOP/qemu # read by kernel.sh
        export E2E_DIR
        log() { echo "vm: $*" >&2; }
        . "$TOP/qemu/kernel.sh"
        cache_dir "$E2E_CACHE"
        (
                flock 9
                kernel_fetch "$E2E_CACHE"
        ) 9>"$E2E_CACHE/.kernel.lock" >&2 || skip "could not fetch Debian's kernel into $E2E_CACHE"
        kernel_fetch "$E2E_CACHE" >/dev/null 2>&1 || skip "no kernel in $E2E_CACHE"
        d=$(scratch_dir)
        st=$d/initramfs
        mkdir -p "$st"/{bin,proc,sys,dev,host,upper,newroot,lib/modules,etc}
        cp /bin/busybox "$st/bin/busybox"
        ln -s busybox "$st/bin/sh"
        modprobe -d "$KDIR" -S "$KVER" -a --show-depends virtio_pci 9pnet_virtio 9p overlay \
                "${mods[@]}" | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$d/mods" ||
                skip "the kernel $KVER lacks a module of: ${mods[*]}"
        while read -r m; do
                cp "$m" "$st/lib/modules/"
                echo "/lib/modules/$(basename "$m")" >>"$st/etc/modules"
        done <"$d/mods"
        # The command, with the environment the test runs in (its build tree, its flags).
        {
                printf 'cd %q\n' "$PWD"
                printf 'mkdir -p /run/tmp\nexport TMPDIR=/run/tmp\n'
                printf 'export SEINSTALL_IN_VM=1 SEINSTALL_BUILD=%q SEINSTALL=%q PATH=%q\n' \
                        "$SEINSTALL_BUILD_DIR" "$SEINSTALL" "/usr/sbin:/usr/bin:/sbin:/bin"
                printf 'echo VM-START\n'
                printf 'bash %q\n' "$(realpath "$0")"
                printf 'echo "VM-EXIT $?"\nsync\n/bin/busybox poweroff -f\n'
        } >"$st/etc/command"
        cat >"$st/init" <<'INIT'
#!/bin/sh
export PATH=/bin
busybox mount -t proc proc /proc
busybox mount -t sysfs sys /sys
busybox mount -t devtmpfs dev /dev
while read -r m; do busybox insmod "$m"; done </etc/modules
busybox mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,msize=512000,ro host /host
busybox mount -t tmpfs -o mode=0755 upper /upper
busybox mkdir -p /upper/u /upper/w
busybox mount -t overlay -o lowerdir=/host,upperdir=/upper/u,workdir=/upper/w root /newroot
for m in proc sys dev; do busybox mount --move /$m /newroot/$m; done
busybox mount -t devpts devpts /newroot/dev/pts 2>/dev/null
busybox mount -t tmpfs -o mode=0755 run /newroot/run
busybox mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup
echo "+pids +memory" >/newroot/sys/fs/cgroup/cgroup.subtree_control
busybox cp /etc/command /newroot/run/vm-command
# switch_root, not chroot: the sandbox's bwrap pivots away from a root that is a mount.
exec busybox switch_root /newroot /bin/bash /run/vm-command
INIT
        chmod 0755 "$st/init"
        (cd "$st" && find . | cpio -o -H newc --quiet) >"$d/initrd" || fail "cpio"
        out=$d/serial.log
        timeout -s KILL 900 nice qemu-system-x86_64 -accel "$accel" -cpu max -m 1536 -smp 2 \
                -nodefaults -display none -monitor none -no-reboot -serial "file:$out" \
                -kernel "$KERNEL" -initrd "$d/initrd" \
                -append "console=ttyS0 quiet panic=-1 rdinit=/init" \
                -virtfs local,path=/,mount_tag=host,security_model=passthrough,readonly=on,multidevs=remap \
                </dev/null >"$d/qemu.out" 2>&1
        tr -d '\r' <"$out" | sed -n '/^VM-START$/,/^VM-EXIT /p' | sed '1d;$d'
        rc=$(tr -d '\r' <"$out" | sed -n 's/^VM-EXIT \([0-9]*\)$/\1/p')
        if [ -z "$rc" ]; then
                echo "the guest did not finish; QEMU said: $(head -c 500 "$d/qemu.out")"
                tr -d '\r' <"$out" | tail -n 30
                fail "no exit status from the guest on Debian's kernel $KVER"
        fi
        echo "(ran in QEMU on Debian's kernel $KVER, accel $accel)"
        exit "$rc"
}
