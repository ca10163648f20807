#!/usr/bin/env python3
"""Counts, with nothing of fencescope, the GPU busy time of one rank trace written by
make_fleet.py inside its ProfilerStep# slices: per stream the union of its kernel / memcpy /
memset intervals clipped to each step, added over streams and steps. Prints "busy_ns<TAB>N",
"steps<TAB>N" and "collective_ns<TAB>N" (NCCL kernel time inside the steps)."""
import json
import sys

GPU_CATS = {"Kernel", "kernel", "Memset", "Memcpy", "gpu_memcpy", "gpu_memset"}


def main():
    with open(sys.argv[1]) as f:
        events = json.load(f)["traceEvents"]
    steps = [(e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000) for e in events
             if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
    by_stream = {}
    collective = []
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in GPU_CATS:
            iv = (e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000)
            by_stream.setdefault(e["tid"], []).append(iv)
            if "nccl" in e["name"]:
                collective.append(iv)
    busy = 0
    for ivs in by_stream.values():
        for lo, hi in steps:
            clipped = sorted((max(a, lo), min(b, hi)) for a, b in ivs if b > lo and a < hi)
            end = None
            for a, b in clipped:
                if end is None or a > end:
                    busy += b - a
                    end = b
                elif b > end:
                    busy += b - end
                    end = b
    coll = sum(b - a for a, b in collective if any(lo <= a <= hi for lo, hi in steps))
    print(f"busy_ns\t{busy}")
    print(f"steps\t{len(steps)}")
    print(f"collective_ns\t{coll}")


if __name__ == "__main__":
    main()
