#!/bin/bash
# What the first-boot screen says a choice will do is what applying it does. For three kinds of
# kernel (Debian's SELinux opt-in, Fedora-like SELinux default, unknown), nine kernel command
# lines, SELinux configured on or off, and the three choices: the prediction of --status (kernel
# arguments added and removed, relabel, the config's mode) is compared with the target after
# --mode M --yes, which applies with the installer's library call.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../firstboot-lib.sh"

d=$(scratch_dir)
cmdlines=("quiet" "quiet security=selinux" "quiet selinux=0" "quiet selinux=1"
        "quiet security=selinux enforcing=0" "quiet security=selinux enforcing=1"
        "quiet security=apparmor" "quiet lsm=landlock,apparmor,selinux"
        "quiet lsm=selinux,landlock")
declare -A name=([enforcing]=Enforcing [permissive]=Permissive [disabled]=Disabled)
n=0

# selinux_first LIST: whether selinux leads apparmor and smack in an lsm= list.
selinux_first() {
        local l
        for l in ${1//,/ }; do
                case $l in
                selinux) return 0 ;;
                apparmor | smack) return 1 ;;
                esac
        done
        return 1
}

# lsm_state LIST: what matters of an lsm= list here, in $LSM_STATE: does selinux lead it, is it
# named at all. (The library may reorder the other LSMs; that changes nothing for SELinux.)
lsm_state() {
        LSM_STATE=
        selinux_first "$1" && LSM_STATE=lead
        [[ ,$1, == *,selinux,* ]] && LSM_STATE+=" has"
}

# args FILE: GRUB_CMDLINE_LINUX of a GRUB defaults file, in $ARGS (no processes: this runs
# hundreds of times).
args() {
        local line
        ARGS=
        while IFS= read -r line; do
                [[ $line =~ ^GRUB_CMDLINE_LINUX=\"(.*)\"$ ]] && ARGS=${BASH_REMATCH[1]}
        done <"$1"
}

# changes BEFORE AFTER: the changes between two argument lists, as the screen names them with
# blanks taken out, in $CHANGES: +arg / -arg; an edited lsm= list as +selinuxinlsm=
# (now selinux leads it) or -selinuxinlsm= (selinux left it); security=OTHER replaced by
# security=selinux counts as adding security=selinux only.
changes() {
        local -A b=() a=()
        local x old='' new='' out=() s_old s_new
        for x in $1; do
                b[$x]=1
                [[ $x == lsm=* ]] && old=${x#lsm=}
        done
        for x in $2; do
                a[$x]=1
                [[ $x == lsm=* ]] && new=${x#lsm=}
        done
        for x in "${!a[@]}"; do
                [[ -n ${b[$x]-} || $x == lsm=* ]] || out+=("+$x")
        done
        for x in "${!b[@]}"; do
                [[ -n ${a[$x]-} || $x == lsm=* || $x == security=[!s]* ]] || out+=("-$x")
        done
        if [ "$old" != "$new" ]; then
                lsm_state "$old"
                s_old=$LSM_STATE
                lsm_state "$new"
                s_new=$LSM_STATE
                if [[ $s_new == lead* && $s_old != lead* ]]; then
                        out+=("+selinuxinlsm=")
                elif [[ $s_old == *has && $s_new != *has ]]; then
                        out+=("-selinuxinlsm=")
                elif [ "$s_old" != "$s_new" ]; then
                        out+=("?lsm=$old->$new")
                fi
        fi
        CHANGES="${out[*]}"
}

# same_set "A B" "B A": whether two blank-separated lists hold the same words.
same_set() {
        local -A x=()
        local w n=0
        for w in $1; do
                x[$w]=1
        done
        for w in $2; do
                [ -n "${x[$w]-}" ] || return 1
                n=$((n + 1))
        done
        [ "$n" = "${#x[@]}" ]
}

# predicted PLAN: the kernel argument changes a plan sentence names, in $CHANGES.
predicted() {
        local list out=() x
        if [[ $1 =~ Kernel\ command\ line:\ ([^.]*)\. ]]; then
                list=${BASH_REMATCH[1]// /}
                for x in ${list//,/ }; do
                        out+=("$x")
                done
        fi
        CHANGES="${out[*]}"
}

for kernel in opt-in default unknown; do
        for cmdline in "${cmdlines[@]}"; do
                for from in enforcing disabled; do
                        base=$d/base
                        rm -rf "$base"
                        make_target "$base" "$from" "$kernel" "$cmdline"
                        status=$("$FIRSTBOOT" --root "$base" --status) ||
                                fail "kernel $kernel, '$cmdline', $from: --status failed"
                        args "$base/etc/default/grub"
                        before=$ARGS
                        for to in enforcing permissive disabled; do
                                n=$((n + 1))
                                t=$d/$n
                                cp -a "$base" "$t"
                                what="kernel $kernel, '$cmdline', $from -> $to"
                                plan=
                                while IFS= read -r line; do
                                        [[ $line == "  ${name[$to]}: "* ]] &&
                                                plan=${line#"  ${name[$to]}: "}
                                done <<<"$status"
                                [ -n "$plan" ] || fail "$what: no plan in: $status"
                                "$FIRSTBOOT" --root "$t" --mode "$to" --yes >"$d/out" 2>&1 ||
                                        fail "$what: --yes failed: $(cat "$d/out")"

                                # Kernel arguments.
                                predicted "$plan"
                                want=$CHANGES
                                args "$t/etc/default/grub"
                                changes "$before" "$ARGS"
                                same_set "$want" "$CHANGES" ||
                                        fail "$what: the screen predicted kernel arguments
'$want', applying changed '$CHANGES' (before: $before; after: $ARGS)
plan: $plan"

                                # Relabel.
                                relabel=no
                                [ -e "$t/.autorelabel" ] && relabel=yes
                                want=no
                                [[ $plan == *relabeled* ]] && want=yes
                                [ "$want" = "$relabel" ] ||
                                        fail "$what: predicted relabel $want, applying: $relabel; plan: $plan"

                                # The config's mode.
                                want=$from
                                [[ $plan =~ SELINUX=([a-z]*)\ in ]] && want=${BASH_REMATCH[1]}
                                while IFS= read -r line; do
                                        [[ $line == SELINUX=* ]] && got=${line#SELINUX=}
                                done <"$t/etc/selinux/config"
                                [ "$want" = "$got" ] ||
                                        fail "$what: predicted SELINUX=$want, applying wrote $got; plan: $plan"
                        done
                done
        done
done
echo "ok: $n predictions match what applying did"
