#!/bin/bash
# Everything one profile reads has a budget (issue 32, item 5): 32 two-line kickstart files,
# each including the next twice, are 2^31 inclusions with no cycle and only 32 levels deep, and
# `seinstall profile KS --plan` (which Anaconda's seinstall-pre runs) was still growing at 20 s
# and 150 MB. Now:
# - the fan-out, read for the layout and for the settings: exit 2 within `timeout 10`, naming
#   the file and line of the %include that opens the 257th file and the limit, memory bounded;
# - %ksappend of a 3.5 MiB file on 1000 lines: exit 2 at the line that passes 16 MiB in all
#   (the merged text was checked against 4 MiB only after reading every appended file);
# - four nested 4 MiB files of empty lines (just under 16 MiB in all) are read, with peak memory
#   near the text's size (every line was held at once, 32 bytes each: about 550 MB);
# - a profile with a few %include and %ksappend files still gives its settings and layout.
. "$(dirname "$0")/../lib.sh"
require_tool python3 python3
[ -x /usr/bin/time ] || skip "/usr/bin/time is missing (Debian: apt-get install time)"

D=$(scratch_dir)
san=0
[[ $SEINSTALL_BUILD_DIR == */san ]] && san=1

# run EXPECTED-EXIT MAX-KB ARGS...: seinstall ARGS in $D/w under `timeout 10`; stderr in $ERR,
# stdout in $OUT, peak memory in $peak, wall time (ms) in $ms
run() {
        local want=$1 max=$2 rc t0
        shift 2
        t0=$(date +%s%N)
        (cd "$D/w" && /usr/bin/time -f '%M' -o "$D/peak" timeout -s KILL 10 "$SEINSTALL" "$@") \
                >"$D/out" 2>"$D/err" && rc=0 || rc=$?
        ms=$((($(date +%s%N) - t0) / 1000000))
        OUT=$(cat "$D/out")
        ERR=$(grep -v '^Command exited' "$D/err" || true)
        peak=$(tail -n 1 "$D/peak")
        [ "$rc" = "$want" ] || fail "'seinstall $*' exited $rc (after $ms ms), expected $want: $ERR"
        if [ "$san" = 1 ]; then
                echo "note: peak $peak KB under AddressSanitizer: the $max KB bound is checked in the plain build"
        else
                [ "$peak" -lt "$max" ] || fail "'seinstall $*': peak memory $peak KB, expected under $max KB"
        fi
}

mkdir "$D/w"
for i in $(seq 0 30); do
        printf '%%include f%d.ks\n%%include f%d.ks\n' $((i + 1)) $((i + 1)) >"$D/w/f$i.ks"
done
printf 'part / --fstype=ext4\n' >"$D/w/f31.ks"

run 2 50000 profile f0.ks --plan --firmware bios
assert_contains "fan-out, --plan" "$ERR" \
        "f30.ks:2: %include f31.ks: more than 256 files opened for one profile"
assert_contains "fan-out, --plan: the fix" "$ERR" "look for files included more than once"
echo "ok: the 32-file fan-out read for the layout: exit 2 in $ms ms, peak $peak KB"
run 2 50000 profile f0.ks --no-cmdline
assert_contains "fan-out, settings" "$ERR" "f30.ks:2: %include f31.ks: more than 256 files"
echo "ok: the 32-file fan-out read for the settings: exit 2 in $ms ms, peak $peak KB"

python3 - "$D/w" <<'PY' || fail "making the large files"
import sys
d = sys.argv[1]
open(d + "/big.ks", "w").write("#" * (7 * 512 * 1024 - 1) + "\n")
open(d + "/append.ks", "w").write("selinux --permissive\n" + "%ksappend big.ks\n" * 1000)
# 4 files of 4 MiB - 64 bytes, each but the last including the next: just under 16 MiB
for i in range(4):
    head = "%%include blank%d.ks\n" % (i + 1) if i < 3 else ""
    open("%s/blank%d.ks" % (d, i), "w").write(head + "\n" * (4 * 1024 * 1024 - 64 - len(head)))
PY
run 2 100000 profile append.ks --plan --firmware bios
assert_contains "1000 x %ksappend" "$ERR" \
        "append.ks:6: %ksappend big.ks: more than 16 MiB read for one profile"
echo "ok: %ksappend of 3.5 MiB on 1000 lines: exit 2 at the fifth, in $ms ms, peak $peak KB"

run 0 80000 profile blank0.ks --plan --firmware bios
echo "ok: 4 nested files of 4 MiB of empty lines read, peak $peak KB"

cat >"$D/w/main.ks" <<'KS'
selinux --permissive
%include parts.ks
%ksappend site.ks
%post
%include post.ks
%end
KS
printf 'part /boot --fstype=ext4\npart / --fstype=xfs\n' >"$D/w/parts.ks"
printf '# site\nselinux --enforcing\n' >"$D/w/site.ks"
printf 'echo done\n' >"$D/w/post.ks"
run 0 50000 profile main.ks --plan --firmware bios
assert_contains "a legitimate profile: /boot" "$OUT" "/boot ext4"
assert_contains "a legitimate profile: /" "$OUT" "/ xfs"
run 0 50000 profile main.ks --no-cmdline --json
echo "$OUT" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert (d["mode"], d["mode_source"]) == ("enforcing", "profile"), d' ||
        fail "a legitimate profile: settings: $OUT"
echo "ok: a profile with %include and %ksappend files gives its layout and settings"
