#!/usr/bin/env python3
"""Measures, with nothing of fencescope, how often a guess at the cudaStreamWaitEvent calls of a
Kineto trace without cuda_sync events would contradict the trace's GPU timestamps: the reason
fencescope places no wait for such calls (README, "Why did a CUDA stream wait?").

The guess, per call with no cuda_sync event of its correlation id, on its thread:
  waiting stream  the stream of the next kernel / memcpy / memset the thread launches after it;
  waited stream   the stream of the last one it launched before (the record call's, when a
                  cudaEventRecord call comes between), other than the waiting stream;
  release         when the waited stream's work launched before the record (or the call)
                  had ended.
A guess is contradicted when the waiting stream's next packet started before that release.

usage: stream_wait_guess_check.py TRACE.json[.gz]
prints: calls without sync, guessed, contradicted, and the calls no guess could be made for."""
import collections
import gzip
import json
import sys

PACKET_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    packet_of = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in PACKET_CATS:
            packet_of.setdefault(e["args"].get("correlation"), e)
    synced = {e.get("args", {}).get("correlation") for e in events if e.get("cat") == "cuda_sync"}
    calls = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"),
                   key=lambda e: (e["tid"], e["ts"]))
    launch_ts = {e["args"].get("correlation"): e["ts"] for e in calls
                 if e["args"].get("correlation") in packet_of}
    by_stream = collections.defaultdict(list)
    for p in packet_of.values():
        by_stream[(p["pid"], p["tid"])].append(p)
    counts = collections.Counter()
    for i, call in enumerate(calls):
        if call["name"] != "cudaStreamWaitEvent" or call["args"].get("correlation") in synced:
            continue
        counts["calls without sync"] += 1
        following = None
        for e in calls[i + 1:]:
            if e["tid"] != call["tid"]:
                break
            if e["args"].get("correlation") in packet_of:
                following = packet_of[e["args"]["correlation"]]
                break
        if following is None:
            counts["no launch after"] += 1
            continue
        waiting = (following["pid"], following["tid"])
        record, waited = None, None
        for e in reversed(calls[:i]):
            if e["tid"] != call["tid"]:
                break
            if record is None and waited is None and e["name"].startswith("cudaEventRecord"):
                record = e
            p = packet_of.get(e["args"].get("correlation"))
            if p is not None and (p["pid"], p["tid"]) != waiting:
                waited = (p["pid"], p["tid"])
                break
        if waited is None:
            counts["no launch on another stream before"] += 1
            continue
        at = record["ts"] if record else call["ts"]
        done = [p["ts"] + p["dur"] for p in by_stream[waited]
                if launch_ts.get(p["args"].get("correlation"), float("inf")) <= at]
        if not done:
            counts["no work before"] += 1
            continue
        counts["guessed"] += 1
        if following["ts"] < max(done) - 0.001:
            counts["contradicted"] += 1
    for key in ("calls without sync", "guessed", "contradicted", "no launch after",
                "no launch on another stream before", "no work before"):
        print(f"{key}\t{counts[key]}")


if __name__ == "__main__":
    main(sys.argv[1])
