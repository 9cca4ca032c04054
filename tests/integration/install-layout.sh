#!/bin/bash
# `make install` into a temporary DESTDIR puts every file a distribution package needs where it
# belongs, and nothing else: library and links, header, pkg-config file, commands (without an
# rpath, not linked to the library), systemd units, example profiles, adapters, man pages, bash completion. A second
# install with another PREFIX shows the paths follow it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"
require_tool groff groff-base
require_tool man man-db

d=$(scratch_dir)
dest=$d/dest
install_tree "$dest"

lib=/usr/lib/$MULTIARCH
expected=$d/expected
{
        echo "$lib/libseinstall.so.0"
        echo "$lib/libseinstall.so"
        echo "$lib/pkgconfig/seinstall.pc"
        echo /usr/include/seinstall.h
        echo /usr/include/seinstall-version.h
        echo /usr/sbin/seinstall
        echo /usr/libexec/seinstall/seinstall-policy-build
        echo /usr/share/man/man8/seinstall.8
        echo /usr/share/man/man8/seinstall-firstboot.8
        echo /usr/share/man/man5/seinstall.ks.5
        echo /usr/share/bash-completion/completions/seinstall
        echo /usr/share/bash-completion/completions/seinstall-firstboot
} >"$expected"

# The first-boot tool, its units and the profiles are installed once they exist in the tree.
cd "$TOP" || fail "cd $TOP"
fb_ui=$(find firstboot -maxdepth 1 -name '*.c' ! -name 'model*' 2>/dev/null)
if [ -n "$fb_ui" ]; then
        echo /usr/sbin/seinstall-firstboot >>"$expected"
        compgen -G 'firstboot/*.service' >/dev/null ||
                fail "firstboot/ is built but has no .service unit to install"
fi
for u in firstboot/*.service firstboot/*.target firstboot/*.timer; do
        [ -e "$u" ] && echo "/lib/systemd/system/${u##*/}" >>"$expected"
done
# The drop-in that makes the distribution's autorelabel yield to seinstall-relabel.service.
[ -e firstboot/selinux-autorelabel-seinstall.conf ] &&
        echo /lib/systemd/system/selinux-autorelabel.service.d/seinstall.conf >>"$expected"
for p in profiles/*.ks; do
        [ -e "$p" ] && echo "/usr/share/seinstall/profiles/${p##*/}" >>"$expected"
done
for s in docs/schema/*.json; do
        [ -e "$s" ] && echo "/usr/share/seinstall/schema/${s##*/}" >>"$expected"
done
# The translations in the tree (po/LANG.po), as gettext looks for them.
for p in po/*.po; do
        [ -e "$p" ] && l=${p##*/} && echo "/usr/share/locale/${l%.po}/LC_MESSAGES/seinstall.mo" >>"$expected"
done
# The library's (po/libseinstall/LANG.po).
for p in po/libseinstall/*.po; do
        [ -e "$p" ] && l=${p##*/} && echo "/usr/share/locale/${l%.po}/LC_MESSAGES/libseinstall.mo" >>"$expected"
done
adapters=$(find installer-plugin/adapters -type f ! -path '*/__pycache__/*' ! -name '*.py[co]' \
        ! -name '*~' ! -name README.md 2>/dev/null | sort)

for f in $adapters; do
        echo "/usr/share/seinstall/adapters/${f#installer-plugin/adapters/}" >>"$expected"
done
# The Calamares job module's translations, compiled from its po/LANG.po.
for p in installer-plugin/adapters/calamares/po/*.po; do
        [ -e "$p" ] && echo "/usr/share/locale/$(basename "$p" .po)/LC_MESSAGES/seinstall-calamares.mo" >>"$expected"
done
# The relabel in the initramfs: its script, initramfs-tools' hook and boot script, dracut's
# module, the generator for what the initramfs left.
for f in $(find initramfs -type f 2>/dev/null | sort); do
        case $f in
        initramfs/initrd-relabel.sh) echo /usr/libexec/seinstall/initrd-relabel ;;
        initramfs/initramfs-tools/*) echo "/usr/share/initramfs-tools/${f#initramfs/initramfs-tools/}" ;;
        initramfs/dracut/*) echo "/usr/lib/dracut/modules.d/${f#initramfs/dracut/}" ;;
        initramfs/seinstall-relabel-generator) echo /lib/systemd/system-generators/seinstall-relabel-generator ;;
        *) fail "initramfs/: no install place known for $f" ;;
        esac
done >>"$expected"

sort -o "$expected" "$expected"
(cd "$dest" && find . ! -type d | sed 's|^\.||' | sort) >"$d/got"
diff -u "$expected" "$d/got" >"$d/diff" ||
        fail "installed files differ from the expected list (- missing, + unexpected):
$(cat "$d/diff")"
echo "ok: $(wc -l <"$expected") files installed, each expected, nothing else"
left=$(grep -rl '@[A-Z]*@' "$dest/usr/share/initramfs-tools" "$dest/usr/lib/dracut" "$dest/usr/lib/seinstall" \
        "$dest/lib/systemd/system-generators" 2>/dev/null)
[ -z "$left" ] || fail "placeholders left in installed files: $left"
grep -q '^copy_exec /usr/sbin/seinstall /usr/sbin/seinstall$' "$dest/usr/share/initramfs-tools/hooks/seinstall" ||
        fail "the initramfs-tools hook does not copy /usr/sbin/seinstall"
echo "ok: the initramfs scripts name the installed paths"

# The library: a real ELF with the right SONAME, the development link pointing at it.
[ -L "$dest$lib/libseinstall.so" ] || fail "libseinstall.so is not a symlink"
assert_eq "libseinstall.so link" libseinstall.so.0 "$(readlink "$dest$lib/libseinstall.so")"
soname=$(readelf -d "$dest$lib/libseinstall.so.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
assert_eq "SONAME" libseinstall.so.0 "$soname"

# Modes: executables 0755, data 0644.
mode() { stat -c %a "$dest$1"; }
assert_eq "mode of seinstall" 755 "$(mode /usr/sbin/seinstall)"
assert_eq "mode of libseinstall.so.0" 755 "$(mode "$lib/libseinstall.so.0")"
assert_eq "mode of seinstall.h" 644 "$(mode /usr/include/seinstall.h)"
assert_eq "mode of seinstall.8" 644 "$(mode /usr/share/man/man8/seinstall.8)"
for f in $adapters; do
        want=644
        [ -x "$f" ] && want=755
        assert_eq "mode of adapter ${f#installer-plugin/adapters/}" "$want" \
                "$(mode "/usr/share/seinstall/adapters/${f#installer-plugin/adapters/}")"
done

# Installed commands carry no rpath and the library inside: they use calls libseinstall.so.0
# does not export (status, avc, trial), so they must not need it, and they run with the
# installed library out of reach.
for b in /usr/sbin/seinstall /usr/sbin/seinstall-firstboot; do
        [ -e "$dest$b" ] || continue
        if readelf -d "$dest$b" | grep -Eq 'R(UN)?PATH'; then
                fail "$b has an rpath: $(readelf -d "$dest$b" | grep -E 'R(UN)?PATH')"
        fi
        echo "ok: $b has no rpath"
        needed=$(readelf -d "$dest$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
        [ -n "$needed" ] || fail "readelf -d $b lists no NEEDED library: is it a dynamic ELF?"
        case " $needed" in *" libseinstall"*) fail "$b needs libseinstall: $needed" ;; esac
        echo "ok: $b needs $needed(no libseinstall)"
done
out=$(env -u LD_LIBRARY_PATH "$dest/usr/sbin/seinstall" --version) ||
        fail "installed seinstall --version failed"
assert_eq "installed seinstall --version" \
        "seinstall $(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")" "$(printf '%s\n' "$out" | head -n 1)"
out=$(env -u LD_LIBRARY_PATH "$dest/usr/sbin/seinstall" status --root "$d" --json) ||
        fail "installed seinstall status (internal calls) failed: $out"
assert_contains "installed seinstall status --json" "$out" '"root"'

# pkg-config file: names the installed paths.
pc=$dest$lib/pkgconfig/seinstall.pc
assert_eq "pc prefix" "prefix=/usr" "$(grep '^prefix=' "$pc")"
assert_eq "pc libdir" "libdir=$lib" "$(grep '^libdir=' "$pc")"
assert_eq "pc includedir" "includedir=/usr/include" "$(grep '^includedir=' "$pc")"

# Man pages render without a single warning, under their own name and section.
for m in "$dest"/usr/share/man/man*/*; do
        warn=$(groff -man -ww -z -Tutf8 "$m" 2>&1)
        [ -z "$warn" ] || fail "man page ${m#"$dest"} has warnings: $warn"
        name=${m##*/}
        first=$(MANWIDTH=80 man -l "$m" 2>/dev/null | head -n 1)
        assert_contains "${m#"$dest"} header" "$first" \
                "$(echo "${name%.*}" | tr '[:lower:]' '[:upper:]')(${name##*.})"
done

# Units name the installed commands.
for u in "$dest"/lib/systemd/system/*.service; do
        [ -e "$u" ] || continue
        if grep -q 'ExecStart=.*seinstall' "$u"; then
                assert_contains "${u##*/}" "$(grep ExecStart= "$u")" "/usr/sbin/seinstall"
        fi
done

# Another PREFIX: everything moves with it; the .pc file follows even though the tree was
# built for /usr first. Units stay where systemd looks for them.
dest2=$d/dest2
install_tree "$dest2" PREFIX=/opt/si
for f in /opt/si/sbin/seinstall "/opt/si/lib/$MULTIARCH/libseinstall.so.0" \
        /opt/si/include/seinstall.h /opt/si/share/man/man5/seinstall.ks.5 \
        /opt/si/share/bash-completion/completions/seinstall; do
        [ -e "$dest2$f" ] || fail "PREFIX=/opt/si: $f missing"
done
echo "ok: PREFIX=/opt/si moves every file"
# ... the catalogs too, and the commands that translate look for them there
for p in po/*.po; do
        [ -e "$p" ] || continue
        l=${p##*/}
        [ -e "$dest2/opt/si/share/locale/${l%.po}/LC_MESSAGES/seinstall.mo" ] ||
                fail "PREFIX=/opt/si: the ${l%.po} catalog is not under /opt/si/share/locale"
        for c in seinstall seinstall-firstboot; do
                [ -e "$dest2/opt/si/sbin/$c" ] || continue
                grep -qa /opt/si/share/locale "$dest2/opt/si/sbin/$c" ||
                        fail "PREFIX=/opt/si: $c does not look for catalogs in /opt/si/share/locale"
        done
done
for p in po/libseinstall/*.po; do
        [ -e "$p" ] || continue
        l=${p##*/}
        [ -e "$dest2/opt/si/share/locale/${l%.po}/LC_MESSAGES/libseinstall.mo" ] ||
                fail "PREFIX=/opt/si: the library's ${l%.po} catalog is not under /opt/si/share/locale"
        grep -qa /opt/si/share/locale "$dest2/opt/si/lib/$MULTIARCH/libseinstall.so.0" ||
                fail "PREFIX=/opt/si: the library does not look for its catalogs in /opt/si/share/locale"
done
[ -x "$dest2/opt/si/libexec/seinstall/seinstall-policy-build" ] ||
        fail "PREFIX=/opt/si: the policy build's helper is not in /opt/si/libexec/seinstall"
grep -qa /opt/si/libexec/seinstall "$dest2/opt/si/sbin/seinstall" ||
        fail "PREFIX=/opt/si: seinstall does not look for its helper in /opt/si/libexec/seinstall"
assert_eq "pc prefix with PREFIX=/opt/si" "prefix=/opt/si" \
        "$(grep '^prefix=' "$dest2/opt/si/lib/$MULTIARCH/pkgconfig/seinstall.pc")"
for u in "$dest2"/lib/systemd/system/*.service; do
        [ -e "$u" ] || continue
        if grep -q 'ExecStart=.*seinstall' "$u"; then
                assert_contains "${u##*/} with PREFIX=/opt/si" "$(grep ExecStart= "$u")" \
                        "/opt/si/sbin/seinstall"
        fi
done
# Leave the tree's .pc file as a plain build makes it.
run_make -s all >/dev/null 2>&1 || fail "make all after the PREFIX=/opt/si install failed"
assert_eq "in-tree .pc back to /usr" "prefix=/usr" \
        "$(grep '^prefix=' "$SEINSTALL_BUILD_DIR/lib/seinstall.pc")"

# The version lives in the Makefile alone: the installed pages' footers carry it.
version=$(run_make -s -p -n help 2>/dev/null | sed -n 's/^VERSION := //p' | head -n 1)
[ -n "$version" ] || fail "no VERSION in the Makefile"
for m in "$dest"/usr/share/man/man*/*; do
        grep -q '@VERSION@' "$m" && fail "${m#"$dest"} still says @VERSION@"
        assert_contains "${m#"$dest"} footer" "$(sed -n '/^\.TH/p' "$m")" "\"seinstall $version\""
done
assert_contains "seinstall --version" "$(LD_LIBRARY_PATH=$dest$lib "$dest/usr/sbin/seinstall" --version)" \
        "seinstall $version"

# make uninstall with the same variables removes every file install put there.
run_make -s uninstall DESTDIR="$dest" >/dev/null 2>&1 || fail "make uninstall failed"
left=$(cd "$dest" && find . ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "ok: make uninstall removes every installed file"

# A Fedora-like system: its libmount in /usr/lib64, systemd's units in /usr/lib/systemd/system
# (both asked of pkg-config, here a wrapper answering as Fedora's would).
cat >"$d/fedora-pkg-config" <<'PC'
#!/bin/sh
case "$*" in
"--variable=libdir mount") echo /usr/lib64 ;;
"--variable=systemdsystemunitdir systemd") echo /usr/lib/systemd/system ;;
*) exec pkg-config "$@" ;;
esac
PC
chmod +x "$d/fedora-pkg-config"
install_tree "$d/fedora" PKG_CONFIG="$d/fedora-pkg-config"
for f in /usr/lib64/libseinstall.so.0 /usr/lib64/pkgconfig/seinstall.pc \
        /usr/lib/systemd/system/seinstall-relabel.service; do
        [ -e "$d/fedora$f" ] || fail "Fedora layout: $f missing"
done
[ -e "$d/fedora/usr/lib/$MULTIARCH" ] && fail "Fedora layout: a multiarch directory was made"
[ -e "$d/fedora/lib/systemd" ] && fail "Fedora layout: units went to /lib/systemd"
assert_eq "Fedora .pc libdir" "libdir=/usr/lib64" "$(grep '^libdir=' "$d/fedora/usr/lib64/pkgconfig/seinstall.pc")"
echo "ok: libdir and unit directory come from pkg-config (lib64, /usr/lib/systemd/system)"

# Without libnewt: no first-boot tool, nor its unit, page or completion; the rest as before.
install_tree "$d/nofb" WITH_FIRSTBOOT=0 BUILD="$d/nofb-build"
for f in /usr/sbin/seinstall-firstboot /lib/systemd/system/seinstall-firstboot.service \
        /usr/share/man/man8/seinstall-firstboot.8 /usr/share/bash-completion/completions/seinstall-firstboot; do
        [ -e "$d/nofb$f" ] && fail "WITH_FIRSTBOOT=0 installed $f"
done
for f in /usr/sbin/seinstall /lib/systemd/system/seinstall-relabel.service "$lib/libseinstall.so.0"; do
        [ -e "$d/nofb$f" ] || fail "WITH_FIRSTBOOT=0: $f missing"
done
if grep -rq 'newt' "$d/nofb-build" --include='*.d'; then
        fail "WITH_FIRSTBOOT=0 compiled something that includes newt.h"
fi
readelf -d "$d/nofb/usr/sbin/seinstall" | grep -q libnewt && fail "seinstall links libnewt"
echo "ok: WITH_FIRSTBOOT=0 builds and installs without libnewt"
run_make -s all >/dev/null 2>&1 || fail "make all after the other layouts failed"
