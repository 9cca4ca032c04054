# Sourced by qemu/e2e.sh: the scenarios. Each one boots what it needs, then notes every fact
# it verified with `ok` and every one that did not hold with `bad`; SKIP_REASON when the
# seinstall piece it drives is not built yet.

# ---- disks ---------------------------------------------------------------------------------
# overlay NAME [BACKING]: a copy-on-write qcow2 disk $WORK/NAME.qcow2 over the base target disk
# (or over another overlay); prints its path. Creating one is instant, and the base stays as
# target_disk made it for every scenario.
overlay() {
        local back=${2:-$BASE} fmt=raw
        case $back in *.qcow2) fmt=qcow2 ;; esac
        rm -f "$WORK/$1.qcow2"
        qemu-img create -q -f qcow2 -b "$back" -F $fmt "$WORK/$1.qcow2" >/dev/null || return 1
        echo "$WORK/$1.qcow2"
}

# blank: a small empty disk, vdb where a scenario has no /home: the target's fstab mounts vdb
# (nofail), and a disk that is there but blank fails at once instead of after udev's timeout.
blank() {
        [ -e "$WORK/blank.img" ] || truncate -s 16M "$WORK/blank.img"
        echo "$WORK/blank.img:ro"
}

# ---- host-side looks at an installed disk (after the guest powered off) ---------------------
# inspect DISK: mount the root partition (3) of an installed disk read-only at $WORK/inspect;
# a qcow2 overlay is flattened to raw first. uninspect undoes it.
inspect() {
        local raw=$1
        uninspect
        case $1 in *.qcow2)
                raw=$WORK/inspect.raw
                qemu-img convert -f qcow2 -O raw "$1" "$raw" || return 1
                ;;
        esac
        mkdir -p "$WORK/inspect"
        # Mounted read-write first, then read-only: the guest ends with poweroff -ff, and its
        # last writes (a rename after sync) may still be only in the journal. Mounting replays
        # it into the image, as the next boot would; noload would show a half-written state (an
        # empty /etc/kernel/cmdline once, so the next boot had no console), and a read-only loop
        # device cannot be recovered.
        mount -o loop,offset=$ROOT_OFFSET -t ext4 "$raw" "$WORK/inspect" || return 1
        mount -o remount,ro "$WORK/inspect" || { umount "$WORK/inspect"; return 1; }
}
uninspect() {
        if mountpoint -q "$WORK/inspect" 2>/dev/null; then
                findmnt -rn -o TARGET -R "$WORK/inspect" | sort -r | xargs -r umount
        fi
        rm -f "$WORK/inspect.raw"
}

# disk_cat DISK PATH: a file of an installed disk's root.
disk_cat() {
        inspect "$1" >/dev/null 2>&1 || return 1
        cat "$WORK/inspect$2" 2>/dev/null
        uninspect
}

# disk_cmdline DISK: the first line of an installed disk's /etc/kernel/cmdline, the command
# line its next boot gets; fails when there is none (an empty one would boot with no console).
disk_cmdline() {
        local c
        c=$(disk_cat "$1" /etc/kernel/cmdline | head -n 1)
        [ -n "$c" ] || return 1
        printf '%s\n' "$c"
}

# mislabeled DISK HOMEIMG: files of the installed ext4 root and xfs /home whose label is not
# what the target's own file contexts say, as `setfiles -F -n -v` (which changes nothing) lists
# them, mounted read-only on the host. /boot/efi is vfat, which this host kernel may not mount,
# and a single-label filesystem anyway: excluded.
mislabeled() {
        local mnt=$WORK/inspect fc
        inspect "$1" || return 1
        if [ -n "${2:-}" ]; then
                mount -o ro,loop,norecovery -t xfs "$2" "$mnt/home" || { uninspect; return 1; }
        fi
        fc=$mnt/etc/selinux/default/contexts/files/file_contexts
        setfiles -F -n -v -r "$mnt" -e "$mnt/boot/efi" "$fc" "$mnt" 2>&1 | sed "s|$mnt||g"
        uninspect
}

# dump_labels DIR: "label path" of every file of the filesystem at DIR, sorted by path.
dump_labels() {
        (cd "$1" && getfattr -R -h -P -n security.selinux --absolute-names . 2>/dev/null) |
                awk '/^# file: / { f = substr($0, 9); next }
                     /^security.selinux=/ { v = substr($0, 19); gsub(/"/, "", v); print f "\t" v }' |
                LC_ALL=C sort
}

# ---- AVC denials ---------------------------------------------------------------------------
# qemu/denials.list documents the denials a correctly labeled Debian 12 root still logs under
# Debian's own policy (its bugs, not seinstall's), one per line with its cause. judge_avcs prints
# every denial of a boot with its cause and fails any denial that is not on the list: a new one
# is what a wrong label (or a new bug) looks like.
DENIALS_LIST=$E2E_DIR/denials.list

# avc_key LINE: "comm permission source-type target-type class" of one E2E-AVC line.
avc_key() {
        printf '%s\n' "$1" | awk '{
                perm = ""; comm = "-"; s = ""; t = ""; c = ""
                if (match($0, /\{ [^}]* \}/)) perm = substr($0, RSTART + 2, RLENGTH - 4)
                gsub(/ /, ",", perm)
                for (i = 1; i <= NF; i++) {
                        if ($i ~ /^comm=/) { comm = substr($i, 6); gsub(/"/, "", comm) }
                        if ($i ~ /^scontext=/) { split(substr($i, 10), a, ":"); s = a[3] }
                        if ($i ~ /^tcontext=/) { split(substr($i, 10), a, ":"); t = a[3] }
                        if ($i ~ /^tclass=/) c = substr($i, 8)
                }
                print comm, perm, s, t, c }'
}

# avc_cause KEY: the documented cause of a denial, empty when it is not on the list. A list
# line is "comm permission source-type target-type class | cause"; a field matches any of its
# "/"-separated values, "*" matches anything.
avc_cause() {
        awk -v key="$1" -F' [|] ' '
                /^#/ || NF < 2 { next }
                { n = split(key, k, " "); m = split($1, l, " "); ok = (n == m)
                  for (i = 1; ok && i <= n; i++) {
                          if (l[i] == "*") continue
                          na = split(l[i], alt, "/"); hit = 0
                          for (j = 1; j <= na; j++) if (alt[j] == k[i]) hit = 1
                          ok = hit
                  }
                  if (ok) { print $2; exit } }' "$DENIALS_LIST"
}

# judge_avcs LOG: every AVC denial of a boot of a correctly labeled target with its cause; a
# denial not on qemu/denials.list fails, and so does any on unlabeled_t, file_t or default_t
# objects or by the init (a bad install's: docs/design.md, "Judging denials"), listed or not.
judge_avcs() {
        local avcs line key cause n=0 unknown=0
        avcs=$(tr -d '\r' <"$1" | sed -n 's/^E2E-AVC //p')
        while IFS= read -r line; do
                [ -n "$line" ] || continue
                n=$((n + 1))
                key=$(avc_key "$line")
                cause=$(avc_cause "$key")
                if printf '%s' "$key" | grep -Eq ' (unlabeled_t|file_t|default_t|init_t|init_exec_t) '; then
                        bad "a denial a bad install causes: $key"
                        echo "      $line"
                elif [ -n "$cause" ]; then
                        echo "  denial (listed): $key -- $cause"
                else
                        unknown=$((unknown + 1))
                        bad "a denial not on qemu/denials.list: $key"
                        echo "      $line"
                fi
        done <<<"$avcs"
        [ $unknown = 0 ] && ok "every AVC denial of this boot is on qemu/denials.list ($n in all)"
}

# same_policy DISK LOG: the policy the kernel had loaded (e2e-facts copied it) is the target's
# policy file: checkpolicy turns both binaries into CIL, which must be identical.
same_policy() {
        local file mnt=$WORK/inspect
        file=$(fact "$2" policy-file)
        inspect "$1" || { bad "cannot mount the installed root on the host"; return; }
        cp "$mnt/var/lib/e2e-loaded-policy" "$WORK/loaded.bin" 2>/dev/null
        cp "$mnt$file" "$WORK/file.bin" 2>/dev/null
        uninspect
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
                echo "expect 900 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 400 facts E2E-FACTS-DONE"
                echo 'send sync; poweroff -ff\r'
                echo "exit 120"
        } >"$1"
}

# enforcing_facts LOG WHAT: the facts every enforcing boot of a good install must show.
enforcing_facts() {
        local L=$1 w=$2 t
        expect_eq "$w: /sys/fs/selinux/enforce" 1 "$(fact "$L" enforce)"
        expect_eq "$w: pid 1 runs as" system_u:system_r:init_t:s0 "$(fact "$L" pid1)"
        t=$(fact "$L" init-path)
        expect_eq "$w: label of $t (the init)" system_u:object_r:init_exec_t:s0 "$(fact "$L" "label:$t")"
        expect_eq "$w: label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(fact "$L" label:/etc/shadow)"
        expect_match "$w: systemd reached" "^(running|degraded)$" "$(fact "$L" state)"
        [ -n "$(fact "$L" failed-units)" ] && echo "  note: failed units: $(fact "$L" failed-units)"
}

# ---- seed: / on ReiserFS ---------------------------------------------------------------------
# The seed's story, both ways. Counterfactual: the ReiserFS root installed the naive way (files
# labeled as setfiles labels them, SELINUX=enforcing, security=selinux) and booted: every file
# reads nfs_t, and the boot drowns in denials. Fixed: seinstall refuses that layout; with
# unsupported=warn it installs permissive, and the booted system says why.
scenario_seed() {
        if piece_missing check; then
                SKIP_REASON="seinstall check is not on main yet (still the placeholder)"
                return
        fi
        local install=0 L json cmdline n
        piece_missing install || install=1
        rm -f "$WORK/seed.img" "$WORK/naive.img"
        truncate -s 1G "$WORK/seed.img"
        boot seed "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=seed e2e.install=$install" \
                "$BASE:ro" "$WORK/seed.img" || { bad "the installer run did not finish"; return; }
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

        # The same copied root twice: vdb gets seinstall with unsupported=warn, vdc the naive way.
        cp --sparse=always "$WORK/seed.img" "$WORK/naive.img"
        boot seed-warn "$(installer_script)" \
                "$INSTALLER_APPEND e2e.scenario=seed-warn seinstall.unsupported=warn" \
                "$BASE:ro" "$WORK/seed.img" "$WORK/naive.img" ||
                { bad "the installer run with seinstall.unsupported=warn did not finish"; return; }
        L=$LOGDIR/seed-warn.log
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "install with seinstall.unsupported=warn: exit status" 0 "$(fact "$L" install-rc)"
        expect_match "the target's config" "SELINUX=permissive" "$(fact "$L" config)"
        expect_match "install says it went permissive" "permissive" \
                "$(between "$L" "E2E-BEGIN install" "E2E-END install")"
        expect_match "install says why (reiserfs labels every file nfs_t)" "nfs_t|reiserfs" \
                "$(between "$L" "E2E-BEGIN install" "E2E-END install")"
        echo "  install said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | sed 's/^/      | /'
        if [ "$(fact "$L" naive-relabel-rc)" = 0 ]; then
                echo "  the naive install's labels: seinstall relabel (setfiles -F's labels)"
        else
                echo "  the naive install's labels: setfiles -F (exit status $(fact "$L" naive-setfiles-rc))"
        fi
        expect_eq "the naive install: label written on /etc/shadow" \
                system_u:object_r:shadow_t:s0 "$(fact "$L" naive-label:/etc/shadow)"

        # Counterfactual: the naive root booted enforcing. What the seed saw: with the policy
        # loaded every file reads nfs_t, the init cannot start what it should.
        cmdline=$(fact "$L" naive-cmdline)
        cat >"$WORK/naive.script" <<'EOF'
expect 300 policy-loaded SELinux: +policy capability
expect 300 first-nfs-denial avc: +denied .*tcontext=system_u:object_r:nfs_t
sleep 90
EOF
        boot seed-naive "$WORK/naive.script" "$cmdline" "$WORK/naive.img"
        L=$LOGDIR/seed-naive.log
        n=$(tr -d '\r' <"$L" | grep -c 'avc: *denied.*tcontext=system_u:object_r:nfs_t')
        if [ "$n" -gt 0 ]; then
                ok "the naive ReiserFS root booted enforcing logs $n denials on files that read nfs_t, e.g.:"
                tr -d '\r' <"$L" | grep -o 'avc: *denied.*tcontext=system_u:object_r:nfs_t.*' |
                        sed -e 's/ pid=[0-9]*//' -e 's/ ino=[0-9]*//' | sort | uniq -c | sort -rn |
                        head -n 8 | sed 's/^/      /'
        else
                bad "the naive ReiserFS root booted enforcing shows no denial on nfs_t"
        fi
        if tr -d '\r' <"$L" | grep -q 'root@e2e-target:~#'; then
                echo "  note: the naive root still reached a shell"
        else
                ok "the naive root never reached its login shell in 90 s after the first denial"
        fi
        echo "  what failed on its console:"
        tr -d '\r' <"$L" | sed 's/\x1b\[[0-9;]*m//g' | grep -E 'FAILED|Failed to|Freezing|rror' |
                head -n 12 | sed 's/^/      | /'

        # Fixed: seinstall's permissive install boots, and says why it is permissive. The
        # install could not label the ReiserFS root and left /.autorelabel: on the first boot
        # seinstall-relabel.service refuses the root on the console, saying why, then the
        # distribution's fixfiles runs anyway (its fallback) and reboots.
        cmdline=$(fact "$LOGDIR/seed-warn.log" kernel-cmdline)
        printf '%s\n' "expect 900 why seinstall: The target root / is on reiserfs" "exit 2400" \
                >"$WORK/warn-first.script"
        if boot seed-warn-first "$WORK/warn-first.script" "$cmdline" "$WORK/seed.img"; then
                ok "the first boot's console says why: $(tr -d '\r' <"$LOGDIR/seed-warn-first.log" |
                        grep -o 'seinstall: The target root / is on reiserfs.*' | head -n 1 | cut -c1-160)..."
                grep -q 'Relabeling could take' "$LOGDIR/seed-warn-first.log" &&
                        echo "  note: Debian's fixfiles relabel then ran over the nfs_t root and rebooted ($(step_time why) s to the refusal, $(step_time exit) s to the reboot)"
        else
                bad "the first boot of the permissive ReiserFS root did not say why or did not reboot"
        fi
        # The first-boot screen comes first: accept what the install chose (F12) rather than
        # wait out its 300 s timeout.
        : >"$WORK/warn.script"
        if [ -n "$FIRSTBOOT_STEPS" ]; then first_boot_steps 0 >"$WORK/warn.script"; fi
        cat >>"$WORK/warn.script" <<'EOF'
expect 900 login root@e2e-target:~#
send e2e-facts\r
expect 400 facts E2E-FACTS-DONE
send printf 'E2E-CHECK-%s\\n' BEGIN; seinstall check; printf 'E2E-CHECK-%s\\n' END\r
expect 120 check \nE2E-CHECK-END
send sync; poweroff -ff\r
exit 120
EOF
        boot seed-warn-boot "$WORK/warn.script" "$cmdline" "$WORK/seed.img" ||
                { bad "the permissive ReiserFS root did not boot to its shell"; return; }
        L=$LOGDIR/seed-warn-boot.log
        expect_eq "the ReiserFS root seinstall installed: /sys/fs/selinux/enforce" 0 "$(fact "$L" enforce)"
        expect_eq "its config" permissive "$(fact "$L" config-mode)"
        expect_eq "its pid 1 (the policy is loaded, permissive)" system_u:system_r:kernel_t:s0 \
                "$(fact "$L" pid1)"
        # Between markers the command itself prints (the typed line holds "E2E-CHECK-%s", never
        # the marker): the echo of a typed line races the prompt (typed ahead, the tty echoes it
        # before bash prints its prompt), its output does not. bash switches bracketed paste
        # off (ESC [?2004l) right before the command's first byte.
        json=$(tr -d '\r' <"$L" | sed 's/\x1b\[?2004[hl]//g' |
                sed -n '/^E2E-CHECK-BEGIN$/,/^E2E-CHECK-END$/p')
        expect_match "seinstall check on its console says why" "nfs_t" "$json"
        echo "  its console, seinstall check:"
        printf '%s\n' "$json" | sed 's/^/      | /'
}

# ---- good: ext4 /, vfat /boot/efi, xfs /home, enforcing ------------------------------------------
GOOD_DONE=0 GOOD_STEPS=
scenario_good() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        local L cmdline lines fbsteps= root
        root=$(overlay good) || { bad "qemu-img create failed"; return; }
        rm -f "$WORK/home.img"
        truncate -s 320M "$WORK/home.img"
        boot good-install "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=good" \
                "$root" "$WORK/home.img" ||
                { bad "the installer run did not finish"; return; }
        L=$LOGDIR/good-install.log
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "before install: /etc/shadow on the target disk has no label" none "$(fact "$L" before:/etc/shadow)"
        expect_eq "seinstall check on the mounted target: exit status" 0 "$(fact "$L" check-rc)"
        expect_eq "seinstall install --profile (selinux --enforcing): exit status" 0 "$(fact "$L" install-rc)"
        echo "  seinstall install took $(fact "$L" install-seconds) s in the guest; it said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | tail -n 15 | sed 's/^/      | /'
        expect_eq "the target's config" "SELINUX=enforcing SELINUXTYPE=default " "$(fact "$L" config)"
        expect_eq "label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(fact "$L" label:/etc/shadow)"
        expect_eq "label of /home/e2e/notes.txt (xfs)" unconfined_u:object_r:user_home_t:s0 \
                "$(fact "$L" label:/home/e2e/notes.txt)"
        expect_eq "a relabel at first boot is not needed" "" "$(fact "$L" autorelabel)"

        cmdline=$(fact "$L" kernel-cmdline)
        expect_match "the kernel command line seinstall wrote" "(^| )security=selinux( |$)" "$cmdline"
        expect_nomatch "the kernel command line seinstall wrote" "(^| )(enforcing=0|selinux=0)( |$)" "$cmdline"
        expect_match "the kernel command line keeps the installer's root= and console" \
                "root=/dev/vda3 .*console=ttyS0" "$cmdline"
        lines=$(mislabeled "$root" "$WORK/home.img")
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
        boot good-boot "$WORK/good.script" "$cmdline" "$root" "$WORK/home.img" ||
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
        same_policy "$root" "$L"
        judge_avcs "$L"
        GOOD_DONE=1
}

# ---- first boot: the screen on the serial console --------------------------------------------
# seinstall-firstboot.service shows the screen on /dev/console (the serial line) before the
# login prompt when the first-boot mark is there. The keys are a person's: wait until the
# screen is drawn (its Cancel button comes last), then arrows, Space, F12.
FIRSTBOOT_STEPS=
[ -x "$TOP/${SEINSTALL_BUILD:-build}/bin/seinstall-firstboot" ] && FIRSTBOOT_STEPS=1

# first_boot_steps N-MOVES [CONFIRM] [KEY]: serial.py steps choosing the mode N-MOVES below the
# current one (KEY up: above); CONFIRM answers the warning (Disabled) or the explanation
# (enabling from Disabled) shown before the choice applies: Apply, left of Back.
first_boot_steps() {
        echo "expect 900 firstboot-screen SELinux on this system"
        echo "expect 60 firstboot-drawn Cancel"
        echo "sleep 2"
        for _ in $(seq "$1"); do
                echo "key ${3:-down}"
                echo "sleep 1"
        done
        [ "$1" -gt 0 ] && echo "key space" && echo "sleep 1"
        echo "key f12"
        if [ -n "${2:-}" ]; then
                echo "expect 60 firstboot-confirm $2"
                echo "sleep 1"
                # the focus starts on Back, the button that changes nothing
                echo "key left"
                echo "sleep 1"
                echo "key enter"
        fi
}

# relabel_steps: serial.py steps for a boot that runs seinstall-relabel.service: its progress
# line with an ETA on the console, its summary, and the reboot after it.
relabel_steps() {
        echo "expect 900 relabel-progress seinstall: relabel: [0-9]+ of ~[0-9]+ entries, [0-9]+/s, ~[0-9]+s left"
        echo "expect 1200 relabel-done relabel: [0-9]+ entries, [0-9]+ changed"
        echo "exit 300"
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
        local L cmdline t root=$WORK/good.qcow2
        # The good scenario's boot showed the screen and chose Permissive with Down, Space, F12.
        L=$LOGDIR/good-boot.log
        if grep -q '^step firstboot-drawn' <<<"$GOOD_STEPS"; then
                ok "the first-boot screen appeared on the serial console during the first boot ($(echo "$GOOD_STEPS" | awk '$2 == "firstboot-screen" { print $3 }') s after power-on)"
        else
                bad "the first-boot screen never appeared on the serial console"
        fi
        expect_eq "enforcing -> permissive (Down, Space, F12): the config" permissive "$(fact "$L" config-mode)"
        expect_eq "enforcing -> permissive: /sys/fs/selinux/enforce (switched at once)" 0 "$(fact "$L" enforce)"

        # Next boot: permissive from the config. Then the screen again, from the shell: Down
        # (Disabled), Space, F12, and Enter on the warning about enabling it later. Applying
        # runs update-grub in the target (the GRUB defaults change): minutes under TCG.
        cmdline=$(disk_cmdline "$root") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        {
                echo "expect 900 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 400 facts E2E-FACTS-DONE"
                echo 'send seinstall-firstboot\r'
                first_boot_steps 1 "Before applying"
                echo "expect 900 shell root@e2e-target:~#"
                echo 'send sync; poweroff -ff\r'
                echo "exit 120"
        } >"$WORK/fb-permissive.script"
        boot fb-permissive "$WORK/fb-permissive.script" "$cmdline" "$root" "$WORK/home.img" ||
                { bad "the second boot (permissive) did not finish (see above)"; return; }
        L=$LOGDIR/fb-permissive.log
        echo "  booted to the login shell in $(step_time login) s"
        expect_eq "permissive stays across the reboot: /proc/cmdline is the disk's" "$cmdline" "$(fact "$L" cmdline)"
        expect_eq "permissive stays across the reboot: /sys/fs/selinux/enforce" 0 "$(fact "$L" enforce)"
        expect_eq "permissive stays across the reboot: the config" permissive "$(fact "$L" config-mode)"
        expect_eq "second boot: pid 1 runs as" system_u:system_r:init_t:s0 "$(fact "$L" pid1)"
        judge_avcs "$L"

        cmdline=$(disk_cmdline "$root") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        expect_nomatch "after choosing Disabled: the kernel command line" "(^| )security=selinux( |$)" "$cmdline"
        # Third boot: SELinux off. From the shell, the screen: Up, Up (Enforcing), Space, F12,
        # Enter on the explanation (a full relabel, then a reboot).
        {
                echo "expect 900 login root@e2e-target:~#"
                echo 'send e2e-facts\r'
                echo "expect 400 facts E2E-FACTS-DONE"
                echo 'send seinstall-firstboot\r'
                first_boot_steps 2 "Before applying" up
                echo "expect 900 shell root@e2e-target:~#"
                echo 'send ls /.autorelabel /etc/selinux/.autorelabel; sync; poweroff -ff\r'
                echo "exit 120"
        } >"$WORK/fb-disabled.script"
        boot fb-disabled "$WORK/fb-disabled.script" "$cmdline" "$root" "$WORK/home.img" ||
                { bad "the third boot (disabled) did not finish (see above)"; return; }
        L=$LOGDIR/fb-disabled.log
        echo "  booted to the login shell in $(step_time login) s"
        expect_eq "third boot: /proc/cmdline is the disk's" "$cmdline" "$(fact "$L" cmdline)"
        expect_eq "third boot: /sys/fs/selinux/enforce (SELinux off)" absent "$(fact "$L" enforce)"
        expect_nomatch "third boot: active LSMs" "selinux" "$(fact "$L" lsm)"
        expect_eq "third boot: the config" disabled "$(fact "$L" config-mode)"

        # Disabled -> Enforcing scheduled a relabel: the next boot relabels and reboots.
        cmdline=$(disk_cmdline "$root") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        expect_match "after choosing Enforcing: the kernel command line" "(^| )security=selinux( |$)" "$cmdline"
        expect_match "after choosing Enforcing: a relabel is scheduled" "^/(etc/selinux/)?\.autorelabel" \
                "$(tr -d '\r' <"$L" | grep -E '^/(etc/selinux/)?\.autorelabel' | head -n 1)"
        # The screen's own words: "SELINUX=permissive in /etc/selinux/config until the relabel
        # is done". With the config left at disabled no policy loads, and no relabel can run.
        t=$(disk_cat "$root" /etc/selinux/config | sed -n 's/^SELINUX=//p')
        if [ "$t" != permissive ]; then
                bad "after choosing Enforcing from Disabled: /etc/selinux/config says SELINUX=$t, not permissive: no policy loads at the next boot, so the scheduled relabel can never run"
                return
        fi
        ok "after choosing Enforcing: SELINUX=permissive until the relabel"
        relabel_steps >"$WORK/fb-relabel.script"
        boot fb-relabel "$WORK/fb-relabel.script" "$cmdline" "$root" "$WORK/home.img" ||
                { bad "the relabel boot did not relabel and reboot (see above)"; return; }
        ok "the boot after choosing Enforcing relabeled with progress and an ETA on the console ($(step_time relabel-done) s after power-on), then rebooted"

        # The boot after the relabel: enforcing, the screen comes back to finish the choice.
        cmdline=$(disk_cmdline "$root") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        fbsteps=$WORK/fb-finish.steps
        first_boot_steps 0 >"$fbsteps"
        target_script "$WORK/fb-enforcing.script" "$fbsteps"
        boot fb-enforcing "$WORK/fb-enforcing.script" "$cmdline" "$root" "$WORK/home.img" ||
                { bad "the boot after the relabel did not reach its shell"; return; }
        L=$LOGDIR/fb-enforcing.log
        expect_eq "after the relabel: the config" enforcing "$(fact "$L" config-mode)"
        enforcing_facts "$L" "after the relabel"
        judge_avcs "$L"

        # That enforcing stays across the next reboot is the relabel scenario's last boot: the
        # same first-boot screen and library calls, one boot less here.
}

# ---- grub: the disk boots through GRUB, BIOS ------------------------------------------------
# One install for "grub" and "uefi": the partitioned disk gets GRUB for BIOS and UEFI and a
# systemd-boot layout from inside the target (qemu/guest/grub.sh), then seinstall install
# --regenerate. Booted with no -kernel: the firmware finds the boot loader on the disk.
GRUB_DISK=
grub_installed() {
        [ -n "$GRUB_DISK" ] && return 0
        local d
        d=$(overlay grub) || return 1
        boot grub-install "$(installer_script 1200)" "$INSTALLER_APPEND e2e.scenario=grub" "$d" ||
                return 1
        GRUB_DISK=$d
}

# grub_expected: the /proc/cmdline GRUB's first menu entry gives its kernel: the linux line of
# the grub.cfg update-grub wrote, its path as BOOT_IMAGE=.
grub_expected() {
        fact "$LOGDIR/grub-install.log" grub-cfg-linux | sed 's/^linux[[:space:]]*/BOOT_IMAGE=/'
}

# check_grub_install: what the installer run did, once per run of e2e.sh.
GRUB_CHECKED=0
check_grub_install() {
        local L=$LOGDIR/grub-install.log gcl gcld line json
        [ $GRUB_CHECKED = 1 ] && return
        GRUB_CHECKED=1
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "grub-install --target=i386-pc in the target: exit status" 0 "$(fact "$L" grub-install-bios-rc)"
        expect_eq "grub-install --target=x86_64-efi --removable in the target: exit status" 0 \
                "$(fact "$L" grub-install-efi-rc)"
        expect_eq "seinstall check on the mounted layout: exit status" 0 "$(fact "$L" check-rc)"
        json=$(between "$L" "E2E-BEGIN check-json" "E2E-END check-json")
        expect_eq "seinstall check --json, the ESP (mount, fstype, labeling, label, verdict)" \
                "/boot/efi vfat genfs dosfs_t ok" "$(printf '%s' "$json" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
m = [m for m in d["mounts"] if m["mountpoint"] == "/boot/efi"][0]
print(m["mountpoint"], m["fstype"], m["labeling"], m["label"].split(":")[2], m["verdict"])' 2>&1)"
        expect_eq "seinstall install --regenerate: exit status" 0 "$(fact "$L" install-rc)"
        echo "  seinstall install took $(fact "$L" install-seconds) s in the guest; it said:"
        between "$L" "E2E-BEGIN install" "E2E-END install" | tail -n 12 | sed 's/^/      | /'
        expect_eq "the target's config" "SELINUX=enforcing SELINUXTYPE=default " "$(fact "$L" config)"
        gcl=$(fact "$L" grub-cmdline-linux)
        gcld=$(fact "$L" grub-cmdline-linux-default)
        expect_match "GRUB_CMDLINE_LINUX seinstall wrote in /etc/default/grub" "(^| )security=selinux( |$)" "$gcl"
        expect_nomatch "GRUB_CMDLINE_LINUX seinstall wrote" "(^| )(enforcing=0|selinux=0)( |$)" "$gcl $gcld"
        line=$(fact "$L" grub-cfg-linux)
        expect_match "grub.cfg (update-grub run by --regenerate): the first entry's options" \
                " ro $(printf '%s' "$gcl $gcld" | sed 's/[][\.*^$]/\\&/g')\$" "$line"
        # update-grub ran in seinstall's sandbox: its /dev/disk/by-uuid makes GRUB's 10_linux
        # name the root by UUID, as outside, not by the installer's name of the disk.
        expect_match "the root's UUID (blkid in the target)" '^[0-9a-f-]{36}$' \
                "$(fact "$L" root-uuid)"
        expect_match "grub.cfg (update-grub in the sandbox): the root by its UUID" \
                " root=UUID=$(fact "$L" root-uuid) " "$line"
        expect_match "the BLS entry seinstall edited: options" "(^| )security=selinux( |$)" "$(fact "$L" bls-options)"
        expect_eq "label of /boot/grub/grub.cfg (written by update-grub after the relabel)" \
                system_u:object_r:boot_t:s0 "$(fact "$L" label:/boot/grub/grub.cfg)"
        expect_eq "label of /etc/shadow" system_u:object_r:shadow_t:s0 "$(fact "$L" label:/etc/shadow)"
}

# disk_boot NAME HOW DISK WHAT EXPECTED-CMDLINE: boot DISK through its firmware (HOW bios or
# uefi) to the first-boot screen (accepting the install's choice with F12, as a person who
# agrees would) and the shell; check what the running system says.
disk_boot() {
        local name=$1 how=$2 disk=$3 what=$4 want=$5 L got
        first_boot_steps 0 >"$WORK/$name.steps"
        target_script "$WORK/$name.script" "$WORK/$name.steps"
        boot "$name" "$WORK/$name.script" "$how" "$disk" "$(blank)" ||
                { bad "$what did not boot to its shell (see above)"; return 1; }
        L=$LOGDIR/$name.log
        echo "  $what: to the login shell in $(step_time login) s"
        got=$(fact "$L" cmdline)
        # systemd-boot puts the entry's initrd=PATH first: the loader's, not an option of the
        # command line anybody decided.
        [ "${SDBOOT:-0}" = 1 ] && got=${got#initrd=* }
        expect_eq "$what: /proc/cmdline" "$want" "$got"
        expect_match "$what: loaded enforcing from the start (MAC_STATUS)" "enforcing=1 old_enforcing=0" \
                "$(tr -d '\r' <"$L" | grep '^E2E-MODE' | head -n 1)"
        enforcing_facts "$L" "$what"
        judge_avcs "$L"
}

scenario_grub() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        grub_installed || { bad "the boot-loader installer run did not finish"; return; }
        check_grub_install
        local d
        d=$(overlay grub-bios "$GRUB_DISK") || { bad "qemu-img create failed"; return; }
        disk_boot grub-bios bios "$d" "GRUB (BIOS)" "$(grub_expected)"
        expect_match "GRUB (BIOS): /proc/cmdline names the root by UUID" \
                "(^| )root=UUID=$(fact "$LOGDIR/grub-install.log" root-uuid)( |$)" \
                "$(fact "$LOGDIR/grub-bios.log" cmdline)"
        grep -q 'GNU GRUB\|Booting\|Loading Linux' "$LOGDIR/grub-bios.log" &&
                ok "GRUB printed on the serial console: it, not -kernel, started Linux"
}

# ---- uefi: OVMF, GRUB's EFI image and systemd-boot -------------------------------------------
scenario_uefi() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        [ -r "$OVMF" ] || { SKIP_REASON="no $OVMF (make deps installs ovmf)"; return; }
        grub_installed || { bad "the boot-loader installer run did not finish"; return; }
        check_grub_install
        local d raw want
        d=$(overlay uefi-grub "$GRUB_DISK") || { bad "qemu-img create failed"; return; }
        disk_boot uefi-grub uefi "$d" "OVMF, GRUB's EFI image" "$(grub_expected)"

        # systemd-boot: the same disk with systemd-boot in the ESP's removable path (what
        # `bootctl install --no-variables` does), reading the BLS entry seinstall edited.
        raw=$WORK/uefi-sdboot.raw
        qemu-img convert -f qcow2 -O raw "$GRUB_DISK" "$raw" || { bad "qemu-img convert failed"; return; }
        MTOOLS_SKIP_CHECK=1 mcopy -o -i "$raw@@$((ESP_START * 512))" \
                "::/EFI/systemd/systemd-bootx64.efi" "$WORK/sdboot.efi" &&
                MTOOLS_SKIP_CHECK=1 mcopy -o -i "$raw@@$((ESP_START * 512))" \
                        "$WORK/sdboot.efi" "::/EFI/BOOT/BOOTX64.EFI" ||
                { bad "mcopy could not put systemd-boot in the ESP's removable path"; return; }
        want=$(fact "$LOGDIR/grub-install.log" bls-options)
        SDBOOT=1 disk_boot uefi-sdboot uefi "$raw" "OVMF, systemd-boot" "$want"
        grep -q 'systemd-boot\|Boot Loader' "$LOGDIR/uefi-sdboot.log" &&
                ok "systemd-boot's messages are on the console"
        rm -f "$raw"
}

# ---- relabel: --relabel=firstboot, seinstall-relabel.service on a real boot ----------------
# The install leaves the labels to the first boot. That boot relabels every file with its
# progress and an ETA on the console and reboots; the labels it wrote must equal those an
# install-time relabel gives the same disk (host: seinstall relabel on a copy, both dumped with
# getfattr and compared), and setfiles -F -n must find nothing to change. The boot after it
# finishes enforcing from the first-boot screen, and the one after that comes up enforcing.
scenario_relabel() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        local d L cmdline lines n mnt=$WORK/inspect copy=$WORK/relabel-copy
        d=$(overlay relabel) || { bad "qemu-img create failed"; return; }
        boot relabel-install "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=relabel" "$d" "$(blank)" ||
                { bad "the installer run did not finish"; return; }
        L=$LOGDIR/relabel-install.log
        expect_eq "installer errors" "" "$(fact "$L" error)"
        expect_eq "seinstall install (--relabel=firstboot): exit status" 0 "$(fact "$L" install-rc)"
        expect_eq "the target's config until the relabel" "SELINUX=permissive SELINUXTYPE=default " "$(fact "$L" config)"
        expect_match "the relabel mark" "^-F" "$(fact "$L" autorelabel)"
        expect_eq "label of /etc/shadow before the first boot" none "$(fact "$L" label:/etc/shadow)"
        cmdline=$(fact "$L" kernel-cmdline)
        expect_match "the kernel command line" "(^| )security=selinux( |$)" "$cmdline"

        relabel_steps >"$WORK/relabel-boot.script"
        boot relabel-boot "$WORK/relabel-boot.script" "$cmdline" "$d" "$(blank)" ||
                { bad "the first boot did not relabel and reboot (see above)"; return; }
        L=$LOGDIR/relabel-boot.log
        ok "seinstall-relabel.service showed its progress with an ETA on the console: $(tr -d '\r' <"$L" |
                grep -o 'seinstall: relabel: [0-9]* of ~[0-9]* entries[^\x1b]*left' | tail -n 1)"
        RELABEL_SECONDS=$(awk -v a="$(step_time relabel-progress)" -v b="$(step_time relabel-done)" \
                'BEGIN { printf "%.0f", b - a }')
        echo "  the relabel ran ~$RELABEL_SECONDS s (first progress line to summary); it said:"
        tr -d '\r' <"$L" | grep -a 'relabel: [0-9]* entries' | tail -n 1 | sed 's/^/      | /'

        # The labels, against an install-time relabel of the same disk.
        inspect "$d" || { bad "cannot mount the relabeled root on the host"; return; }
        dump_labels "$mnt" >"$WORK/labels.firstboot"
        rm -rf "$copy" && mkdir -p "$copy"
        cp -a "$mnt/." "$copy/" && uninspect
        "$SEINSTALL" relabel --root "$copy" --no-progress >"$WORK/relabel-copy.out" 2>&1 ||
                bad "seinstall relabel of the copy failed: $(tail -n 3 "$WORK/relabel-copy.out")"
        dump_labels "$copy" >"$WORK/labels.install"
        rm -rf "$copy"
        n=$(wc -l <"$WORK/labels.firstboot")
        lines=$(diff "$WORK/labels.install" "$WORK/labels.firstboot" | grep '^[<>]')
        if [ "$n" -lt 1000 ]; then
                bad "only $n labeled files on the relabeled root"
        elif [ -z "$lines" ]; then
                ok "the first-boot relabel's labels equal an install-time relabel's: 0 differences in $n files"
        else
                bad "$(printf '%s\n' "$lines" | awk '{ print $2 }' | sort -u | grep -c .) files' labels differ from an install-time relabel of the same disk (<: install-time, >: first boot), e.g.:"
                printf '%s\n' "$lines" | head -n 10 | sed 's/^/      /'
        fi
        lines=$(mislabeled "$d")
        if printf '%s' "$lines" | grep -q 'Would relabel'; then
                bad "setfiles -F -n finds $(printf '%s\n' "$lines" | grep -c 'Would relabel') files to relabel after the first boot, e.g.:"
                printf '%s\n' "$lines" | grep 'Would relabel' | head -n 10 | sed 's/^/      /'
        else
                ok "setfiles -F -n after the first-boot relabel: every file has its file-contexts label"
        fi

        cmdline=$(disk_cmdline "$d") ||
                { bad "could not read /etc/kernel/cmdline from the installed disk"; return; }
        first_boot_steps 0 >"$WORK/relabel-finish.steps"
        target_script "$WORK/relabel-after.script" "$WORK/relabel-finish.steps"
        boot relabel-after "$WORK/relabel-after.script" "$cmdline" "$d" "$(blank)" ||
                { bad "the boot after the relabel did not reach its shell"; return; }
        L=$LOGDIR/relabel-after.log
        expect_eq "after the relabel and the first-boot screen: the config" enforcing "$(fact "$L" config-mode)"
        enforcing_facts "$L" "after the relabel"
        judge_avcs "$L"
        target_script "$WORK/relabel-again.script"
        boot relabel-again "$WORK/relabel-again.script" "$cmdline" "$d" "$(blank)" ||
                { bad "the next boot did not reach its shell"; return; }
        L=$LOGDIR/relabel-again.log
        expect_eq "the next boot: loaded enforcing (MAC_STATUS)" "E2E-MODE enforcing=1 old_enforcing=0" \
                "$(tr -d '\r' <"$L" | grep '^E2E-MODE' | head -n 1)"
        enforcing_facts "$L" "the next boot"
}

# ---- bench-firstboot: seinstall's first-boot relabel against Debian's (make bench) ----------
# Not in make check. The same unlabeled Debian 12 image twice: installed by seinstall with
# --relabel=firstboot (seinstall-relabel.service), and as selinux-activate (selinux-basics)
# leaves it, with nothing of seinstall's first boot in it (policycoreutils'
# selinux-autorelabel.target: fixfiles restore). Both boots are timed on the serial console
# the same way: from QEMU's start (the kernel starts within a second of it: -kernel, no
# firmware menu) to the reboot the relabel ends with (QEMU runs with -no-reboot and exits
# there), and from the relabel unit's "Starting" line (systemd.show_status=1) to that reboot.
# seinstall's boot is split further: its one relabel run (the live tree, then what the mounts
# hide, --under-mounts) and the rest. The labels both left are compared with each other and with an
# install-time relabel of the same image (seinstall relabel on the host, on a copy of the
# installed, not yet booted root).

# bench_count DISK OUT: the entries of a disk's root filesystem, and into OUT its labels
# (dump_labels); prints "entries labeled".
bench_count() {
        local n
        inspect "$1" || return 1
        n=$(find "$WORK/inspect" -xdev | wc -l)
        dump_labels "$WORK/inspect" >"$2"
        uninspect
        echo "$n $(wc -l <"$2")"
}

# bench_compare A B: how two label dumps agree: "same differ only-in-A only-in-B" on stdout;
# the differing entries ("path A-label B-label") in $WORK/bench.differ.
bench_compare() {
        LC_ALL=C join -t "$(printf '\t')" "$1" "$2" | awk -F'\t' '$2 != $3' >"$WORK/bench.differ"
        echo "$(LC_ALL=C join -t "$(printf '\t')" "$1" "$2" | awk -F'\t' '$2 == $3' | wc -l)" \
                "$(wc -l <"$WORK/bench.differ")" \
                "$(LC_ALL=C join -t "$(printf '\t')" -v 1 "$1" "$2" | wc -l)" \
                "$(LC_ALL=C join -t "$(printf '\t')" -v 2 "$1" "$2" | wc -l)"
}

# bench_report WHAT A B: one line saying how two label dumps agree, with examples.
bench_report() {
        local same differ only1 only2
        read -r same differ only1 only2 < <(bench_compare "$2" "$3")
        echo "  labels, $1: $same entries agree, $differ differ, $only1 only in the first, $only2 only in the second"
        head -n 5 "$WORK/bench.differ" | sed 's/^/      differ: /'
        LC_ALL=C join -t "$(printf '\t')" -v 1 "$2" "$3" | head -n 3 | sed 's/^/      only in the first: /'
        LC_ALL=C join -t "$(printf '\t')" -v 2 "$2" "$3" | head -n 3 | sed 's/^/      only in the second: /'
        BENCH_CMP+=("$1: $same agree, $differ differ, $only1/$only2 only in one")
        [ "$differ" = 0 ]
}

bench_span() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.1f", b - a }'; }
bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 <= 0 || b == "" || b == "-") print "-"; else printf "%.1fx", b / a }'; }

scenario_bench_firstboot() {
        if piece_missing install; then
                SKIP_REASON="seinstall install is not on main yet (still the placeholder)"
                return
        fi
        local d L cmdline n lab n_deb lab_deb ref=$WORK/bench-ref si_unit si_walking si_w1 si_exit
        local deb_unit deb_set deb_walk deb_exit walks
        BENCH_CMP=()

        # Debian's path: the same image as selinux-activate leaves it, no seinstall unit in it.
        d=$(overlay bench-debian) || { bad "qemu-img create failed"; return; }
        boot bench-debian-install "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=debian-relabel" "$d" ||
                { bad "the installer run did not finish"; return; }
        L=$LOGDIR/bench-debian-install.log
        expect_eq "Debian: installer errors" "" "$(fact "$L" error)"
        expect_eq "Debian: seinstall units or drop-in left in the image" "" "$(fact "$L" seinstall-units)"
        expect_eq "Debian: the mark" /target/.autorelabel "$(fact "$L" autorelabel)"
        [ -n "$(fact "$L" selinux-activate)" ] || echo "  note: selinux-basics is not in this target"
        read -r n_deb lab_deb < <(bench_count "$d" "$WORK/labels.deb-before")
        if [ "$lab_deb" -le 20 ]; then
                ok "Debian's image before its first boot: $lab_deb of $n_deb entries carry a label (unlabeled root)"
        else
                bad "Debian's image before its first boot is not unlabeled: $lab_deb of $n_deb entries carry a label"
        fi
        cmdline="$(fact "$L" kernel-cmdline) systemd.show_status=1"
        # The console carries colour codes inside the status line, and systemd shortens it
        # ("selinux-autorelab…e - Relabel all filesystems"): either part is enough. Then
        # fixfiles' own lines: "Relabeling /" after genhomedircon, setfiles' progress to
        # 100.0%, "Cleaning up labels on /tmp", the reboot.
        printf '%s\n' "expect 400 unit Starting.*(selinux-autorelabel\.service|Relabel all filesystems)" \
                "expect 600 setfiles Relabeling /" "expect 7200 walked 100\.0%" \
                "expect 600 cleanup Cleaning up labels" "exit 600" >"$WORK/bench-deb.script"
        boot bench-debian "$WORK/bench-deb.script" "$cmdline" "$d" "$(blank)" ||
                { bad "Debian's relabel boot did not finish"; return; }
        deb_unit=$(step_time unit) deb_set=$(step_time setfiles) deb_walk=$(step_time walked)
        deb_exit=$(step_time exit)
        read -r n_deb lab_deb < <(bench_count "$d" "$WORK/labels.deb")
        ok "Debian's first boot (fixfiles restore) relabeled and rebooted: $lab_deb of $n_deb entries labeled"

        # seinstall's path: installed with --relabel=firstboot, which writes no label.
        d=$(overlay bench-seinstall) || { bad "qemu-img create failed"; return; }
        boot bench-seinstall-install "$(installer_script)" "$INSTALLER_APPEND e2e.scenario=relabel" "$d" ||
                { bad "the installer run did not finish"; return; }
        L=$LOGDIR/bench-seinstall-install.log
        expect_eq "seinstall: installer errors" "" "$(fact "$L" error)"
        expect_eq "seinstall install (--relabel=firstboot): exit status" 0 "$(fact "$L" install-rc)"
        read -r n lab < <(bench_count "$d" "$WORK/labels.before") || { bad "cannot mount the installed root"; return; }
        if [ "$lab" -le 20 ]; then
                ok "seinstall's image before its first boot: $lab of $n entries carry a label (unlabeled root)"
        else
                bad "seinstall's image before its first boot is not unlabeled: $lab of $n entries carry a label"
        fi
        # The install-time relabel of the same image: the reference both first boots must meet.
        inspect "$d" || { bad "cannot mount the installed root on the host"; return; }
        rm -rf "$ref" && mkdir -p "$ref" && cp -a "$WORK/inspect/." "$ref/"
        uninspect
        "$SEINSTALL" relabel --root "$ref" --no-progress >"$WORK/bench-ref.out" 2>&1 ||
                bad "seinstall relabel of the copy failed: $(tail -n 3 "$WORK/bench-ref.out")"
        echo "  install-time relabel of a copy of that root on the host: $(head -n 1 "$WORK/bench-ref.out")"
        dump_labels "$ref" >"$WORK/labels.install"
        rm -rf "$ref"

        cmdline="$(fact "$L" kernel-cmdline) systemd.show_status=1"
        printf '%s\n' "expect 600 unit Starting.*(seinstall-rel|fast, with progress)" \
                "expect 1800 walking seinstall: relabel: [0-9]+ of ~" \
                "expect 1800 walk1 relabel: [0-9]+ entries, [0-9]+ changed" \
                "exit 600" >"$WORK/bench-si.script"
        boot bench-seinstall "$WORK/bench-si.script" "$cmdline" "$d" "$(blank)" ||
                { bad "seinstall's relabel boot did not finish"; return; }
        si_unit=$(step_time unit) si_walking=$(step_time walking) si_w1=$(step_time walk1) si_exit=$(step_time exit)
        walks=$(tr -d '\r' <"$LOGDIR/bench-seinstall.log" | grep -aoE 'relabel: [0-9]* entries, [0-9]* changed, [0-9]* already right|under mounts: [0-9]+ entries below [0-9]+ mount point\(s\), [0-9]+ changed')
        echo "  seinstall-relabel.service said:"
        printf '%s\n' "$walks" | sed 's/^/      | /'
        read -r n lab < <(bench_count "$d" "$WORK/labels.si")
        ok "seinstall's first boot relabeled and rebooted: $lab of $n entries labeled"

        bench_report "seinstall's first boot (first) against an install-time relabel (second)" \
                "$WORK/labels.si" "$WORK/labels.install" ||
                bad "seinstall's first-boot labels differ from an install-time relabel's"
        bench_report "seinstall's first boot (first) against Debian's fixfiles (second)" \
                "$WORK/labels.si" "$WORK/labels.deb" ||
                echo "  note: seinstall's and fixfiles' labels differ (listed above)"
        bench_report "Debian's fixfiles (first) against an install-time relabel (second)" \
                "$WORK/labels.deb" "$WORK/labels.install" || true

        BENCH_LINES=("first-boot relabel of the same unlabeled Debian 12 image ($n entries on /), QEMU $ACCEL, 2 vCPUs, 1 GiB;"
                "seconds on the serial console from QEMU's start (kernel start) and from the relabel unit's start, both to the reboot the relabel ends with"
                "machine: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), load $(cut -d' ' -f1-3 /proc/loadavg)"
                "$(printf '%-32s %10s %10s %10s' tool to-unit unit-run boot-total)"
                "$(printf '%-32s %10s %10s %10s' seinstall-relabel.service "$si_unit" "$(bench_span "$si_unit" "$si_exit")" "$si_exit")"
                "$(printf '%-32s %10s %10s %10s' "selinux-autorelabel (fixfiles)" "$deb_unit" "$(bench_span "$deb_unit" "$deb_exit")" "$deb_exit")"
                "$(printf '%-32s %10s %10s %10s' "ratio fixfiles/seinstall" "" "$(bench_ratio "$(bench_span "$si_unit" "$si_exit")" "$(bench_span "$deb_unit" "$deb_exit")")" "$(bench_ratio "$si_exit" "$deb_exit")") (goal: 10x)"
                "seinstall's unit run: relabel of the live tree and under its mounts $(bench_span "$si_unit" "$si_w1") s ($(bench_span "$si_unit" "$si_walking") s to its first progress line: start, policy and file contexts loaded), marks and reboot $(bench_span "$si_w1" "$si_exit") s"
                "fixfiles' unit run: genhomedircon and setup $(bench_span "$deb_unit" "$deb_set") s, setfiles' walk of / $(bench_span "$deb_set" "$deb_walk") s, /tmp clean-up and reboot $(bench_span "$deb_walk" "$deb_exit") s"
                "labels after: seinstall $lab, fixfiles $lab_deb labeled entries")
        for n in "${BENCH_CMP[@]}"; do BENCH_LINES+=("  $n"); done
        printf '%s\n' "${BENCH_LINES[@]}" | sed 's/^/  /'
}
