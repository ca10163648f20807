#!/usr/bin/env python3
"""Turns one single-rank PyTorch profiler (Kineto) trace into N rank traces of a distributed job
whose true stragglers and clock offsets are known, and writes those answers to truth.json.

How a fleet is built (all times in integer microseconds, the unit of Kineto's "ts"):

  true time   step k starts at T_k on every rank
  rank r      runs the base trace's step content (its CPU ops, runtime calls and kernels, the
              first --keep-ms of the base step), stretched by a factor f(r, k) (1 unless the rank
              is made slow at that step with --slow), starting at T_k + jitter(r, k)
              then: cudaEventRecord on the compute stream, cudaStreamWaitEvent + cuda_sync
              "Stream Wait Event" on the communication stream, and an NCCL all-reduce kernel
              on that stream from arrival(r, k) = when its compute work ends,
              to E_k = max over ranks of arrival + the transfer time: every rank's collective
              ends at the same true instant (that is what a collective is)
  step end    the ProfilerStep#k slice spans [T_k, E_k]; T_{k+1} = E_k + a gap
  clock       every timestamp of rank r is written as true time + offset(r)

So, per step, the straggler is the rank with the latest arrival, and the others waited
arrival(straggler) - the second latest arrival for it alone. The offsets between ranks are
offset(r) - offset(0). Without --base the step content is a small built-in kernel list.

Writes DIR/ranks/worker_R.pt.trace.json (R = rank) and DIR/truth.json.

Usage: make_fleet.py --out DIR --ranks N --steps K [--base TRACE.json[.gz]] [--keep-ms MS]
                     [--slow RANK:STEP:FACTOR ...] [--no-rank-info] [--seed S]
"""
import argparse
import gzip
import json
import os
import random

COMPUTE_STREAM = 7
COMM_STREAM = 20
GPU_PID = 0
HOST_PID = 4242
HOST_TID = 4242
TRANSFER_US = 900
STEP_GAP_US = 150
NCCL_KERNEL = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"


def open_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def base_steps(path, keep_us, max_steps):
    """The base trace's steps: lists of (rel_ts_us, event dict) of its X events (no
    ProfilerStep slices themselves, no flows), the first keep_us of each step."""
    trace = open_json(path)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    steps = sorted((e for e in events if e.get("ph") == "X" and
                    str(e.get("name", "")).startswith("ProfilerStep#")), key=lambda e: e["ts"])
    xs = sorted((e for e in events if e.get("ph") == "X" and
                 not str(e.get("name", "")).startswith("ProfilerStep#")), key=lambda e: e["ts"])
    out = []
    for s in steps[:max_steps] if max_steps else steps:
        start = int(s["ts"])
        content = []
        for e in xs:
            rel = int(e["ts"]) - start
            if rel < 0 or rel >= keep_us:
                continue
            cat = e.get("cat", "")
            if cat not in ("Operator", "Runtime", "Kernel", "Memset", "Memcpy", "cpu_op",
                           "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset"):
                continue
            content.append((rel, e))
        out.append(content)
    if not out:
        raise SystemExit(f"{path}: no ProfilerStep# slices")
    return out


def builtin_steps():
    """A step for when no real trace is at hand: 40 conv/gemm-like kernels launched from one
    thread, each after a 20 us launch call. The kernels run 0.4-0.8 ms (about 24 ms a step), so
    that a rank made 1.25x slower is later than the arrival jitter (under 4 ms) can make any
    other rank: the slow ranks are the stragglers, as with a real base trace."""
    content = []
    t = 0
    for i in range(40):
        corr = 1000 + i
        name = ["volta_sgemm_128x64_nn", "implicit_convolve_sgemm", "elementwise_kernel",
                "batch_norm_collect_statistics_kernel"][i % 4]
        content.append((t, {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel",
                            "pid": HOST_PID, "tid": HOST_TID, "dur": 20,
                            "args": {"correlation": corr}}))
        content.append((t + 25, {"ph": "X", "cat": "Kernel", "name": name, "pid": GPU_PID,
                                 "tid": COMPUTE_STREAM, "dur": 400 + 100 * (i % 5),
                                 "args": {"device": 0, "stream": COMPUTE_STREAM,
                                          "correlation": corr}}))
        t += 405 + 100 * (i % 5)
    return [content]


def jitter_us(rank, step, seed):
    # Distinct per rank within a step, so the latest arrival is never a tie.
    rnd = random.Random(seed * 1_000_003 + step * 7919 + rank)
    return rnd.randrange(0, 40) * 97 + rank % 97


def offset_us(rank, seed):
    if rank == 0:
        return 0
    rnd = random.Random(seed * 31 + rank)
    return rnd.randrange(-5_000_000, 5_000_000)  # up to +-5 s of clock difference


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--base")
    ap.add_argument("--keep-ms", type=float, default=5.0)
    ap.add_argument("--slow", action="append", default=[],
                    help="RANK:STEP:FACTOR (stretch that rank's compute at that step)")
    ap.add_argument("--no-rank-info", action="store_true",
                    help="write no distributedInfo (the rank then comes from the file name)")
    ap.add_argument("--unnumbered", action="store_true",
                    help="with --no-rank-info: file names without digits (rank = order)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    keep_us = int(args.keep_ms * 1000)
    steps_base = base_steps(args.base, keep_us, 0) if args.base else builtin_steps()
    slow = {}
    for s in args.slow:
        r, k, f = s.split(":")
        slow[(int(r), int(k))] = float(f)
    ranks = args.ranks
    os.makedirs(os.path.join(args.out, "ranks"), exist_ok=True)

    # Content length per base step: the latest end of its events.
    length = [max(rel + int(e.get("dur", 0)) for rel, e in c) for c in steps_base]

    # True times of every step, every rank (the same for all files).
    arrivals = []   # [k][r]
    step_start = []
    step_end = []
    t = 10_000_000  # 10 s: later than any clock offset (+-5 s), so no time is negative
    for k in range(args.steps):
        b = k % len(steps_base)
        step_start.append(t)
        arr = [t + jitter_us(r, k, args.seed) + round(length[b] * slow.get((r, k), 1.0)) + 2
               for r in range(ranks)]
        arrivals.append(arr)
        end = max(arr) + TRANSFER_US
        step_end.append(end)
        t = end + STEP_GAP_US

    for r in range(ranks):
        off = offset_us(r, args.seed)
        events = [
            {"name": "process_name", "ph": "M", "pid": HOST_PID, "tid": 0,
             "args": {"name": f"python rank {r}"}},
            {"name": "process_labels", "ph": "M", "pid": HOST_PID, "tid": 0,
             "args": {"labels": "CPU"}},
            {"name": "process_name", "ph": "M", "pid": GPU_PID, "tid": 0,
             "args": {"name": "python"}},
            {"name": "process_labels", "ph": "M", "pid": GPU_PID, "tid": 0,
             "args": {"labels": "GPU 0"}},
        ]
        corr_base = 10_000_000
        for k in range(args.steps):
            b = k % len(steps_base)
            f = slow.get((r, k), 1.0)
            t0 = step_start[k] + jitter_us(r, k, args.seed)
            cshift = (k + 1) * corr_base  # correlation ids stay unique when steps repeat
            cpu_end = t0
            for rel, e in steps_base[b]:
                n = dict(e)
                n["ts"] = t0 + round(rel * f) + off
                n["dur"] = max(0, round(int(e.get("dur", 0)) * f))
                if "args" in e:
                    a = {key: e["args"][key] for key in ("correlation", "stream", "device")
                         if key in e["args"]}
                    if "correlation" in a:
                        a["correlation"] = int(a["correlation"]) + cshift
                    n["args"] = a
                is_gpu = str(e.get("tid", "")).startswith("stream") or e.get("pid") == GPU_PID
                if is_gpu:
                    n["pid"] = GPU_PID
                    n["tid"] = COMPUTE_STREAM
                    if "args" in n and "stream" in n["args"]:
                        n["args"]["stream"] = COMPUTE_STREAM
                else:
                    n["pid"] = HOST_PID
                    n["tid"] = HOST_TID
                    cpu_end = max(cpu_end, n["ts"] - off + n["dur"])
                events.append(n)
            arrival = arrivals[k][r]
            # The host queues the record, the stream wait and the collective once its CPU work
            # for the step is done (always before the GPU reaches them).
            call = min(cpu_end, arrival - 20) + 1
            c_rec, c_wait, c_nccl = cshift + 9_000_001, cshift + 9_000_002, cshift + 9_000_003
            events += [
                {"ph": "X", "cat": "Runtime", "name": "cudaEventRecord", "pid": HOST_PID,
                 "tid": HOST_TID, "ts": call + off, "dur": 2, "args": {"correlation": c_rec}},
                {"ph": "X", "cat": "Runtime", "name": "cudaStreamWaitEvent", "pid": HOST_PID,
                 "tid": HOST_TID, "ts": call + 4 + off, "dur": 2,
                 "args": {"correlation": c_wait}},
                {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": GPU_PID,
                 "tid": COMM_STREAM, "ts": call + 5 + off, "dur": 0,
                 "args": {"correlation": c_wait, "device": 0, "stream": COMM_STREAM,
                          "wait_on_stream": COMPUTE_STREAM,
                          "wait_on_cuda_event_record_corr_id": c_rec,
                          "wait_on_cuda_event_id": 1}},
                {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": HOST_PID,
                 "tid": HOST_TID, "ts": call + 8 + off, "dur": 3,
                 "args": {"correlation": c_nccl}},
                {"ph": "X", "cat": "Kernel", "name": NCCL_KERNEL, "pid": GPU_PID,
                 "tid": COMM_STREAM, "ts": arrival + off,
                 "dur": step_end[k] - arrival,
                 "args": {"device": 0, "stream": COMM_STREAM, "correlation": c_nccl}},
                {"ph": "X", "cat": "Operator", "name": f"ProfilerStep#{k}", "pid": HOST_PID,
                 "tid": HOST_TID, "ts": step_start[k] + off, "dur": step_end[k] - step_start[k]},
            ]
        events.sort(key=lambda e: e.get("ts", 0))
        doc = {"schemaVersion": 1}
        if not args.no_rank_info:
            doc["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": ranks}
        name = f"trace_{chr(ord('a') + r // 26)}{chr(ord('a') + r % 26)}.json" if args.no_rank_info and \
            args.unnumbered else f"worker_{r}.pt.trace.json"
        path = os.path.join(args.out, "ranks", name)
        with open(path, "w") as out:
            # One event per line: a few MB per rank in tests, ~100 MB in the benchmark.
            out.write("{\n")
            for key, value in doc.items():
                out.write(f'"{key}": {json.dumps(value)},\n')
            out.write('"traceEvents": [\n')
            out.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in events))
            out.write("\n]}\n")

    truth = {"ranks": ranks, "steps": []}
    truth["offsets_ns"] = [(offset_us(r, args.seed) - offset_us(0, args.seed)) * 1000
                           for r in range(ranks)]
    for k in range(args.steps):
        arr = arrivals[k]
        order = sorted(range(ranks), key=lambda r: arr[r])
        late = order[-1]
        second = arr[order[-2]] if ranks > 1 else arr[late]
        truth["steps"].append({
            "step": k, "straggler": late, "lateness_ns": (arr[late] - second) * 1000,
            "slow_ranks": sorted(r for (r, kk) in slow if kk == k),
            "step_ns": [(step_end[k] - step_start[k]) * 1000] * ranks,
            "arrival_ns": [a * 1000 for a in arr],
            "collective_wait_ns": [(max(arr) - a) * 1000 for a in arr],
        })
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
