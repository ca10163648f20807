#!/usr/bin/env python3
"""Launch figures of a Kineto / PyTorch profiler trace, straight from the raw JSON.

Independent of fencescope: Python's own json / gzip, the GPU events (cat kernel, gpu_memcpy,
gpu_memset) matched to their CUDA runtime / driver call by args.correlation (the way HTA joins
them), times converted from microseconds to nanoseconds exactly (Decimal, half up). One line per
stream with GPU events:

  stream <name>\tcount N\tp50 X\tp90 X\tp99 X\tmax X\tnegative N\twithout_launch N
         \tql_max N\tql_area A\thost_wait_ns X\thost_wait_gaps N\tkernel_wait_ns X
         \tkernel_wait_gaps N\tother_ns X\tother_gaps N\tunlinked_ns X\tunlinked_gaps N

launch delay = kernel start - (call start + call duration); percentiles by nearest rank.
Queue length: +1 at the call's start (or the kernel's, if earlier), -1 at the kernel's start,
changes at one time summed; ql_area = sum of length * time it was held (ns).
Gaps between the busy intervals of a stream (union of its GPU events), classed by the GPU event
starting the next busy interval: host wait when its call started after the gap began, kernel
wait when not and the gap is shorter than 30000 ns, other otherwise; unlinked without a call.
Stream names: "<process label, else GPU pid> <thread name, else stream tid>".
"""
import gzip
import json
import math
import sys
import zipfile
from collections import defaultdict
from decimal import Decimal, ROUND_HALF_UP

KERNEL_WAIT_MAX_NS = 30000
GPU_CATS = {"kernel", "Kernel", "gpu_memcpy", "gpu_memset", "Memcpy", "Memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}


def load(path):
    if path.endswith(".gz"):
        raw = gzip.open(path).read()
    elif path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            raw = z.read(z.namelist()[0])
    else:
        raw = open(path, "rb").read()
    data = json.loads(raw, parse_float=Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def ns(micros):
    return int((Decimal(micros) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def nearest_rank(sorted_values, pct):
    rank = math.ceil(pct / 100 * len(sorted_values))
    return sorted_values[min(max(rank, 1), len(sorted_values)) - 1]


def main(path):
    events = load(path)
    labels, thread_names = {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        if e.get("name") == "process_labels":
            labels[e.get("pid")] = e["args"].get("labels", "")
        elif e.get("name") == "thread_name":
            thread_names[(e.get("pid"), e.get("tid"))] = e["args"].get("name", "")
    calls = {}
    gpu = []
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        corr = (e.get("args") or {}).get("correlation")
        if e.get("cat") in RUNTIME_CATS and corr is not None:
            calls[corr] = (ns(e["ts"]), ns(e["dur"]))
        elif e.get("cat") in GPU_CATS:
            gpu.append((e.get("pid"), e.get("tid"), ns(e["ts"]), ns(e["dur"]), corr))
    streams = defaultdict(list)
    for pid, tid, ts, dur, corr in gpu:
        streams[(pid, tid)].append((ts, dur, calls.get(corr)))
    for (pid, tid), ops in sorted(streams.items(), key=lambda kv: str(kv[0])):
        name = "%s %s" % (labels.get(pid) or "GPU %s" % pid,
                          (thread_names.get((pid, tid)) or "").rstrip() or "stream %s" % tid)
        delays, changes, without = [], defaultdict(int), 0
        for ts, dur, call in ops:
            if call is None:
                without += 1
                continue
            delays.append(ts - (call[0] + call[1]))
            changes[min(call[0], ts)] += 1
            changes[ts] -= 1
        out = {"count": len(delays), "negative": sum(d < 0 for d in delays),
               "without_launch": without}
        delays.sort()
        for key, pct in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100)):
            out[key] = nearest_rank(delays, pct) if delays else 0
        length, ql_max, area, times = 0, 0, 0, sorted(changes)
        for i, t in enumerate(times):
            length += changes[t]
            if i + 1 < len(times):
                ql_max = max(ql_max, length)
                area += length * (times[i + 1] - t)
        out["ql_max"], out["ql_area"] = ql_max, area
        # busy intervals (union) and the gaps between them
        ops.sort(key=lambda op: op[0])
        busy = []  # [start, end, the op starting it]
        for op in ops:
            ts, dur = op[0], op[1]
            if busy and ts <= busy[-1][1]:
                busy[-1][1] = max(busy[-1][1], ts + dur)
            else:
                busy.append([ts, ts + dur, op])
        for key in ("host_wait", "kernel_wait", "other", "unlinked"):
            out[key + "_ns"], out[key + "_gaps"] = 0, 0
        for prev, nxt in zip(busy, busy[1:]):
            gap_start, gap = prev[1], nxt[0] - prev[1]
            call = nxt[2][2]
            if call is None:
                key = "unlinked"
            elif call[0] > gap_start:
                key = "host_wait"
            elif gap < KERNEL_WAIT_MAX_NS:
                key = "kernel_wait"
            else:
                key = "other"
            out[key + "_ns"] += gap
            out[key + "_gaps"] += 1
        print("stream " + name + "".join("\t%s %d" % (k, v) for k, v in out.items()))


if __name__ == "__main__":
    main(sys.argv[1])
