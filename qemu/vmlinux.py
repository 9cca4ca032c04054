#!/usr/bin/python3
"""vmlinux.py BZIMAGE OUT — cut the uncompressed ELF vmlinux out of an x86 bzImage.

Like the kernel's scripts/extract-vmlinux, for the xz and zstd payloads Debian uses: find the
compressed stream's magic, decompress, and keep the result only if it is an ELF file.
"""
import lzma
import subprocess
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    elf = None
    i = data.find(b"\xfd7zXZ\x00")
    while elf is None and i >= 0:
        try:
            elf = lzma.LZMADecompressor().decompress(data[i:])
        except lzma.LZMAError:
            i = data.find(b"\xfd7zXZ\x00", i + 1)
    if elf is None:
        i = data.find(b"\x28\xb5\x2f\xfd")
        if i >= 0:
            r = subprocess.run(["zstd", "-dc"], input=data[i:], capture_output=True)
            elf = r.stdout
    if not elf or not elf.startswith(b"\x7fELF"):
        sys.exit("vmlinux.py: no xz or zstd ELF payload in %s" % src)
    with open(out, "wb") as f:
        f.write(elf)


if __name__ == "__main__":
    main()
