#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate the kickstart corpus of the differential test: one directory per case, each with
main.ks and the files it includes or appends, covering every class of pykickstart's grammar
seinstall must read alike (issue 12): line ends, shlex before the command is known, sections,
%include and %ksappend, the selinux command, UTF-8, and whole realistic kickstarts.

Deterministic (its own PRNG, no dependence on Python's random), so the verdicts recorded in
ks-verdicts.tsv stay valid; prints the corpus digest they were recorded for.

usage: ks-gen.py OUTDIR [SEED]   (another SEED makes another corpus, for exploring by hand)
"""
import hashlib
import os
import sys


class Rng:
    """xorshift64*: the same sequence on every Python."""

    def __init__(self, seed):
        self.s = seed or 1

    def next(self):
        s = self.s
        s ^= (s >> 12)
        s ^= (s << 25) & 0xFFFFFFFFFFFFFFFF
        s ^= (s >> 27)
        self.s = s
        return (s * 2685821657736338717) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, pct):
        return self.below(100) < pct


# Line ends str.splitlines() knows, and 0x1f, which is whitespace but no line end.
BREAKS = [b"\n", b"\r\n", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e",
          "\u0085".encode(), "\u2028".encode(), "\u2029".encode()]
NOT_BREAKS = [b"\x1f", "\u00a0".encode(), "\u3000".encode(), b"\t"]

# Other commands, valid for pykickstart (seinstall does not check them).
OTHER = [b"lang en_US.UTF-8", b"keyboard --vckeymap=us --xlayouts=us", b"timezone Europe/Prague --utc",
         b"rootpw --lock", b"network --bootproto=dhcp --device=link --activate", b"text",
         b"reboot", b"bootloader --location=mbr --append=\"console=ttyS0 quiet\"",
         b"zerombr", b"clearpart --all --initlabel", b"autopart --type=lvm",
         b"firewall --enabled --service=ssh", b"services --enabled=sshd,chronyd",
         b"user --name=admin --groups=wheel --password='$6$x\"y' --iscrypted",
         b"url --url=\"http://example.com/os/$basearch\"", b"firstboot --disable",
         b"skipx", b"eula --agreed", b"logging --level=debug"]

SEL_OPTS = [b"--enforcing", b"--permissive", b"--disabled", b"--e", b"--enf", b"--perm", b"--p",
            b"--dis", b"--d", b"--disable", b"--permissiv", b"--Enforcing", b"--PERMISSIVE",
            b"--permissive=1", b"--e=", b"--", b"-p", b"enforcing", b"''", b"---permissive",
            b"--=x", b"-", b"--permissive#c", b"#--disabled", b"--selinux"]
GOOD_OPTS = SEL_OPTS[:11]

HEADERS = [b"%pre", b"%pre --interpreter=/usr/bin/python3", b"%pre --erroronfail --log=/tmp/pre.log",
           b"%pre-install", b"%post", b"%post --nochroot", b"%post --nochroot --logfile=/root/post.log",
           b"%post --interpreter /bin/bash", b"%onerror", b"%traceback", b"%packages",
           b"%packages --ignoremissing --excludedocs", b"%packages --nocore --inst-langs=en",
           b"%addon com_redhat_kdump --enable --reserve-mb=auto",
           b"%addon org_fedora_oscap",
           b"%addon", b"%anaconda", b"%certificate --filename=ca.pem --dir=/etc/pki/ca-trust/source/anchors"]
BAD_HEADERS = [b"%foo", b"%Post", b"%packages2", b"%end", b"%ksappendx", b"%", b"%pre-post",
               b"%addon_x", b"%PACKAGES", b"%include"]
BODY = [b"echo hello", b"echo \"it's\" > /tmp/x", b"selinux --disabled", b"cat <<'EOF' >/etc/motd",
        b"EOF", b"%endx", b"%%end", b"@core", b"-dracut-config-rescue", b"@^workstation-product-environment",
        b"kernel", b"# comment", b"", b"  ", b"sed -i 's/#x/y/' /etc/fstab", b"%post-x",
        b"  %end-not", b"-----BEGIN CERTIFICATE-----", b"MIIB", b"-----END CERTIFICATE-----",
        b"echo '%end'", b"printf \"%s\\n\" a"]
ENDS = [b"%end", b"%end", b"%end", b"  %end", b"%end # done", b"%end\t", b"%end extra",
        b"%end \"", b"%end '", b"%END", b"%end\x1fx", b"\"%end\"", b"%e\"nd\"",
        "%end\u00a0x".encode(), b"%end\\"]


def sel_line(rng, good=False):
    opts = GOOD_OPTS if good else SEL_OPTS
    n = rng.below(4)
    return b" ".join([b"selinux"] + [rng.pick(opts) for _ in range(n)])


def odd_command(rng):
    forms = [b"\"selinux\"", b"'selinux'", b"sel\\inux", b"s\"el\"inux", b"selinux\\ ", b"\\selinux",
             b"se'l'in\"u\"x", b"selinux#", b"\"sel inux\"", b"sel\"\"inux", b"selinux\"\"",
             b"\"\"", b"''", b"\\", b"selinux\\", b"\"selinux", b"'selinux", b"sel\\\"inux",
             b"SELinux", b"selinux\x1f", "\u00a0selinux".encode(), b"\\#selinux", b"x#selinux"]
    opts = [b"--permissive", b"\"--permissive\"", b"'--disabled'", b"--per\"missive\"", b"--\\disabled",
            b"\"--perm\\issive\"", b"\"--dis\\\"abled\"", b"--enforcing\\", b"--enforcing #x",
            b"'--enforcing", b"--perm'is'sive", b"\"\"--disabled", b"--disabled\"\"", b"\\-\\-disabled"]
    words = [rng.pick(forms)] + [rng.pick(opts) for _ in range(rng.below(3))]
    return b" ".join(words)


def join_lines(rng, lines, break_pct=30):
    out = b""
    for i, line in enumerate(lines):
        br = rng.pick(BREAKS) if rng.chance(break_pct) else b"\n"
        if i == len(lines) - 1 and rng.chance(20):
            br = b""
        out += line + br
    return out


def section(rng, good=True):
    head = rng.pick(HEADERS)
    body = [rng.pick(BODY) for _ in range(rng.below(4))]
    end = b"%end" if good else rng.pick(ENDS)
    return [head] + body + [end]


class Corpus:
    def __init__(self, out):
        self.out = out
        self.n = 0

    def case(self, files, prefix="c"):
        name = "%s%04d" % (prefix, self.n)
        self.n += 1
        d = os.path.join(self.out, name)
        for rel, data in files.items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        os.makedirs(d, exist_ok=True)


def gen_line_ends(c, rng):
    for _ in range(110):
        pool = [lambda: sel_line(rng, True), lambda: rng.pick(OTHER), lambda: b"# comment",
                lambda: b"", lambda: rng.pick(NOT_BREAKS) + sel_line(rng, True),
                lambda: sel_line(rng, True) + rng.pick(NOT_BREAKS)]
        lines = []
        for _ in range(1 + rng.below(6)):
            if rng.chance(15):
                lines += section(rng)
            else:
                lines.append(rng.pick(pool)())
        c.case({"main.ks": join_lines(rng, lines, 60)})


def gen_shlex(c, rng):
    for _ in range(100):
        lines = [rng.pick(OTHER) for _ in range(rng.below(2))]
        lines.append(odd_command(rng))
        if rng.chance(40):
            lines.append(sel_line(rng, True))
        if rng.chance(20):
            lines.append(rng.pick([b"rootpw --plaintext it's", b"lang \"en_US", b"text \\",
                                   b"network --hostname='a b'", b"# it's fine", b"text # it's fine",
                                   b"firstboot --disable#it's"]))
        c.case({"main.ks": join_lines(rng, lines, 10)})


def gen_sections(c, rng):
    for _ in range(110):
        lines = []
        for _ in range(1 + rng.below(4)):
            k = rng.below(10)
            if k < 5:
                lines += section(rng, good=rng.chance(60))
            elif k < 6:
                lines.append(rng.pick(BAD_HEADERS))
            elif k < 7:
                lines += [rng.pick(HEADERS), rng.pick(BODY), rng.pick(HEADERS), b"%end"]
            elif k < 8:
                lines += [rng.pick(HEADERS)] + [rng.pick(BODY)]
            else:
                lines.append(sel_line(rng, True))
        c.case({"main.ks": join_lines(rng, lines, 15)})


def gen_includes(c, rng):
    # relative paths: the working directory first, then the including file's directory
    for _ in range(40):
        files = {}
        sub = rng.pick(["", "inc/", "inc/deeper/"])
        target = rng.pick(["a.ks", "inc/a.ks", "../a.ks", "./a.ks", "deeper/a.ks"])
        files["main.ks"] = join_lines(rng, [sel_line(rng, True), b"%include " + sub.encode() + b"x.ks",
                                            rng.pick([b"", sel_line(rng, True)])], 10)
        files[sub + "x.ks"] = join_lines(rng, [b"# x", b"%include " + target.encode()], 10)
        for place in ["a.ks", "inc/a.ks", "inc/deeper/a.ks", "inc/inc/a.ks"]:
            if rng.chance(50):
                files[place] = join_lines(rng, [sel_line(rng, True)], 10)
        c.case(files)
    # includes inside sections, sections left open, %end inside the included file
    for _ in range(40):
        inc_lines = []
        for _ in range(1 + rng.below(3)):
            inc_lines.append(rng.pick([sel_line(rng, True), b"%end", rng.pick(BODY), rng.pick(HEADERS),
                                       b"echo \"it's", b"%include more.ks", rng.pick(OTHER)]))
        main = []
        for _ in range(1 + rng.below(3)):
            k = rng.below(4)
            if k == 0:
                main += [rng.pick(HEADERS), b"%include part.ks", rng.pick(BODY), b"%end"]
            elif k == 1:
                main += [b"%include part.ks"]
            elif k == 2:
                main += [rng.pick(HEADERS), rng.pick([b"%include part.ks # c", b"  %include   part.ks",
                                                      b"%include", b"%include \"\"", b"%include # x"])]
                main += [b"%end"] if rng.chance(70) else []
            else:
                main.append(sel_line(rng, True))
        files = {"main.ks": join_lines(rng, main, 10), "part.ks": join_lines(rng, inc_lines, 10)}
        if rng.chance(50):
            files["more.ks"] = join_lines(rng, [sel_line(rng, True), rng.pick([b"%end", b"", b"%post"])], 10)
        c.case(files)
    # missing files (Anaconda's %pre may write them), cycles, depth, odd arguments
    for i in range(50):
        k = i % 10
        files = {}
        if k == 0:
            files["main.ks"] = b"selinux --permissive\n%include /tmp/seinstall-nonexistent/part-include\n"
        elif k == 1:
            files["main.ks"] = b"%include missing.ks\nselinux --disabled\n"
        elif k == 2:
            files["main.ks"] = b"selinux --disabled\n%include main.ks\n"
        elif k == 3:
            files["main.ks"] = b"%include b.ks\n"
            files["b.ks"] = b"selinux --permissive\n%include c.ks\n"
            files["c.ks"] = b"%include b.ks\n"
        elif k == 4:
            depth = rng.pick([5, 20, 60, 150, 199])
            files["main.ks"] = b"%include d1.ks\n"
            for d in range(1, depth):
                files["d%d.ks" % d] = b"%%include d%d.ks\n" % (d + 1)
            files["d%d.ks" % depth] = sel_line(rng, True) + b"\n"
        elif k == 5:
            files["main.ks"] = rng.pick([b"%include\n", b"%include \"\"\n", b"%include ''\n",
                                         b"%include 'a b.ks'\n", b"%include a\\ b.ks\n"])
            files["a b.ks"] = b"selinux --permissive\n"
        elif k == 6:
            files["main.ks"] = b"%post\necho x\n%include post.ks\n"
            files["post.ks"] = rng.pick([b"echo y\n%end\n", b"echo y\n", b"%end\nselinux --enforcing\n",
                                         b"%end\n%pre\n", b"selinux --permissive\n"])
            files["main.ks"] += rng.pick([b"", b"%end\n", b"selinux --disabled\n", b"%end\nselinux --disabled\n"])
        elif k == 7:
            files["main.ks"] = b"%include dir\nselinux --permissive\n"
            files["dir/x"] = b""
        elif k == 8:
            files["main.ks"] = b"selinux --enforcing\n%include open.ks\nselinux --disabled\n%include close.ks\nselinux --permissive\n"
            files["open.ks"] = rng.pick([b"%post\necho\n", b"%packages\n@core\n", b"selinux --permissive\n"])
            files["close.ks"] = rng.pick([b"%end\n", b"echo\n%end\n", b"", b"%end \"\n"])
        else:
            files["main.ks"] = rng.pick([b"%include http://example.com/ks/part.ks\n", b"%include a.ks\n%ksappend b.ks\n"])
            files["a.ks"] = b"%ksappend b.ks\nselinux --permissive\n"
            files["b.ks"] = b"selinux --disabled\n"
        c.case(files)


def gen_ksappend(c, rng):
    for _ in range(40):
        files = {}
        line = rng.pick([b"%ksappend app.ks", b"  %ksappend app.ks  ", b"%ksappend", b"%ksappend  app.ks",
                         b"%ksappend\tapp.ks", b"%ksappend missing.ks", b"%ksappendapp.ks app.ks",
                         b"\"%ksappend\" app.ks", b"%ksappend app.ks extra", b"%ksappend inc/app.ks"])
        app = rng.pick([sel_line(rng, True) + b"\n", sel_line(rng, True), b"%post\necho\n",
                        b"%end\n", b"%ksappend app2.ks\n", b"", b"\r", b"selinux --perm\r"])
        files["app.ks"] = app
        files["inc/app.ks"] = b"selinux --disabled\n"
        files["app2.ks"] = b"selinux --permissive\n"
        lines = [sel_line(rng, True)]
        if rng.chance(30):
            lines += [b"%post", line, b"%end"]
        else:
            lines += [line]
        lines += [rng.pick([b"", b"\nselinux --enforcing", sel_line(rng, True)])]
        files["main.ks"] = join_lines(rng, lines, 20)
        c.case(files)


def gen_selinux(c, rng):
    for _ in range(90):
        lines = [sel_line(rng, rng.chance(60)) for _ in range(1 + rng.below(4))]
        if rng.chance(20):
            lines.insert(rng.below(len(lines)), rng.pick(OTHER))
        c.case({"main.ks": join_lines(rng, lines, 5)})


def gen_unicode(c, rng):
    bad = [b"\xff", b"\xc3", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf5\x80\x80\x80",
           b"\xf0\x8f\xbf\xbf", b"\x85", b"\xe9"]
    good = ["\u00e9".encode(), "\U0001F600".encode(), "\ufeff".encode(), "\u200b".encode(),
            "\u00a0".encode(), "\u3000".encode(), "\u2007".encode()]
    for i in range(60):
        where = rng.below(4)
        ch = rng.pick(bad) if i % 2 == 0 else rng.pick(good)
        lines = [b"selinux --permissive", b"# comment", b"%post", b"echo x", b"%end", b"lang en_US.UTF-8"]
        if where == 0:
            lines[1] += ch
        elif where == 1:
            lines[3] += ch
        elif where == 2:
            lines[0] = ch + lines[0]
        else:
            lines[0] += b" " + ch
        files = {"main.ks": join_lines(rng, lines, 5)}
        if i % 7 == 0:
            files["main.ks"] = b"selinux --enforcing\n%include inc.ks\n"
            files["inc.ks"] = b"# " + rng.pick(bad) + b"\nselinux --permissive\n"
        c.case(files)
    # NUL bytes: seinstall refuses them on purpose
    c.case({"main.ks": b"selinux --permissive\n# \x00\n"})
    c.case({"main.ks": b"%post\necho \x00\n%end\n"})


REAL = {
    "workstation": b"""# Fedora Workstation, unattended
#version=DEVEL
text
lang en_US.UTF-8
keyboard --vckeymap=us --xlayouts='us'
timezone America/New_York --utc
network --bootproto=dhcp --device=link --activate --hostname=ws1.example.com
rootpw --lock
user --name=alice --groups=wheel --iscrypted --password='$6$rounds=4096$salt$hash'
zerombr
clearpart --all --initlabel
autopart --type=btrfs
bootloader --location=mbr --append="rhgb quiet"
selinux --enforcing
firewall --enabled --service=mdns
services --enabled=sshd,chronyd
reboot

%packages --exclude-weakdeps
@^workstation-product-environment
@development-tools
-gnome-tour
vim-enhanced
%end

%addon com_redhat_kdump --disable
%end

%post --log=/root/ks-post.log
# keep the "it's" quoting of a shell script intact
echo "it's done" > /etc/motd
cat > /etc/sysconfig/x <<'EOF'
A="b c"
%end-of-heredoc
EOF
for f in /etc/*.conf; do restorecon -v "$f"; done
%end
""",
    "server-include": b"""# server with a chain of includes written by %pre
text
url --url="http://mirror.example.com/fedora/releases/42/Server/x86_64/os/"
%include common.ks
%include /tmp/seinstall-nonexistent/part-include
%pre --interpreter=/usr/bin/bash
disks=$(lsblk -dno NAME | wc -l)
echo "autopart" > /tmp/part-include
%end
selinux --permissive
%packages
@^server-product-environment
%end
%addon org_seinstall --policy=default --relabel=install
%end
""",
    "server-include/common.ks": b"""lang en_US.UTF-8
keyboard us
timezone UTC
%include site/net.ks
""",
    "server-include/site/net.ks": b"""network --bootproto=static --ip=192.0.2.10 --netmask=255.255.255.0 --gateway=192.0.2.1 --nameserver=192.0.2.53
selinux --enforcing
""",
    "rhel-oscap": b"""lang en_US.UTF-8
keyboard us
timezone Europe/Berlin
rootpw --iscrypted $6$abc$def
selinux --enforcing
%addon org_fedora_oscap
    content-type = scap-security-guide
    profile = xccdf_org.ssgproject.content_profile_cis
%end
%addon com_redhat_kdump --enable --reserve-mb='auto'
%end
%certificate --filename=corp-ca.pem --dir=/etc/pki/ca-trust/source/anchors
-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUX
-----END CERTIFICATE-----
%end
%post --nochroot
cp /etc/resolv.conf /mnt/sysimage/etc/resolv.conf
%end
%post
sed -i 's/^SELINUX=.*/SELINUX=enforcing/' /etc/selinux/config
awk '{ print $1 "#" $2 }' /etc/hosts > /tmp/h
%end
""",
    "crlf-windows": b"lang en_US.UTF-8\r\nselinux --permissive\r\n%post\r\necho hi\r\n%end\r\n",
    "missing-end": b"""lang en_US.UTF-8
selinux --disabled
%post
echo forgot the end
""",
    "disabled-after-post": b"""%post
selinux --enforcing
%end
selinux --disabled
%packages
selinux
%end
""",
    "trial": b"""selinux --permissive
%addon org_seinstall --unsupported=warn --relabel=firstboot
%end
%onerror
echo failed
%end
%traceback
echo tb
%end
""",
    "quoting-post": b"""selinux --enforcing
%post --interpreter=/usr/bin/python3
print("it's %s" % "fine")
s = '''%end is not here'''
%end
selinux
""",
    "ksappend-site": b"""lang en_US.UTF-8
%ksappend site.ks
selinux
""",
    "ksappend-site/site.ks": b"selinux --permissive\n",
    "anaconda-section": b"""%anaconda
pwpolicy root --minlen=6 --notstrict
%end
selinux --perm
""",
}


def gen_real(c):
    cases = {}
    for key, data in REAL.items():
        top, _, rest = key.partition("/")
        cases.setdefault(top, {})["main.ks" if not rest else rest] = data
    for top in sorted(cases):
        c.case(cases[top], prefix="r-%s-" % top)


def digest(out):
    h = hashlib.sha256()
    for root, dirs, files in os.walk(out):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(os.path.relpath(p, out).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read() + b"\0")
    return h.hexdigest()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    c = Corpus(out)
    rng = Rng(int(sys.argv[2], 0) if len(sys.argv) > 2 else 0x5e1a57a11)
    gen_line_ends(c, rng)
    gen_shlex(c, rng)
    gen_sections(c, rng)
    gen_includes(c, rng)
    gen_ksappend(c, rng)
    gen_selinux(c, rng)
    gen_unicode(c, rng)
    gen_real(c)
    print(digest(out))


if __name__ == "__main__":
    main()
