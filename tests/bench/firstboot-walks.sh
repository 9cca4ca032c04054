#!/bin/sh
# tests/bench/firstboot-walks.sh SEINSTALL ROOT: what seinstall-relabel.service does on the
# first boot, done on a bench tree: one relabel of the tree that then labels what the mounts on
# its filesystem hide (--under-mounts; a bench tree has none, so this costs the reading of the
# mount table). make bench times it as "firstboot" on the same tree as the other tools.
exec "$1" relabel --root "$2" --no-progress --under-mounts >/dev/null
