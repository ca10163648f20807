#!/usr/bin/env python3
"""GPU operations on HTA's own critical path, from the trace HTA wrote with the path overlaid
(events it put on the path carry args.critical = 1). Prints one line per GPU operation
(kernel, memcpy, memset): "<start ns> <end ns> <1 if on HTA's path else 0>", with the start and
end in the trace's microseconds turned to integer nanoseconds as an importer would."""
import gzip
import json
import sys

GPU = {"kernel", "gpu_memcpy", "gpu_memset"}

with gzip.open(sys.argv[1], "rt") as f:
    trace = json.load(f)
for e in trace["traceEvents"]:
    if e.get("ph") != "X" or e.get("cat") not in GPU:
        continue
    start = round(e["ts"] * 1000)
    end = round((e["ts"] + e["dur"]) * 1000)
    print(start, end, 1 if e.get("args", {}).get("critical") else 0)
