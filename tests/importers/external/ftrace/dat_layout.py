#!/usr/bin/env python3
"""Where each CPU's ring-buffer data lies in a trace-cmd .dat (version 6), read by walking the
file's sections as trace-cmd.dat.v6(5) lays them out, with nothing of fencescope: the
expectations of the truncated-file test.

    python3 dat_layout.py amdgpu.dat   (or a zip holding one .dat)

Prints "page_size<TAB>N", and "cpu <n> offset<TAB>N" and "cpu <n> size<TAB>N" per CPU.
"""
import struct
import sys
import zipfile


def dat_bytes(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            return z.read(next(n for n in z.namelist() if n.endswith(".dat")))
    return open(path, "rb").read()


def walk(b):
    """The layout of the .dat bytes `b`: a dict of endian ("<" or ">"), page_size, kallsyms (the
    byte offset of the kallsyms section's size field), printk (that of the printk formats'),
    flyrecord (that of the first CPU's data offset) and cpu_data ([(offset, size)] per CPU)."""
    pos = b.index(b"\0", 10) + 1  # magic, "tracing", version string
    endian = "<" if b[pos] == 0 else ">"
    page_size = struct.unpack_from(endian + "I", b, pos + 2)[0]
    pos += 6

    def num(fmt):
        nonlocal pos
        v = struct.unpack_from(endian + fmt, b, pos)[0]
        pos += struct.calcsize(fmt)
        return v

    def skip(fmt):  # a section: its size, then that many bytes
        nonlocal pos
        size = num(fmt)
        pos += size

    for tag in (b"header_page\0", b"header_event\0"):
        assert b[pos:pos + len(tag)] == tag
        pos += len(tag)
        skip("Q")
    for _ in range(num("I")):  # ftrace formats
        skip("Q")
    for _ in range(num("I")):  # event systems
        pos = b.index(b"\0", pos) + 1
        for _ in range(num("I")):
            skip("Q")
    kallsyms = pos
    skip("I")  # kallsyms
    printk = pos
    skip("I")  # printk formats
    skip("Q")  # saved cmdlines
    cpus = num("I")
    if b[pos:pos + 10] == b"options  \0":
        pos += 10
        while num("H") != 0:
            skip("I")
    assert b[pos:pos + 10] == b"flyrecord\0", b[pos:pos + 10]
    pos += 10
    flyrecord = pos
    cpu_data = [(num("Q"), num("Q")) for _ in range(cpus)]
    return {"endian": endian, "page_size": page_size, "kallsyms": kallsyms, "printk": printk,
            "flyrecord": flyrecord, "cpu_data": cpu_data}


def main(path):
    layout = walk(dat_bytes(path))
    print("page_size\t%d" % layout["page_size"])
    for cpu, (offset, size) in enumerate(layout["cpu_data"]):
        print("cpu %d offset\t%d" % (cpu, offset))
        print("cpu %d size\t%d" % (cpu, size))


if __name__ == "__main__":
    main(sys.argv[1])
