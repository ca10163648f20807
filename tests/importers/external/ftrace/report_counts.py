#!/usr/bin/env python3
"""Counts GPU jobs, CPU submits, fence signals and vblanks in `trace-cmd report` text (plain or
gzip), with nothing of fencescope: the expectations of ftrace_sample_test.cpp.

    python3 report_counts.py amdgpu.dat.trace-cmd-report.txt.gz

The CPUs' ring buffers of the capture start at different times (the busier ones wrapped), so
the figures other than `events` and `raw ...` are counted from `complete_from_us`, the first
event time of the CPU that started last among those holding at least 1,000 events and half as
many as the busiest CPU (full buffers): a job counts when any of its lines (submit, run, finished-fence signal) is at
or after it; signals and vblanks when their line is.

Prints one "key<TAB>value" line per figure:
    complete_from_us            that time, in microseconds
    raw cpu_submits_run <ring>  over the whole text: amdgpu_cs_ioctl whose job was seen running
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


def read(path):
    """(cpu, microseconds, event name, details) per event line."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                secs, frac = m.group(4).split(".")
                us = int(secs) * 1000000 + int(frac.ljust(6, "0")[:6])
                yield int(m.group(3)), us, m.group(5), m.group(6)


def complete_from(lines):
    first, count = {}, collections.Counter()
    for cpu, us, _, _ in lines:
        first.setdefault(cpu, us)
        count[cpu] += 1
    most = max(count.values())
    late = [us for cpu, us in first.items() if count[cpu] >= 1000 and 2 * count[cpu] >= most]
    return max(late + [min(first.values())])


def main(path):
    lines = list(read(path))
    start = complete_from(lines)
    events = collections.Counter()
    jobs = {}  # (context, seqno) -> {"ring", "cs", "run", "done": first time of each}
    out = collections.Counter()
    for cpu, us, name, details in lines:
        events[name] += 1
        if name in ("amdgpu_cs_ioctl", "amdgpu_sched_run_job"):
            d = fields(details)
            job = jobs.setdefault((int(d["context"]), int(d["seqno"])), {"ring": d["timeline"]})
            job.setdefault("cs" if name == "amdgpu_cs_ioctl" else "run", us)
        elif name == "dma_fence_signaled":
            d = fields(details)
            if us >= start:
                out["signals " + d["timeline"]] += 1
            key = (int(d["context"]), int(d["seqno"]))
            if d["driver"] == "amd_sched" and key in jobs:
                jobs[key].setdefault("done", us)
        elif name == "drm_vblank_event" and us >= start:
            out["vblank crtc " + fields(details)["crtc"]] += 1
    for job in jobs.values():
        ring = job["ring"]
        if "cs" in job and "run" in job:
            out["raw cpu_submits_run " + ring] += 1
        if max(job.get(k, 0) for k in ("cs", "run", "done")) < start:
            continue  # every line of it before the complete window
        out["submitted " + ring] += 1
        out["started " + ring] += "run" in job
        out["completed " + ring] += "done" in job
        out["cpu_submits " + ring] += "cs" in job
        out["cpu_submits_run " + ring] += "cs" in job and "run" in job
    print("complete_from_us\t%d" % start)
    for name, count in sorted(events.items()):
        print("events %s\t%d" % (name, count))
    for key, count in sorted(out.items()):
        if count:
            print("%s\t%d" % (key, count))


if __name__ == "__main__":
    main(sys.argv[1])
