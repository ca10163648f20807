#!/usr/bin/env python3
"""Counts, with nothing of fencescope, the cudaStreamWaitEvent / hipStreamWaitEvent calls of a
Kineto trace (.json or .json.gz) that no cuda_sync event names by its correlation id: the stream
waits such a trace holds but names too little of (neither the waiting stream nor the event) to
place. Prints "key<TAB>N" lines:
  stream_wait_calls         the calls
  stream_waits_without_sync those of them no cuda_sync event names"""
import gzip
import json
import sys


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    synced = {e.get("args", {}).get("correlation") for e in events if e.get("cat") == "cuda_sync"}
    calls = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"
             and e.get("name") in ("cudaStreamWaitEvent", "hipStreamWaitEvent")]
    print(f"stream_wait_calls\t{len(calls)}")
    print(f"stream_waits_without_sync\t"
          f"{sum(1 for e in calls if e.get('args', {}).get('correlation') not in synced)}")


if __name__ == "__main__":
    main(sys.argv[1])
