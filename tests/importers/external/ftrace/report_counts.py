#!/usr/bin/env python3
"""Counts GPU jobs, CPU submits, fence signals and vblanks in `trace-cmd report` text (plain or
gzip), with nothing of fencescope: the expectations of ftrace_sample_test.cpp.

    python3 report_counts.py amdgpu.dat.trace-cmd-report.txt.gz

Prints one "key<TAB>value" line per figure:
    events <name>               event lines per tracepoint name
    submitted <ring>            jobs per ring: (context, seqno) of amdgpu_cs_ioctl or, for jobs
                                first seen running, amdgpu_sched_run_job
    started <ring>              jobs seen running (amdgpu_sched_run_job)
    completed <ring>            jobs whose finished fence (amd_sched, same context and seqno)
                                is signalled after the job was submitted or ran
    cpu_submits <ring>          amdgpu_cs_ioctl lines
    cpu_submits_run <ring>      of which the job was later seen running
    signals <timeline>          dma_fence_signaled lines per timeline
    vblank crtc <n>             drm_vblank_event lines per CRTC
"""
import collections
import gzip
import re
import sys

LINE = re.compile(r"^\s*(.*?)-(\d+)\s+(?:\([^)]*\)\s+)?\[(\d+)\]\s+(?:\S{4,6}\s+)?"
                  r"(\d+\.\d+):\s+(\w+):\s*(.*)$")


def fields(details):
    return dict(re.findall(r"(\w+)=([^,\s]*)", details))


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    events = collections.Counter()
    jobs = {}  # (context, seqno) -> ring
    started = set()
    completed = set()
    cpu = {}
    out = collections.Counter()
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            name, details = m.group(5), m.group(6)
            events[name] += 1
            if name in ("amdgpu_cs_ioctl", "amdgpu_sched_run_job"):
                d = fields(details)
                key = (int(d["context"]), int(d["seqno"]))
                ring = d["timeline"]
                if key not in jobs:
                    jobs[key] = ring
                    out["submitted " + ring] += 1
                if name == "amdgpu_cs_ioctl":
                    cpu[key] = ring
                    out["cpu_submits " + ring] += 1
                elif key not in started:
                    started.add(key)
                    out["started " + ring] += 1
                    if key in cpu:
                        out["cpu_submits_run " + ring] += 1
            elif name == "dma_fence_signaled":
                d = fields(details)
                out["signals " + d["timeline"]] += 1
                key = (int(d["context"]), int(d["seqno"]))
                if d["driver"] == "amd_sched" and key in jobs and key not in completed:
                    completed.add(key)
                    out["completed " + jobs[key]] += 1
            elif name == "drm_vblank_event":
                out["vblank crtc " + fields(details)["crtc"]] += 1
    for name, count in sorted(events.items()):
        print("events %s\t%d" % (name, count))
    for key, count in sorted(out.items()):
        print("%s\t%d" % (key, count))


if __name__ == "__main__":
    main(sys.argv[1])
