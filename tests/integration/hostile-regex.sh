#!/bin/bash
# A file_contexts pattern that backtracks catastrophically, (a+)+c against paths of "a"s with
# a "c" after them, costs PCRE2's default ten million steps per path (about 0.1 s, hours on a
# large tree) with no word of why. The match is limited and relabel stops within seconds, exit 2 naming the
# file, line and pattern (issue 18, item 9).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_root

d=$(scratch_dir)
t=$d/t
make_target "$t"
mkdir -p "$t/x"
for i in $(seq 1 200); do : >"$t/x/$(printf 'a%.0s' $(seq 1 28))!c$i"; done
printf '/.*\tsystem_u:object_r:default_t:s0\n/x/(a+)+c\tsystem_u:object_r:etc_t:s0\n' >"$d/fc"

start=$(date +%s)
rc=0
timeout -s KILL 120 "$SEINSTALL" relabel --root "$t" --file-contexts "$d/fc" --threads 1 --no-progress \
        >/dev/null 2>"$d/err" || rc=$?
secs=$(($(date +%s) - start))
[ "$rc" != 137 ] || fail "relabel took more than 120 s on 200 files"
[ "$rc" = 2 ] || fail "relabel exited $rc, expected 2: $(cat "$d/err")"
assert_contains "message" "$(cat "$d/err")" "$d/fc:2"
assert_contains "message" "$(cat "$d/err")" "(a+)+c"
[ "$secs" -le 30 ] || fail "relabel took $secs s to stop"
echo "ok: stopped after $secs s naming the pattern"
