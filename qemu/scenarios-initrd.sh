# Sourced by qemu/e2e.sh: the relabel in the initramfs (issue 35).
#
# initrd  A Debian 12 guest with initramfs-tools, installed with SELinux off (no seinstall
#         install: unlabeled, no security=selinux), whose initramfs is Debian's own, built by
#         mkinitramfs in the target root with seinstall's hook in it. Booted with SELinux off,
#         `seinstall-firstboot --mode enforcing --yes` in the guest chooses enforcing (the
#         screen itself is driven in the first-boot scenario). The next boot relabels the root
#         in the initramfs, with no reboot, reaches the first-boot screen and
#         the login shell enforcing from the start, with no label denial; on the host
#         seinstall verify finds no label different from the file contexts. A third boot is a
#         normal enforcing boot: the times of the three boots to the login shell are printed.

# initrd_tree DIR: the target tree with initramfs-tools (and busybox, zstd: what it recommends),
# its own initramfs built by mkinitramfs in a chroot from the fetched kernel's modules.
initrd_tree() {
        local dir=$1 tb
        tb=$(TARGET_PACKAGES=$TARGET_PACKAGES,initramfs-tools,busybox,zstd target_tarball "$CACHE") || return 1
        target_tree "$tb" "$dir" || return 1
        # Only /etc/kernel/cmdline to edit: an update-grub in the guest costs minutes under TCG.
        rm -f "$dir/etc/default/grub"
        # One disk: booted from this initramfs, systemd timed out waiting for a second one
        # (dev-vdb.device) here; the fstab's other filesystems in the initramfs relabel are
        # tests/integration/initrd-relabel*.sh.
        sed -i '\|^/dev/vdb|d' "$dir/etc/fstab"
        # Under TCG on a loaded machine udev's coldplug in the booted system has taken longer
        # than systemd's 90 s device timeout here (/dev/vda2, /dev/ttyS0), with SELinux off
        # as well as enforcing: give devices 10 minutes on every boot of this disk.
        echo "root=/dev/vda3 ro console=ttyS0 quiet systemd.default_device_timeout_sec=600" \
                >"$dir/etc/kernel/cmdline"
        mkdir -p "$dir/etc/initramfs-tools/conf.d" "$dir/lib/modules/$KVER"
        echo MODULES=list >"$dir/etc/initramfs-tools/conf.d/e2e.conf"
        # The booted system has no /lib/modules of this kernel: what it mounts is loaded here.
        printf '%s\n' virtio_pci virtio_blk ext4 vfat nls_cp437 nls_ascii nls_utf8 \
                >>"$dir/etc/initramfs-tools/modules"
        mount --bind "$KDIR/lib/modules/$KVER" "$dir/lib/modules/$KVER" || return 1
        mount -t proc proc "$dir/proc" && mount --bind /dev "$dir/dev" || return 1
        chroot "$dir" mkinitramfs -o "/boot/initrd.img-$KVER" "$KVER" >"$WORK/mkinitramfs.log" 2>&1
        local rc=$?
        chroot "$dir" lsinitramfs "/boot/initrd.img-$KVER" >"$WORK/lsinitramfs.txt" 2>/dev/null
        umount "$dir/dev" "$dir/proc" "$dir/lib/modules/$KVER"
        return $rc
}

scenario_initrd() {
        if [ ! -x "$TOP/${SEINSTALL_BUILD:-build}/bin/seinstall-firstboot" ]; then
                SKIP_REASON="seinstall-firstboot is not built (WITH_FIRSTBOOT=0)"
                return
        fi
        local tree=$WORK/initrd-tree disk=$WORK/initrd.raw L cmdline
        local t_off t_relabel t_normal lines n
        initrd_tree "$tree" || { bad "mkinitramfs in the target failed: $(tail -n 5 "$WORK/mkinitramfs.log")"; return; }
        ok "mkinitramfs built the target's own initramfs ($(du -h "$tree/boot/initrd.img-$KVER" | cut -f1))"
        for f in usr/sbin/seinstall usr/libexec/seinstall/initrd-relabel scripts/local-bottom/seinstall \
                usr/lib/x86_64-linux-gnu/libsepol.so.2 usr/lib/x86_64-linux-gnu/libselinux.so.1; do
                if grep -qx "$f" "$WORK/lsinitramfs.txt"; then
                        ok "the initramfs holds /$f"
                else
                        bad "the initramfs lacks /$f"
                fi
        done
        cp "$tree/boot/initrd.img-$KVER" "$WORK/initrd-tools.img"
        target_disk "$tree" "$disk" || { bad "cannot build the disk"; return; }
        rm -rf "$tree"

        # Boot 1: SELinux off. Choose enforcing from the shell.
        cmdline="root=/dev/vda3 ro console=ttyS0 quiet systemd.default_device_timeout_sec=600"
        {
                echo "expect 900 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 400 facts E2E-FACTS-DONE"
                echo 'send seinstall-firstboot --mode enforcing --yes; echo E2E-FB-RC=$?\r'
                echo "expect 600 chosen E2E-FB-RC=[0-9]"
                echo 'send sync; poweroff -ff\r'
                echo "exit 120"
        } >"$WORK/initrd-off.script"
        INITRD=$WORK/initrd-tools.img boot initrd-off "$WORK/initrd-off.script" "$cmdline" "$disk" ||
                { bad "the boot with SELinux off did not reach its shell (see above)"; return; }
        L=$LOGDIR/initrd-off.log
        t_off=$(step_time login)
        expect_eq "boot 1: /sys/fs/selinux/enforce (SELinux off)" absent "$(fact "$L" enforce)"
        expect_match "seinstall-firstboot --mode enforcing --yes" "E2E-FB-RC=0" "$(tr -d '\r' <"$L" | grep -o 'E2E-FB-RC=[0-9]*' | tail -n 1)"
        cmdline=$(disk_cmdline "$disk") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        expect_match "the kernel command line now" "(^| )security=selinux( |$)" "$cmdline"
        expect_eq "the config until the relabel" permissive "$(disk_cat "$disk" /etc/selinux/config | sed -n 's/^SELINUX=//p')"
        [ -n "$(disk_cat "$disk" /.autorelabel)$(disk_cat "$disk" /etc/selinux/.autorelabel)" ] ||
                { bad "no relabel mark after choosing enforcing from disabled"; return; }

        # Boot 2: the initramfs relabels; no reboot (QEMU runs with -no-reboot: one would end
        # it before the login); the first-boot screen, then the shell, enforcing.
        {
                echo "expect 600 initrd-relabel seinstall \\(initramfs\\): relabeling"
                echo "expect 900 relabel-done relabel: [0-9]+ entries, [0-9]+ changed"
                echo "expect 120 initrd-enforcing says enforcing now"
        } >"$WORK/initrd-relabel.steps"
        first_boot_steps 0 >>"$WORK/initrd-relabel.steps"
        target_script "$WORK/initrd-relabel.script" "$WORK/initrd-relabel.steps"
        INITRD=$WORK/initrd-tools.img boot initrd-relabel "$WORK/initrd-relabel.script" "$cmdline" "$disk" ||
                { bad "the relabel boot did not reach its shell (see above)"; return; }
        L=$LOGDIR/initrd-relabel.log
        t_relabel=$(step_time login)
        ok "the initramfs relabeled ($(step_time initrd-relabel) s to $(step_time relabel-done) s after power-on) and the same boot reached the login shell at $t_relabel s"
        tr -d '\r' <"$L" | grep -a 'seinstall (initramfs)\|^relabel: ' | sed 's/^/      | /'
        expect_eq "the relabel boot: seinstall-relabel.service did not run" "" \
                "$(tr -d '\r' <"$L" | grep -a 'Relabel every file for SELinux' | head -n 1)"
        expect_match "the relabel boot: loaded enforcing from the start (MAC_STATUS)" "^E2E-MODE enforcing=1 old_enforcing=0" \
                "$(tr -d '\r' <"$L" | grep '^E2E-MODE' | head -n 1)"
        expect_eq "the relabel boot: the config" enforcing "$(fact "$L" config-mode)"
        enforcing_facts "$L" "the relabel boot"
        judge_avcs "$L"

        # The labels on the disk: seinstall verify and setfiles -F -n find nothing to change.
        inspect "$disk" || { bad "cannot mount the relabeled root on the host"; return; }
        # e2e-facts itself (run from the root shell: unconfined_u) writes one file,
        # /var/lib/e2e-loaded-policy: the test's, not a label the relabel left.
        "$SEINSTALL" verify --root "$WORK/inspect" >"$WORK/initrd-verify.out" 2>&1
        n=$(grep -E '^ +/' "$WORK/initrd-verify.out" | grep -v '^ */var/lib/e2e-loaded-policy: ' | grep -vc '^ */var/lib: ')
        expect_eq "seinstall verify of the disk after the relabel boot: files differing (but e2e-facts' own)" 0 "$n"
        [ "$n" = 0 ] || head -n 15 "$WORK/initrd-verify.out" | sed 's/^/      /'
        echo "  seinstall verify said: $(head -n 1 "$WORK/initrd-verify.out")"
        uninspect
        lines=$(mislabeled "$disk" | grep -v ' /var/lib/e2e-loaded-policy ')
        if printf '%s' "$lines" | grep -q 'Would relabel'; then
                bad "setfiles -F -n finds $(printf '%s\n' "$lines" | grep -c 'Would relabel') files to relabel, e.g.:"
                printf '%s\n' "$lines" | grep 'Would relabel' | head -n 10 | sed 's/^/      /'
        else
                ok "setfiles -F -n on / after the relabel boot: every file has its file-contexts label"
        fi

        # Boot 3: a normal enforcing boot, for the times.
        target_script "$WORK/initrd-normal.script"
        INITRD=$WORK/initrd-tools.img boot initrd-normal "$WORK/initrd-normal.script" "$cmdline" "$disk" ||
                { bad "the next boot did not reach its shell"; return; }
        L=$LOGDIR/initrd-normal.log
        t_normal=$(step_time login)
        expect_match "the next boot: loaded enforcing (MAC_STATUS)" "^E2E-MODE enforcing=1 old_enforcing=0" \
                "$(tr -d '\r' <"$L" | grep '^E2E-MODE' | head -n 1)"
        expect_eq "the next boot: no relabel" "" "$(tr -d '\r' <"$L" | grep -a 'seinstall (initramfs)' | head -n 1)"
        enforcing_facts "$L" "the next boot"
        judge_avcs "$L"
        BENCH_LINES+=("power-on to the login shell, Debian 12 guest with its own initramfs-tools initramfs, QEMU $ACCEL, 2 vCPUs:"
                "$(printf '  %-58s %6s s' "SELinux off (the boot that chose enforcing)" "$t_off")"
                "$(printf '  %-58s %6s s' "the relabel boot (initramfs relabel + first-boot screen)" "$t_relabel")"
                "$(printf '  %-58s %6s s' "a normal enforcing boot" "$t_normal")"
                "$(printf '  %-58s %6s' "relabel boot / normal boot" "$(bench_ratio "$t_normal" "$t_relabel")")")
}
