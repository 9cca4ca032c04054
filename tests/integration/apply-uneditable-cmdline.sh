#!/bin/bash
# apply refuses a kernel command line it cannot edit without changing what the kernel reads, in
# each of the three places it edits: an odd '"', or a SELinux argument whose value keeps a '"'
# once the kernel unquotes it (lsm=""n reads as "n). The message names the file and, for GRUB's
# defaults and a BLS entry, the line; the exit status says bad input (2); nothing is written.
. "$(dirname "$0")/../lib.sh"

# target DIR BOOTLOADER TEXT: a target whose only boot loader form holds TEXT.
target() {
        local t=$1
        mkdir -p "$t/boot" "$t/etc/selinux/default/policy" "$t/etc/default" "$t/etc/kernel" \
                "$t/boot/loader/entries"
        printf 'CONFIG_SECURITY_SELINUX=y\nCONFIG_LSM="landlock,lockdown,yama,apparmor,selinux"\n' \
                >"$t/boot/config-6.1.0-13-amd64"
        : >"$t/etc/selinux/default/policy/policy.33"
        printf 'SELINUX=disabled\nSELINUXTYPE=default\n' >"$t/etc/selinux/config"
        case $2 in
        grub) printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\n%s\n' "$3" >"$t/etc/default/grub" ;;
        bls) printf 'title Debian\nlinux /vmlinuz\noptions root=/dev/vda2 ro\n%s\n' "$3" \
                >"$t/boot/loader/entries/debian.conf" ;;
        kernel-cmdline) printf '%s\n' "$3" >"$t/etc/kernel/cmdline" ;;
        esac
}

# refused BOOTLOADER TEXT WHERE: apply --mode enforcing exits 2 naming WHERE, changes no file.
refused() {
        local t before after
        t=$(scratch_dir)/t
        rm -rf "$t"
        target "$t" "$1" "$2"
        before=$(cd "$t" && find . -type f -exec sha256sum {} + | sort)
        expect_exit 2 "$SEINSTALL" apply --root "$t" --mode enforcing --bootloader "$1" --labeled
        assert_contains "apply's refusal of '$2' ($1)" "$ERR" "$t/$3: cannot edit this"
        assert_contains "apply's refusal of '$2' ($1)" "$ERR" "by hand, or use --bootloader none"
        after=$(cd "$t" && find . -type f -exec sha256sum {} + | sort)
        [ "$before" = "$after" ] || fail "a refused apply ($1, '$2') changed files: $after"
        echo "ok: a refused apply ($1, '$2') wrote nothing"
}

refused grub 'GRUB_CMDLINE_LINUX="quiet lsm=""n"' etc/default/grub:3
refused grub "GRUB_CMDLINE_LINUX='ro lsm=\"\"n'" etc/default/grub:3
refused grub "GRUB_CMDLINE_LINUX='ro \"quiet'" etc/default/grub:3
refused bls 'options quiet lsm=""n' boot/loader/entries/debian.conf:4
refused bls 'options "quiet' boot/loader/entries/debian.conf:4
refused bls 'options selinux=1""0' boot/loader/entries/debian.conf:4
refused kernel-cmdline 'root=/dev/vda2 ro lsm=""n' etc/kernel/cmdline
refused kernel-cmdline 'root=/dev/vda2 "ro' etc/kernel/cmdline

# The same lines with the quote where the kernel drops it are edited.
t=$(scratch_dir)/ok
target "$t" bls 'options quiet lsm="landlock,yama"'
expect_exit 0 "$SEINSTALL" apply --root "$t" --mode enforcing --bootloader bls --labeled
assert_contains "the edited BLS entry" "$(cat "$t/boot/loader/entries/debian.conf")" "selinux"
