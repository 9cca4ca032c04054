#!/bin/sh
# tests/bench/firstboot-walks.sh SEINSTALL ROOT: what seinstall-relabel.service does on the
# first boot, done on a bench tree: the relabel of the tree (its ExecStart), then the same
# relabel over a bind mount of it (its ExecStartPost, which on a running system reaches what
# the mounts hide; here it finds everything already right). make bench times it as
# "firstboot" on the same tree as the other tools. Exit status: the first failure.
"$1" relabel --root "$2" --no-progress >/dev/null || exit
d=$(mktemp -d /run/seinstall-bench-bind.XXXXXX) || exit
mount --bind "$2" "$d" || { rmdir "$d"; exit 1; }
"$1" relabel --root "$d" --no-progress >/dev/null
r=$?
umount "$d" && rmdir "$d"
exit $r
