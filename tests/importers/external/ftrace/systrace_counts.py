#!/usr/bin/env python3
"""Counts ftrace events and atrace markers in a systrace file (HTML page, or ftrace text as
systrace writes it), with nothing of fencescope: the expectations of systrace_sample_test.cpp.

    python3 systrace_counts.py trivial_systrace.html

The ftrace text of an HTML page is the body of its first <script class="trace-data"> block
that is not JSON, or the JavaScript string `var linuxPerfData = "..."`. Lines may still end in
the string's `\\n\\` escape. Prints one "key<TAB>value" line per figure:
    events <name>               event lines per event name
    bad_lines                   non-blank, non-comment lines that are not event lines
    slices <tid> <name>         atrace B ... E pairs per thread (E closes the thread's last B)
    open_slices                 B (and S) never ended
    end_without_begin           E with no open B on the thread, F with no S
    async <name>                atrace S ... F pairs (by process, name and cookie)
    counter <pid> <name>        atrace C samples per process and counter
    text_markers                print / tracing_mark_write lines that are not atrace markers
"""
import collections
import re
import sys

LINE = re.compile(r"^(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:[^\s:]{4,6}\s+)?"
                  r"(\d+\.\d+):\s+([^\s:]+):\s*(.*)$")
PRINT_IP = re.compile(r"^(?:0x)?[0-9a-fA-F]{1,16}:\s+(.*)$")


def unescape_js(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            out.append({"n": "\n", "t": "\t", "r": "", "\n": ""}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def ftrace_text(data):
    if not re.match(r"\s*(<!doctype html|<html)", data, re.I):
        return data
    for m in re.finditer(r"<script[^>]*trace-data[^>]*>(.*?)</script>", data, re.S | re.I):
        body = m.group(1).strip()
        if body and body[0] not in "[{":
            return body
    m = re.search(r"linuxPerfData\s*=\s*\"(.*?)(?<!\\)\"", data, re.S)
    return unescape_js(m.group(1)) if m else ""


def main(path):
    out = collections.Counter()
    stacks = collections.defaultdict(list)
    async_open = {}
    for raw in ftrace_text(open(path, errors="replace").read()).split("\n"):
        line = raw.strip()
        if line.endswith("\\n\\"):
            line = line[:-3].strip()
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            out["bad_lines"] += 1
            continue
        tid, name, details = int(m.group(2)), m.group(5), m.group(6).strip()
        out["events " + name] += 1
        if name not in ("print", "tracing_mark_write", "0"):
            continue
        ip = PRINT_IP.match(details)
        text = ip.group(1).strip() if ip else details
        parts = text.split("|")
        kind = parts[0]
        if kind == "B" and len(parts) >= 3:
            stacks[tid].append("|".join(parts[2:]))
        elif kind == "E" and len(parts) <= 3:
            if stacks[tid]:
                out["slices %d %s" % (tid, stacks[tid].pop())] += 1
            else:
                out["end_without_begin"] += 1
        elif kind == "C" and len(parts) >= 4:
            out["counter %s %s" % (parts[1], "|".join(parts[2:-1]))] += 1
        elif kind in ("S", "F") and len(parts) >= 4:
            key = (parts[1], "|".join(parts[2:-1]), parts[-1])
            if kind == "S":
                async_open[key] = True
            elif async_open.pop(key, None):
                out["async " + key[1]] += 1
            else:
                out["end_without_begin"] += 1
        else:
            out["text_markers"] += 1
    out["open_slices"] += sum(len(s) for s in stacks.values()) + len(async_open)
    for key, count in sorted(out.items()):
        print("%s\t%d" % (key, count))


if __name__ == "__main__":
    main(sys.argv[1])
