# Sourced by qemu/e2e.sh: the scenarios. Each one boots what it needs, then notes every fact
# it verified with `ok` and every one that did not hold with `bad`; SKIP_REASON when the
# seinstall piece it drives is not built yet.

# ---- host-side looks at an installed disk (after the guest powered off) ---------------------
disk_cat() { debugfs -R "cat $2" "$1" 2>/dev/null; }

# mislabeled ROOTIMG HOMEIMG: files of the installed ext4 root and xfs /home whose label is not
# what the target's own file contexts say, as `setfiles -F -n -v` (which changes nothing) lists
# them, mounted read-only on the host. /boot/efi is vfat, which this host kernel cannot mount,
# and a single-label filesystem anyway: excluded.
mislabeled() {
        local mnt=$WORK/inspect fc
        mkdir -p "$mnt"
        mount -o ro,loop,noload -t ext4 "$1" "$mnt" || return 1
        mount -o ro,loop,norecovery -t xfs "$2" "$mnt/home" || { umount "$mnt"; return 1; }
        fc=$mnt/etc/selinux/default/contexts/files/file_contexts
        setfiles -F -n -v -r "$mnt" -e "$mnt/boot/efi" "$fc" "$mnt" 2>&1 | sed "s|$mnt||g"
        umount "$mnt/home" "$mnt"
}

# judge_avcs LOG: list the AVC denials a target boot logged and count them; fail the ones a bad
# install causes (unlabeled, file_t or default_t objects, the init) per DESIGN.md.
judge_avcs() {
        local avcs n bad_avcs
        avcs=$(tr -d '\r' <"$1" | sed -n 's/^E2E-AVC //p')
        n=$(printf '%s' "$avcs" | grep -c .)
        bad_avcs=$(printf '%s' "$avcs" | grep -E ':(unlabeled_t|file_t|default_t|init_t|init_exec_t):' || true)
        if [ -n "$bad_avcs" ]; then
                bad "AVC denials a bad install causes (unlabeled_t/file_t/default_t/init):"
                printf '%s\n' "$bad_avcs" | sed 's/^/      /'
        else
                ok "no AVC denial involves unlabeled_t, file_t, default_t or the init ($n denials in all)"
        fi
        if [ "$n" -gt 0 ]; then
                echo "  note: $n AVC denials of the policy's own (listed, not failed):"
                printf '%s\n' "$avcs" | sed 's/^/      /'
        fi
}

# same_policy ROOTIMG: the policy the kernel had loaded (e2e-facts copied it) is the target's
# policy file: checkpolicy turns both binaries into CIL, which must be identical.
same_policy() {
        local img=$1 file
        file=$(fact "$2" policy-file)
        debugfs -R "dump /var/lib/e2e-loaded-policy $WORK/loaded.bin" "$img" >/dev/null 2>&1
        debugfs -R "dump $file $WORK/file.bin" "$img" >/dev/null 2>&1
        if [ ! -s "$WORK/loaded.bin" ] || [ ! -s "$WORK/file.bin" ]; then
                bad "could not read the loaded policy or $file back from the disk"
                return
        fi
        checkpolicy -b -C -M -o "$WORK/loaded.cil" "$WORK/loaded.bin" >/dev/null 2>&1
        checkpolicy -b -C -M -o "$WORK/file.cil" "$WORK/file.bin" >/dev/null 2>&1
        if [ -s "$WORK/file.cil" ] && cmp -s "$WORK/loaded.cil" "$WORK/file.cil"; then
                ok "the loaded policy is the target's $file (same CIL, $(wc -l <"$WORK/file.cil") lines)"
        else
                bad "the loaded policy differs from the target's $file"
        fi
        rm -f "$WORK"/loaded.* "$WORK"/file.*
}

# target_script FILE [FIRSTBOOT-STEPS]: boot an installed target to its autologin shell on the
# serial console (after the first-boot screen's steps, if given), run e2e-facts, power off.
target_script() {
        {
                [ -n "${2:-}" ] && cat "$2"
                echo "expect 600 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 300 facts E2E-FACTS-DONE"
                echo 'send sync; poweroff -ff\r'
                echo "exit 60"
        } >"$1"
}

# ---- seed: / on ReiserFS ---------------------------------------------------------------------
scenario_seed() {
        if piece_missing check; then
                SKIP_REASON="seinstall check is not on main yet (still the placeholder)"
                return
        fi
        local install=0 L json
        piece_missing install || install=1
        truncate -s 1G "$WORK/seed.img"
        boot seed "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=seed e2e.install=$install" \
                "$WORK/payload.img:ro" "$WORK/seed.img" || { bad "the installer run did not finish"; return; }
        L=$LOGDIR/seed.log
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "check --plan (/ on reiserfs) exit status" 1 "$(fact "$L" check-json-rc)"
        json=$(between "$L" "E2E-BEGIN check-json" "E2E-END check-json")
        expect_eq "check --json verdict, mount / (fstype, labeling, label, verdict)" \
                "refuse reiserfs genfs nfs_t refuse" "$(printf '%s' "$json" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
m = [m for m in d["mounts"] if m["mountpoint"] == "/"][0]
print(d["verdict"], m["fstype"], m["labeling"], m["label"].split(":")[2], m["verdict"])' 2>&1)"
        expect_match "check's text says why (nfs_t) and what to do" "nfs_t" \
                "$(between "$L" "E2E-BEGIN check" "E2E-END check")"
        echo "  check said:"
        between "$L" "E2E-BEGIN check" "E2E-END check" | sed 's/^/      | /'
        if [ $install = 0 ]; then
                SKIP_REASON="seinstall install is not on main yet: the install half (refuse, then warn and go ahead permissive) did not run"
                return
        fi
        echo "  copying the payload onto reiserfs took $(fact "$L" copy-seconds) s"
        expect_eq "install on reiserfs without unsupported=warn: exit status" 1 "$(fact "$L" install-rc)"
        expect_nomatch "install refused: the target's config" "SELINUX=enforcing" "$(fact "$L" config)"
        echo "  install said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | sed 's/^/      | /'

        boot seed-warn "$(installer_script)" \
                "$INSTALLER_APPEND e2e.scenario=seed-warn seinstall.unsupported=warn" \
                "$WORK/payload.img:ro" "$WORK/seed.img" ||
                { bad "the installer run with seinstall.unsupported=warn did not finish"; return; }
        L=$LOGDIR/seed-warn.log
        expect_eq "install with seinstall.unsupported=warn: exit status" 0 "$(fact "$L" install-rc)"
        expect_match "the target's config" "SELINUX=permissive" "$(fact "$L" config)"
        expect_match "install says it went permissive" "permissive" \
                "$(between "$L" "E2E-BEGIN install" "E2E-END install")"
        expect_match "install says why (reiserfs labels every file nfs_t)" "nfs_t|reiserfs" \
                "$(between "$L" "E2E-BEGIN install" "E2E-END install")"
        echo "  install said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | sed 's/^/      | /'
}

# ---- good: ext4 /, vfat /boot/efi, xfs /home, enforcing ------------------------------------------
GOOD_DONE=0 GOOD_STEPS=
scenario_good() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        local L cmdline lines t fbsteps=
        cp --sparse=always "$WORK/payload.img" "$WORK/root.img"
        rm -f "$WORK/efi.img" "$WORK/home.img"
        truncate -s 64M "$WORK/efi.img"
        truncate -s 320M "$WORK/home.img"
        expect_eq "before install: /etc/shadow on the target disk has no label" "" \
                "$(debugfs -R 'ea_list /etc/shadow' "$WORK/root.img" 2>/dev/null | grep security.selinux)"
        boot good-install "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=good" \
                "$WORK/root.img" "$WORK/efi.img" "$WORK/home.img" ||
                { bad "the installer run did not finish"; return; }
        L=$LOGDIR/good-install.log
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "seinstall check on the mounted target: exit status" 0 "$(fact "$L" check-rc)"
        expect_eq "seinstall install --profile (selinux --enforcing): exit status" 0 "$(fact "$L" install-rc)"
        echo "  seinstall install took $(fact "$L" install-seconds) s in the guest; it said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | tail -n 15 | sed 's/^/      | /'
        expect_eq "the target's config" "SELINUX=enforcing SELINUXTYPE=default " "$(fact "$L" config)"
        expect_eq "label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(fact "$L" label:/etc/shadow)"
        expect_eq "label of /home/e2e/notes.txt (xfs)" unconfined_u:object_r:user_home_t:s0 \
                "$(fact "$L" label:/home/e2e/notes.txt)"
        expect_eq "a relabel at first boot is not needed" "" "$(fact "$L" autorelabel)"

        cmdline=$(disk_cat "$WORK/root.img" /etc/kernel/cmdline | head -n 1)
        expect_match "the kernel command line seinstall wrote" "(^| )security=selinux( |$)" "$cmdline"
        expect_nomatch "the kernel command line seinstall wrote" "(^| )(enforcing=0|selinux=0)( |$)" "$cmdline"
        expect_match "the kernel command line keeps the installer's root= and console" \
                "root=/dev/vda .*console=ttyS0" "$cmdline"
        lines=$(mislabeled "$WORK/root.img" "$WORK/home.img")
        if printf '%s' "$lines" | grep -q 'Would relabel'; then
                bad "setfiles -F -n finds $(printf '%s\n' "$lines" | grep -c 'Would relabel') files mislabeled, e.g.:"
                printf '%s\n' "$lines" | grep 'Would relabel' | head -n 10 | sed 's/^/      /'
        elif [ -n "$lines" ]; then
                bad "setfiles -F -n on the installed disk failed: $lines"
        else
                ok "setfiles -F -n on the installed / and /home: every file has its file-contexts label"
        fi

        if [ -n "$FIRSTBOOT_STEPS" ]; then
                fbsteps=$WORK/firstboot-permissive.steps
                first_boot_steps 1 >"$fbsteps"
        fi
        target_script "$WORK/good.script" "$fbsteps"
        boot good-boot "$WORK/good.script" "$cmdline" "$WORK/root.img" "$WORK/efi.img" "$WORK/home.img" ||
                { bad "the installed system did not boot to its shell (see above)"; return; }
        GOOD_STEPS=$STEPS
        L=$LOGDIR/good-boot.log
        echo "  booted to the login shell in $(step_time login) s"
        expect_eq "/proc/cmdline is what seinstall configured" "$cmdline" "$(fact "$L" cmdline)"
        if [ -n "$fbsteps" ]; then
                # The first-boot screen chose Permissive: this boot started enforcing.
                expect_match "MAC_STATUS records: the policy was loaded enforcing" \
                        "enforcing=1 old_enforcing=0" "$(tr -d '\r' <"$L" | grep '^E2E-MODE' | head -n 1)"
        else
                expect_eq "/sys/fs/selinux/enforce" 1 "$(fact "$L" enforce)"
        fi
        expect_eq "pid 1 runs as" system_u:system_r:init_t:s0 "$(fact "$L" pid1)"
        t=$(fact "$L" init-path)
        expect_eq "label of $t (the init)" system_u:object_r:init_exec_t:s0 "$(fact "$L" "label:$t")"
        expect_eq "label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(fact "$L" label:/etc/shadow)"
        expect_eq "label of /home (xfs)" system_u:object_r:home_root_t:s0 "$(fact "$L" label:/home)"
        expect_eq "label of /boot/efi (vfat: genfscon)" system_u:object_r:dosfs_t:s0 "$(fact "$L" label:/boot/efi)"
        expect_match "systemd reached" "^(running|degraded)$" "$(fact "$L" state)"
        [ -n "$(fact "$L" failed-units)" ] && echo "  note: failed units: $(fact "$L" failed-units)"
        same_policy "$WORK/root.img" "$L"
        judge_avcs "$L"
        GOOD_DONE=1
}

# ---- first boot: the screen on the serial console --------------------------------------------
# seinstall-firstboot.service shows the screen on /dev/console (the serial line) before the
# login prompt when the first-boot mark is there. The keys are a person's: wait until the
# screen is drawn (its Cancel button comes last), then arrows, Space, F12.
FIRSTBOOT_STEPS=
[ -x "$TOP/firstboot/seinstall-firstboot" ] && FIRSTBOOT_STEPS=1

# first_boot_steps N-DOWNS [CONFIRM]: serial.py steps choosing the mode N-DOWNS below the
# current one; CONFIRM answers the warning Disabled shows before it applies.
first_boot_steps() {
        echo "expect 400 firstboot-screen SELinux on this system"
        echo "expect 60 firstboot-drawn Cancel"
        echo "sleep 2"
        for _ in $(seq "$1"); do
                echo "key down"
                echo "sleep 1"
        done
        echo "key space"
        echo "sleep 1"
        echo "key f12"
        if [ -n "${2:-}" ]; then
                echo "expect 60 firstboot-warning full relabel"
                echo "sleep 1"
                echo "key enter"
        fi
}

scenario_first_boot() {
        if [ -z "$FIRSTBOOT_STEPS" ]; then
                SKIP_REASON="seinstall-firstboot is not on main yet"
                return
        fi
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet: no installed disk to boot"
                return
        fi
        if [ "$GOOD_DONE" != 1 ]; then
                bad "the good scenario did not get to the first boot: nothing to continue from"
                return
        fi
        local L cmdline
        # The good scenario's boot showed the screen and chose Permissive with Down, Space, F12.
        L=$LOGDIR/good-boot.log
        if grep -q '^step firstboot-drawn' <<<"$GOOD_STEPS"; then
                ok "the first-boot screen appeared on the serial console during the first boot ($(echo "$GOOD_STEPS" | awk '$2 == "firstboot-screen" { print $3 }') s after power-on)"
        else
                bad "the first-boot screen never appeared on the serial console"
        fi
        expect_eq "after Down, Space, F12: the config" permissive "$(fact "$L" config-mode)"
        expect_eq "after Down, Space, F12: /sys/fs/selinux/enforce (switched at once)" 0 "$(fact "$L" enforce)"

        # Next boot: permissive from the config. Then the screen again, from the shell: Down
        # (Disabled), Space, F12, and Enter on the warning about enabling it later.
        cmdline=$(disk_cat "$WORK/root.img" /etc/kernel/cmdline | head -n 1)
        {
                echo "expect 600 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 300 facts E2E-FACTS-DONE"
                echo 'send seinstall-firstboot\r'
                first_boot_steps 1 confirm
                echo "expect 60 shell root@e2e-target:~#"
                echo 'send sync; poweroff -ff\r'
                echo "exit 60"
        } >"$WORK/fb-permissive.script"
        boot fb-permissive "$WORK/fb-permissive.script" "$cmdline" \
                "$WORK/root.img" "$WORK/efi.img" "$WORK/home.img" ||
                { bad "the second boot (permissive) did not finish (see above)"; return; }
        L=$LOGDIR/fb-permissive.log
        echo "  booted to the login shell in $(step_time login) s"
        expect_eq "second boot: /proc/cmdline is the disk's" "$cmdline" "$(fact "$L" cmdline)"
        expect_eq "second boot: /sys/fs/selinux/enforce" 0 "$(fact "$L" enforce)"
        expect_eq "second boot: the config" permissive "$(fact "$L" config-mode)"
        expect_eq "second boot: pid 1 runs as" system_u:system_r:init_t:s0 "$(fact "$L" pid1)"
        judge_avcs "$L"

        cmdline=$(disk_cat "$WORK/root.img" /etc/kernel/cmdline | head -n 1)
        expect_match "after choosing Disabled: the kernel command line" "(^| )selinux=0( |$)" "$cmdline"
        expect_nomatch "after choosing Disabled: the kernel command line" "(^| )security=selinux( |$)" "$cmdline"
        target_script "$WORK/fb-disabled.script"
        boot fb-disabled "$WORK/fb-disabled.script" "$cmdline" \
                "$WORK/root.img" "$WORK/efi.img" "$WORK/home.img" ||
                { bad "the third boot (disabled) did not finish (see above)"; return; }
        L=$LOGDIR/fb-disabled.log
        echo "  booted to the login shell in $(step_time login) s"
        expect_eq "third boot: /proc/cmdline is the disk's" "$cmdline" "$(fact "$L" cmdline)"
        expect_eq "third boot: /sys/fs/selinux/enforce (SELinux off)" absent "$(fact "$L" enforce)"
        expect_nomatch "third boot: active LSMs" "selinux" "$(fact "$L" lsm)"
        expect_eq "third boot: the config" disabled "$(fact "$L" config-mode)"
}
