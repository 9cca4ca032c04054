#!/bin/bash
# What the first-boot screen says a choice will do is what applying it does. The screen's
# prediction is the library's dry run of the very call that applies the choice; this holds it
# to that on real trees: for every boot loader layout (GRUB defaults, grub.d, BLS entries,
# /etc/kernel/cmdline, none), three kinds of kernel (Debian's SELinux opt-in, Fedora-like
# SELinux default, unknown), kernel command lines, SELinux configured on or off, and the three
# choices, the changes --status lists for a choice ("would change FILE: WHAT") are exactly the
# ones --mode M --yes then prints ("Changed FILE: WHAT"), exactly those files changed on disk,
# and the plan's sentences (relabel, the config's mode) match the tree afterwards.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

# Hundreds of applies, each replacing files with two fsyncs: in memory when there is tmpfs.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
# The screen shows the target's path in one line of 80 columns: under /tmp, whatever TMPDIR
# says (tests/run-tests.sh gives every test a TMPDIR of its own, a longer path).
d=$(TMPDIR=/tmp scratch_dir)
cmdlines=("quiet" "quiet security=selinux" "quiet selinux=0" "quiet selinux=1"
        "quiet security=selinux enforcing=0" "quiet security=selinux enforcing=1"
        "quiet security=apparmor" "quiet lsm=landlock,apparmor,selinux"
        "quiet lsm=selinux,landlock")
# the other layouts take fewer command lines: the rules are the same, only the files differ
short=("quiet" "quiet security=selinux enforcing=0")
declare -A name=([enforcing]=Enforcing [permissive]=Permissive [disabled]=Disabled)
n=0

# layout DIR LAYOUT ARGS: move the command line make_target put in GRUB's defaults to LAYOUT.
layout() {
        local t=$1 args=$3
        case $2 in
        grub) ;;
        grub.d)
                mkdir -p "$t/etc/default/grub.d"
                printf 'GRUB_CMDLINE_LINUX="%s"\n' "$args" >"$t/etc/default/grub.d/50-local.cfg"
                printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=""\n' >"$t/etc/default/grub"
                ;;
        bls)
                rm "$t/etc/default/grub"
                mkdir -p "$t/boot/loader/entries"
                printf 'title Debian\noptions root=UUID=1 ro %s\n' "$args" \
                        >"$t/boot/loader/entries/debian.conf"
                ;;
        kernel-cmdline)
                rm "$t/etc/default/grub"
                mkdir -p "$t/etc/kernel"
                printf 'root=UUID=1 ro %s\n' "$args" >"$t/etc/kernel/cmdline"
                ;;
        none) rm "$t/etc/default/grub" ;;
        esac
}

# files DIR: every file of the tree with its checksum, in $FILES.
files() {
        FILES=$(cd "$1" && find . -type f -print0 | xargs -0 -r sha256sum | LC_ALL=C sort)
}

# changed BEFORE AFTER: the files whose checksum differs or that are new, one "/path" a line.
changed() {
        LC_ALL=C comm -13 <(echo "$1") <(echo "$2") | sed 's/^[0-9a-f]*  \.//' | sort
}

# predict STATUS MODE: the plan sentence --status gives for MODE in $PLAN, and the changes it
# lists under it ("FILE: WHAT" lines, in order) in $WOULD.
predict() {
        local line in=
        PLAN= WOULD=
        while IFS= read -r line; do
                if [[ $line == "  ${name[$2]}: "* ]]; then
                        PLAN=${line#"  ${name[$2]}: "}
                        in=1
                elif [[ $line == "    would change "* ]]; then
                        [ -z "$in" ] || WOULD+=${WOULD:+$'\n'}${line#"    would change "}
                else
                        in=
                fi
        done <<<"$1"
}

for lay in grub grub.d bls kernel-cmdline none; do
        if [ "$lay" = grub ]; then lines=("${cmdlines[@]}"); else lines=("${short[@]}"); fi
        for kernel in opt-in default unknown; do
                for cmdline in "${lines[@]}"; do
                        for from in enforcing disabled; do
                                base=$d/base
                                rm -rf "$base"
                                make_target "$base" "$from" "$kernel" "$cmdline"
                                layout "$base" "$lay" "$cmdline"
                                status=$("$FIRSTBOOT" --root "$base" --status) ||
                                        fail "$lay, kernel $kernel, '$cmdline', $from: --status failed"
                                files "$base"
                                before=$FILES
                                for to in enforcing permissive disabled; do
                                        n=$((n + 1))
                                        t=$d/$n
                                        cp -a "$base" "$t"
                                        what="$lay, kernel $kernel, '$cmdline', $from -> $to"
                                        predict "$status" "$to"
                                        [ -n "$PLAN" ] || fail "$what: no plan in: $status"
                                        "$FIRSTBOOT" --root "$t" --mode "$to" --yes >"$d/out" 2>&1 ||
                                                fail "$what: --yes failed: $(cat "$d/out")"
                                        applied=$(sed -n 's/^Changed //p' "$d/out")
                                        [ "$WOULD" = "$applied" ] ||
                                                fail "$what: the screen predicted
$WOULD
applying changed
$applied"
                                        # exactly the files named changed on disk
                                        files "$t"
                                        on_disk=$(changed "$before" "$FILES")
                                        named=$(echo "$applied" | sed -n 's/^\([^:]*\): .*/\1/p' | sort -u)
                                        [ "$on_disk" = "$named" ] ||
                                                fail "$what: files changed on disk:
$on_disk
named:
$named"

                                        # Relabel.
                                        relabel=no
                                        [ -e "$t/.autorelabel" ] && relabel=yes
                                        want=no
                                        [[ $PLAN == *relabeled* ]] && want=yes
                                        [ "$want" = "$relabel" ] ||
                                                fail "$what: predicted relabel $want, applying: $relabel; plan: $PLAN"

                                        # The config's mode.
                                        want=$from
                                        [[ $PLAN =~ SELINUX=([a-z]*)\ in ]] && want=${BASH_REMATCH[1]}
                                        got=$(config_mode "$t")
                                        [ "$want" = "$got" ] ||
                                                fail "$what: predicted SELINUX=$want, applying wrote $got; plan: $PLAN"
                                        rm -rf "$t"
                                done
                        done
                done
        done
done
echo "ok: $n predictions match what applying did"
