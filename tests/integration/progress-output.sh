#!/bin/bash
# --progress where it lands. Into a pipe (the journal, a log file): plain lines, each
# "seinstall: relabel: N ...entries..." ended by a newline, no carriage return or escape
# sequence, the first at once and then at most one every 5 seconds. On a terminal (tmux): the
# line is rewritten in place, and a SIGTERM while it is open ends it, so what a script prints
# next starts a line of its own. The walks are dry runs over this machine's / (read only, about
# 400k entries here): long enough to be interrupted, nothing written.
. "$(dirname "$0")/../lib.sh"
require_root
[ -f /etc/selinux/config ] || skip "this machine has no /etc/selinux/config to relabel / by"

d=$(scratch_dir)

echo "== into a pipe"
start=$(date +%s%N)
"$SEINSTALL" relabel --root / --dry-run --progress --threads 1 2>&1 >"$d/stdout" | cat >"$d/stderr"
took=$(seconds_since "$start")
if LC_ALL=C grep -q $'[\r\033]' "$d/stderr"; then
        fail "carriage return or escape sequence in piped progress: $(od -c "$d/stderr" | head)"
fi
lines=$(grep -c '^seinstall: relabel: [0-9]* \(of ~[0-9]* \)\?entries, [0-9]*/s' "$d/stderr")
[ "$lines" -ge 1 ] || fail "no progress line in the pipe: $(cat "$d/stderr")"
[ "$lines" = "$(wc -l <"$d/stderr")" ] || fail "other lines than progress on stderr: $(cat "$d/stderr")"
[ "$(tail -c 1 "$d/stderr" | od -An -c | tr -d ' ')" = '\n' ] || fail "the last progress line is not ended"
max=$((${took%.*} / 5 + 2))
[ "$lines" -le "$max" ] || fail "$lines progress lines in ${took}s: more than one every 5 seconds"
echo "ok: $lines plain progress lines in ${took}s"
assert_contains "summary" "$(cat "$d/stdout")" "relabel (dry run): "

echo "== on a terminal, interrupted"
command -v tmux >/dev/null || skip "tmux is not installed"
s=seinstall-progress-$$
tmux -L "$s" new-session -d -s "$s" -x 160 -y 20 "env -i PATH=/usr/bin:/bin TERM=screen PS1='$ ' bash --norc --noprofile"
on_exit "tmux -L '$s' kill-server 2>/dev/null"
# a script on the terminal: the relabel is stopped with SIGTERM, the script goes on printing
tmux -L "$s" send-keys -t "$s" "bash -c '\"\$0\" relabel --root / --dry-run --progress --threads 1 >/dev/null; echo AFTER-\$?' '$SEINSTALL'" Enter
pane() { tmux -L "$s" capture-pane -p -t "$s"; }
for _ in $(seq 100); do
        pane | grep -q 'seinstall: relabel: [0-9]' && break
        sleep 0.1
done
pane | grep -q 'seinstall: relabel: [0-9]' || fail "no progress on the terminal: $(pane)"
shell=$(tmux -L "$s" list-panes -t "$s" -F '#{pane_pid}')
script=$(pgrep -P "$shell" -x bash) || fail "the script is not running: $(pane)"
relabel=$(pgrep -P "$script") || fail "the relabel is not running: $(pane)"
kill -TERM "$relabel"
# a sanitized build takes its time to exit: up to a minute. The line looked for is the
# script's own output, never the command echoed on the prompt line (which holds "AFTER-" too).
for _ in $(seq 600); do
        pane | grep -qx 'AFTER-[0-9]*' && break
        sleep 0.1
done
out=$(pane)
echo "$out"
printf '%s\n' "$out" | grep -qx 'AFTER-143' ||
        fail "after SIGTERM the next output does not start a line of its own: $out"
[ "$(printf '%s\n' "$out" | grep -c 'seinstall: relabel: ')" = 1 ] ||
        fail "the progress line was not rewritten in place: $out"
printf '%s\n' "$out" | grep -qx 'seinstall: relabel: [0-9]* \(of ~[0-9]* \)\?entries, [0-9]*/s\(, ~[0-9]*s left\)\?' ||
        fail "something was printed on the progress line after it: $out"
echo "ok: the interrupted progress line was ended before the next output"
