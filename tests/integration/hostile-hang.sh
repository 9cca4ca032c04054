#!/bin/bash
# Files that would block a read forever: a FIFO (no writer) and a character device (/dev/kmsg:
# reading blocks at the end of the log) planted at the target's policy.N, and given as every
# input file (--profile, --cmdline, --plan, --file-contexts). Each run must end within its time
# limit with exit 2 and a message naming the path (issue 18, item 3).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
pol=$(find "$t/etc/selinux/default/policy" -name 'policy.[0-9]*' | sort -V | tail -n 1)
[ -n "$pol" ] || skip "the host's default policy has no policy.N"
printf 'selinux --permissive\n' >"$d/p.ks"
printf '/dev/vda1 / ext4 defaults 0 1\n' >"$d/ok.plan"

# run WHAT PATH ARGS...: seinstall ARGS under a 20 s limit; exit 2 naming PATH.
run() {
        local what=$1 path=$2 rc
        shift 2
        timeout -s KILL 20 "$SEINSTALL" "$@" >/dev/null 2>"$d/err" && rc=0 || rc=$?
        [ "$rc" != 137 ] || fail "$what: 'seinstall $*' hung (killed after 20 s)"
        [ "$rc" = 2 ] || fail "$what: 'seinstall $*' exited $rc, expected 2: $(cat "$d/err")"
        assert_contains "$what: message" "$(cat "$d/err")" "$path"
        assert_contains "$what: message" "$(cat "$d/err")" "not a regular file"
}

# plant KIND PATH: a FIFO or /dev/kmsg's device number at PATH; 1 when this system cannot.
plant() {
        rm -f "$2"
        case $1 in
        fifo) mkfifo "$2" ;;
        chardev) mknod "$2" c 1 11 2>/dev/null ;;
        esac
}

cases=0
for kind in fifo chardev; do
        echo "== a $kind at the target's ${pol#"$t"}"
        cp "$pol" "$d/policy.saved"
        if plant "$kind" "$pol"; then
                run "check" "$pol" check --root "$t"
                run "relabel" "$pol" relabel --root "$t" --dry-run --no-progress
                run "install" "$pol" install --root "$t" --profile "$d/p.ks" --no-cmdline
                cases=$((cases + 3))
        else
                echo "note: cannot make a $kind here"
        fi
        rm -f "$pol"
        cp "$d/policy.saved" "$pol"

        echo "== a $kind as each input file"
        in=$d/input.$kind
        if plant "$kind" "$in"; then
                run "--profile" "$in" profile "$in"
                run "install --profile" "$in" install --root "$t" --profile "$in" --no-cmdline
                run "--cmdline" "$in" profile "$d/p.ks" --cmdline "$in"
                run "install --cmdline" "$in" install --root "$t" --profile "$d/p.ks" --cmdline "$in"
                run "--plan" "$in" check --root "$t" --plan "$in"
                run "--file-contexts" "$in" relabel --root "$t" --file-contexts "$in" --dry-run --no-progress
                cases=$((cases + 6))
        fi
done
[ "$cases" -gt 0 ] || skip "neither a FIFO nor a device node can be made here"
echo "ok: $cases hang cases ended with exit 2 naming the path"
