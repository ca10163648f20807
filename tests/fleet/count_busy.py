#!/usr/bin/env python3
"""Counts, with nothing of fencescope, the GPU busy time of one PyTorch trace (a rank written by
make_fleet.py, or a real Kineto trace, .json or .json.gz): per stream (pid, tid) the union of its
kernel / memcpy / memset intervals (and MTIA streams' work: mtia_ccp_events other than
event_record / event_wait). Prints "key<TAB>N" lines:
  busy_ns        the unions clipped to each ProfilerStep# slice, added over streams and steps
  steps          ProfilerStep# slices
  collective_ns  NCCL kernel time of the kernels that start inside a step
  trace_busy_ns  the unions over the whole trace, added over streams
  trace_queues   streams with a kernel, memcpy or memset
  step_id_min, step_id_max  the lowest and highest N of ProfilerStep#N (-1: none), of the
                 steps kept
  step N         1 for each step id N kept
  cut_off N      1 for each step id N cut off: its (first) slice ends after the trace's last
                 record, the latest of every event's ts and every kernel / memcpy / memset's end
  steps_cut_off  how many
Times are read as decimals and turned into whole nanoseconds one by one, as the trace states
them (microseconds with up to three decimals)."""
import decimal
import gzip
import json
import sys

GPU_CATS = {"Kernel", "kernel", "Memset", "Memcpy", "gpu_memcpy", "gpu_memset"}


def is_gpu_work(e):
    """A kernel / memcpy / memset, or an MTIA device stream's work (mtia_ccp_events other than
    its event records and waits)."""
    if e.get("ph") != "X":
        return False
    if e.get("cat") == "mtia_ccp_events":
        return e.get("name") not in ("event_record", "event_wait")
    return e.get("cat") in GPU_CATS


def ns(us):
    return int(decimal.Decimal(us) * 1000)


def union(intervals):
    total, end = 0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def step_id(name):
    rest = name[len("ProfilerStep#"):]
    return int(rest) if name.startswith("ProfilerStep#") and rest.isdigit() else None


def main():
    opener = gzip.open if sys.argv[1].endswith(".gz") else open
    with opener(sys.argv[1], "rt") as f:
        trace = json.load(f, parse_float=decimal.Decimal)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    steps, first = [], {}
    last_record = None
    for e in events:
        if "ts" in e and e.get("ph") != "M":
            t = ns(e["ts"])
            if is_gpu_work(e) or (e.get("ph") == "X" and e.get("name") == "event_wait"
                                  and e.get("cat") == "mtia_ccp_events"):
                t += ns(e.get("dur", 0))
            last_record = t if last_record is None else max(last_record, t)
        if e.get("ph") == "X" and step_id(str(e.get("name", ""))) is not None:
            start = ns(e["ts"])
            steps.append((start, start + ns(e["dur"])))
            n = step_id(e["name"])
            if n not in first or start < first[n][0]:
                first[n] = steps[-1]
    cut_off = {n for n, (_, end) in first.items() if end > last_record}
    ids = set(first) - cut_off
    by_stream = {}
    collective = []
    for e in events:
        if is_gpu_work(e):
            start = ns(e["ts"])
            iv = (start, start + ns(e.get("dur", 0)))
            by_stream.setdefault((e["pid"], e["tid"]), []).append(iv)
            if "nccl" in e["name"]:
                collective.append(iv)
    busy = 0
    for ivs in by_stream.values():
        for lo, hi in steps:
            busy += union((max(a, lo), min(b, hi)) for a, b in ivs if b > lo and a < hi)
    coll = sum(b - a for a, b in collective if any(lo <= a <= hi for lo, hi in steps))
    print(f"busy_ns\t{busy}")
    print(f"steps\t{len(steps)}")
    print(f"collective_ns\t{coll}")
    print(f"trace_busy_ns\t{sum(union(ivs) for ivs in by_stream.values())}")
    print(f"trace_queues\t{len(by_stream)}")
    print(f"step_id_min\t{min(ids) if ids else -1}")
    print(f"step_id_max\t{max(ids) if ids else -1}")
    for n in sorted(ids):
        print(f"step {n}\t1")
    for n in sorted(cut_off):
        print(f"cut_off {n}\t1")
    print(f"steps_cut_off\t{len(cut_off)}")


if __name__ == "__main__":
    main()
