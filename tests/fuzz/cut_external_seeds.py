#!/usr/bin/env python3
"""Fuzz seeds cut small from the real captures beside the repository (../shared/traces/external,
listed in its SOURCES.md), written into SEEDS/<harness>/ (never into the repository):

  etl            the ETW capture of gpuvis (windows_etl.zip): its first buffer (the logfile
                 header, cut to the bytes it uses, its count of buffers made the cut's) followed
                 by one of the buffers richest in DxgKrnl records
  trace_dat      the trace-cmd capture of gpuvis (amdgpu_trace.zip): its headers (kallsyms left
                 out, of the ftrace formats only print's), options and event formats, with one
                 ring-buffer page per CPU, from the start and from the middle of each CPU's
                 data (offsets rewritten)
  ftrace_text    trace-cmd report text of that capture (first lines and a middle run), the
                 catapult and Perfetto systrace texts, each with at most 8 lines of an event
  systrace_html  catapult's systrace page
  chrome_json    the small Chrome / Kineto traces whole; the large ones (PyTorch, MTIA, ROCm
                 Kineto traces of HTA and TraceLens) with their traceEvents thinned to the first
                 events of each category, other top-level keys kept

Seeds stay small (a few tens of KB): libFuzzer's speed falls with the inputs' length.

    python3 cut_external_seeds.py EXTERNAL_DIR SEEDS
"""
import gzip
import json
import os
import re
import struct
import sys
import zipfile

# The .dat walk of the external ftrace test (trace-cmd.dat.v6(5)'s layout).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "importers",
                                "external", "ftrace"))
import dat_layout  # noqa: E402

# A cut Chrome JSON trace stays under this: every execution parses the whole input, and a
# harness must run over a thousand inputs a second. A trace whose events thinned to one of each
# category are still larger (top-level keys such as deviceProperties) is kept up to
# MAX_JSON_SEED_THINNED.
MAX_JSON_SEED = 10 * 1024
MAX_JSON_SEED_THINNED = 24 * 1024

# An ftrace event line's event name: "TASK-PID [CPU] (FLAGS) SECONDS: NAME:".
FTRACE_EVENT_NAME = re.compile(rb"\]\s+(?:\S+\s+)?\d+\.\d+:\s+([A-Za-z_]\w*):")


def write(seeds, harness, name, data):
    os.makedirs(os.path.join(seeds, harness), exist_ok=True)
    with open(os.path.join(seeds, harness, name), "wb") as f:
        f.write(data)


def read_member(path, suffix):
    with zipfile.ZipFile(path) as z:
        return z.read(next(n for n in z.namelist() if n.endswith(suffix)))


def read_any(path):
    data = open(path, "rb").read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def etl_seeds(external, seeds):
    path = os.path.join(external, "gpuvis", "windows_etl.zip")
    if not os.path.exists(path):
        return
    etl = read_member(path, ".etl")
    buffers = []  # (offset, size): each buffer starts with its size (WMI_BUFFER_HEADER)
    pos = 0
    while pos + 8 <= len(etl):
        size = struct.unpack_from("<I", etl, pos)[0]
        if size < 0x400 or pos + size > len(etl):
            break
        buffers.append((pos, size))
        pos += size
    # Microsoft-Windows-DxgKrnl {802ec45a-1e99-4b83-9920-87c98277ba9d} as stored.
    dxgkrnl = bytes.fromhex("5ac42e80991e834b992087c98277ba9d")
    ranked = sorted(range(1, len(buffers)),
                    key=lambda i: -etl.count(dxgkrnl, buffers[i][0], sum(buffers[i])))
    first = bytearray(etl[buffers[0][0]:sum(buffers[0])])
    # The logfile header (TRACE_LOGFILE_HEADER: BufferSize, then BuffersWritten at 0x24) says how
    # many buffers the capture has; a cut saying 345 is a truncated file, which the strict import
    # refuses only after reading it all. Its count is set to the cut's two buffers.
    header = next(p for p in range(0, len(first) - 0x28, 8)
                  if struct.unpack_from("<II", first, p)[0] == buffers[0][1] and
                  struct.unpack_from("<I", first, p + 0x24)[0] == len(buffers))
    struct.pack_into("<I", first, header + 0x24, 2)
    # The first buffer holds 576 bytes of its 64 KB (bytes in use at 0x30 of WMI_BUFFER_HEADER):
    # cut to them (a buffer's own size, at 0, frames it), a seed is 66 KB instead of 128 KB, and
    # libFuzzer's copy of each input stays under the size ASan maps afresh for every execution.
    in_use = struct.unpack_from("<I", first, 0x30)[0]
    first = first[:max(0x400, (in_use + 7) & ~7)]
    struct.pack_into("<I", first, 0, len(first))
    for i in sorted(ranked[:6]):
        write(seeds, "etl", "gpuvis_buffer%d.etl" % i,
              bytes(first) + etl[buffers[i][0]:sum(buffers[i])])


def ftrace_formats_kept(b, endian, keep):
    """`b` (a .dat's bytes up to its kallsyms) with only the ftrace formats named in `keep`:
    libtraceevent parses every format of each input, most of a fuzzed input's time."""
    pos = b.index(b"\0", 10) + 1 + 6
    for tag in (b"header_page\0", b"header_event\0"):
        pos += len(tag)
        pos += 8 + struct.unpack_from(endian + "Q", b, pos)[0]
    count_at = pos
    pos += 4
    kept = []
    for _ in range(struct.unpack_from(endian + "I", b, count_at)[0]):
        size = struct.unpack_from(endian + "Q", b, pos)[0]
        text = b[pos + 8:pos + 8 + size]
        if any(b"name: %s\n" % name in text for name in keep):
            kept.append(b[pos:pos + 8 + size])
        pos += 8 + size
    return b[:count_at] + struct.pack(endian + "I", len(kept)) + b"".join(kept) + b[pos:]


def dat_seeds(external, seeds):
    path = os.path.join(external, "gpuvis", "amdgpu_trace.zip")
    if not os.path.exists(path):
        return
    b = read_member(path, ".dat")
    layout = dat_layout.walk(b)
    endian, page, cpu_data = layout["endian"], layout["page_size"], layout["cpu_data"]
    cpus = len(cpu_data)
    # Headers up to kallsyms, an empty kallsyms (5.9 MB of the 9.5 MB file), the rest of the
    # headers up to the table of CPU data; the pages follow, their offsets rewritten.
    out = bytearray(ftrace_formats_kept(b[:layout["kallsyms"]], endian, [b"print"]) +
                    struct.pack(endian + "I", 0))
    out += b[layout["printk"]:layout["flyrecord"]]
    for name, where in (("start", 0), ("middle", 1)):
        seed = bytearray(out)
        table_at = len(seed)
        seed += bytes(16 * cpus)
        seed += bytes(-len(seed) % page)  # CPU data starts on a page
        for cpu, (offset, size) in enumerate(cpu_data):
            pages = size // page
            first = 0 if where == 0 else pages // 2
            chunk = b[offset + first * page:offset + min(pages, first + 1) * page]
            struct.pack_into(endian + "QQ", seed, table_at + 16 * cpu, len(seed), len(chunk))
            seed += chunk
        write(seeds, "trace_dat", "amdgpu_%s.dat" % name, bytes(seed))


def thin_lines(lines, per_event):
    """The lines with at most `per_event` of each ftrace event name (other lines all kept)."""
    kept, seen = [], {}
    for line in lines:
        match = FTRACE_EVENT_NAME.search(line)
        if match:
            name = match.group(1)
            if seen.get(name, 0) >= per_event:
                continue
            seen[name] = seen.get(name, 0) + 1
        kept.append(line)
    return kept


def text_seeds(external, seeds):
    report = os.path.join(external, "gpuvis", "derived", "amdgpu.dat.trace-cmd-report.txt.gz")
    if os.path.exists(report):
        lines = read_any(report).split(b"\n")
        # The first 1,000 lines and 400 from the middle, at most 8 of each event (nine in ten
        # are sched_switch): every event kind of the capture (submissions, jobs run, fences
        # signalled, vblanks, prints) in 3 to 5 KB, which a fuzzed copy imports quickly.
        write(seeds, "ftrace_text", "amdgpu_report_head.txt",
              b"\n".join(thin_lines(lines[:1000], 8)))
        mid = len(lines) // 2
        write(seeds, "ftrace_text", "amdgpu_report_middle.txt",
              b"\n".join(thin_lines(lines[mid:mid + 400], 8)))
    for sub, name in (("catapult", "android_systrace.txt"), ("perfetto", None)):
        folder = os.path.join(external, sub)
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            if (name and f == name) or (not name and f.endswith(".systrace")):
                lines = open(os.path.join(folder, f), "rb").read().split(b"\n")
                write(seeds, "ftrace_text", sub + "_" + f, b"\n".join(thin_lines(lines, 8)))
    html = os.path.join(external, "catapult", "trivial_systrace.html")
    if os.path.exists(html):
        write(seeds, "systrace_html", "catapult_trivial_systrace.html", open(html, "rb").read())


def thin(doc, per_category):
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        return None
    kept, seen = [], {}
    for e in events:
        cat = e.get("cat", "") if isinstance(e, dict) else ""
        if seen.get(cat, 0) < per_category:
            seen[cat] = seen.get(cat, 0) + 1
            kept.append(e)
    if isinstance(doc, dict):
        doc = dict(doc)
        doc["traceEvents"] = kept
        return doc
    return kept


def json_seeds(external, seeds):
    small, large = [], []
    for root, _, files in os.walk(external):
        for f in sorted(files):
            if not (f.endswith(".json") or f.endswith(".json.gz")):
                continue
            path = os.path.join(root, f)
            size = os.path.getsize(path)
            if f.endswith(".json") and size <= MAX_JSON_SEED:
                small.append(path)
            elif size <= 40 * 1024 * 1024:
                large.append(path)
    for path in small:
        name = os.path.relpath(path, external).replace(os.sep, "_")
        write(seeds, "chrome_json", name, open(path, "rb").read())
    for path in large:
        try:
            doc = json.loads(read_any(path))
        except (ValueError, OSError):
            continue  # not JSON (a rocprofv3 capture is, but not a trace)
        name = os.path.relpath(path, external).replace(os.sep, "_").replace(".gz", "")
        for per_category in (40, 20, 10, 5, 2, 1):
            thinned = thin(doc, per_category)
            if thinned is None:
                break
            data = json.dumps(thinned, separators=(",", ":")).encode()
            if len(data) <= MAX_JSON_SEED or (per_category == 1 and
                                              len(data) <= MAX_JSON_SEED_THINNED):
                write(seeds, "chrome_json", name, data)
                break


def main(external, seeds):
    etl_seeds(external, seeds)
    dat_seeds(external, seeds)
    text_seeds(external, seeds)
    json_seeds(external, seeds)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
