#!/usr/bin/env python3
"""Counts GPU jobs, CPU submits, fence signals and vblanks in `trace-cmd report` text (plain or
gzip), with nothing of fencescope: the expectations of ftrace_sample_test.cpp.

    python3 report_counts.py amdgpu.dat.trace-cmd-report.txt.gz

The CPUs' ring buffers of the capture start at different times (the busier ones wrapped), so
the figures other than `events` and `raw ...` are counted from `complete_from_us`, the first
event time of the CPU that started last among those holding at least 1,000 events and half as
many as the busiest CPU (full buffers) and whose first line comes after at least 1,000 lines
and a twentieth of all lines of the others: a job counts when any of its lines (submit, run, finished-fence signal) is at
or after it; signals and vblanks when their line is.

Prints one "key<TAB>value" line per figure:
    complete_from_us            that time, in microseconds
    raw cpu_submits_run <ring>  over the whole text: amdgpu_cs_ioctl whose job was seen running
    busy_us <ring>, span_us, gpu_waits, cpu_waits, critical_path_us   (figures_of_time)
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
    first, count, before = {}, collections.Counter(), {}
    for i, (cpu, us, _, _) in enumerate(sorted(lines, key=lambda l: l[1])):
        if cpu not in first:
            first[cpu], before[cpu] = us, i
        count[cpu] += 1
    most = max(count.values())
    late = [us for cpu, us in first.items() if count[cpu] >= 1000 and 2 * count[cpu] >= most
            and before[cpu] >= max(1000, len(lines) // 20)]
    return max(late + [min(first.values())])


def figures_of_time(lines, jobs, start, out):
    """Busy time per ring, the span, waits and the critical path's length, in microseconds.

    A ring runs the jobs handed to it (amdgpu_sched_run_job) one after the other: a job runs
    from max(its hand-over, the previous job's completion) to its finished-fence signal; busy
    is the union of those runs inside [start, end], end being the last line. The critical path
    goes back from the last completion through the runs that started at their predecessor's
    completion, to the submit (amdgpu_cs_ioctl) of the first one that started at its
    hand-over, and from there, as the submitting thread has no CPU wait in the capture, back to
    the start.
    """
    end = max(us for _, us, _, _ in lines)
    out["span_us"] = end - start
    out["gpu_waits"] = sum(1 for _, us, name, _ in lines if us >= start and name in (
        "drm_sched_job_wait_dep", "drm_sched_job_add_dep"))
    out["cpu_waits"] = sum(1 for _, us, name, _ in lines
                           if us >= start and name == "dma_fence_wait_start")
    runs = collections.defaultdict(list)  # ring -> [(run, done, job)] in hand-over order
    for job in jobs.values():
        if "run" in job and "done" in job and job["done"] >= start:
            runs[job["ring"]].append((job["run"], job["done"], job))
    last = None
    for ring, handed in runs.items():
        handed.sort(key=lambda r: r[0])
        busy, until, previous_done = 0, start, 0
        for run, done, job in handed:
            job["start"] = max(run, previous_done)
            job["after_previous"] = previous_done > run
            previous_done = done
            begin = max(job["start"], until)
            if done > begin:
                busy += done - begin
                until = done
            if last is None or done > last["done"]:
                last, last_ring = job, ring
        out["busy_us " + ring] = busy
    if last is not None:
        chain = [r[2] for r in runs[last_ring]]
        i = chain.index(last)
        while chain[i]["after_previous"] and i > 0:
            i -= 1
        first = chain[i]
        path_start = first.get("cs", first["run"])
        if "cs" in first and out["cpu_waits"] == 0:
            # The submitting thread has no CPU wait in the capture to go back through: it ran
            # from the trace's start (the path's last step back).
            path_start = start
        out["critical_path_us"] = last["done"] - path_start


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
    figures_of_time(lines, jobs, start, out)
    print("complete_from_us\t%d" % start)
    for name, count in sorted(events.items()):
        print("events %s\t%d" % (name, count))
    for key, count in sorted(out.items()):
        if count or key in ("span_us", "gpu_waits", "cpu_waits", "critical_path_us"):
            print("%s\t%d" % (key, count))


if __name__ == "__main__":
    main(sys.argv[1])
