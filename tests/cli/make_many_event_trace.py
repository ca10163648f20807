#!/usr/bin/env python3
"""Writes a PyTorch profiler (Kineto) trace with many CUDA events, for the bounds of the HTML and
Markdown reports (tests/cli/many_events_report_test.cpp). One host thread launches a kernel on
one of STREAMS streams, records a fresh event on it and makes the next stream wait for it
(cudaStreamWaitEvent with its cuda_sync "Stream Wait Event", of the current CUPTI shape: no
record correlation), then launches there, and so on for N steps: N kernels, N events, N stream
waits chained round the streams. The host runs ahead of the GPU, as it does in a real program.

usage: make_many_event_trace.py OUT.json [--steps N]
"""
import argparse
import json

HOST_PID, HOST_TID = 4242, 4242
STREAMS = (7, 13, 17, 21)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--steps", type=int, default=6000)
    a = p.parse_args()
    ev = [{"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}]
    corr = 0
    host = 10.0                       # µs
    free = {s: 0.0 for s in STREAMS}  # when each stream's launched work has completed
    released = 0.0                    # when the latest stream wait's record executed

    def call(name, dur):
        nonlocal corr, host
        corr += 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": HOST_PID,
                   "tid": HOST_TID, "ts": round(host, 3), "dur": dur,
                   "args": {"correlation": corr}})
        t = host
        host += dur + 1.0
        return corr, t

    for i in range(a.steps):
        s = STREAMS[i % len(STREAMS)]
        w = STREAMS[(i + 1) % len(STREAMS)]
        c, t = call("cudaLaunchKernel", 3.0)
        ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": c, "pid": HOST_PID,
                   "tid": HOST_TID, "ts": round(t, 3)})
        start = max(t + 5.0, free[s], released)
        dur = 20.0 + (i % 11)
        ev.append({"ph": "X", "cat": "kernel", "name": f"kernel_{i % 5}", "pid": 0, "tid": s,
                   "ts": round(start, 3), "dur": dur,
                   "args": {"correlation": c, "stream": s, "device": 0}})
        ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": c, "pid": 0, "tid": s,
                   "ts": round(start, 3), "bp": "e"})
        free[s] = start + dur
        call("cudaEventRecord", 1.0)
        c, t = call("cudaStreamWaitEvent", 1.0)
        ev.append({"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0,
                   "tid": w, "ts": round(t + 0.2, 3), "dur": 0.5,
                   "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": -1,
                            "wait_on_cuda_event_record_corr_id": -1,
                            "wait_on_cuda_event_id": 1000 + i, "stream": w,
                            "correlation": c, "device": 0}})
        released = free[s]
    with open(a.out, "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": ev}, f)


if __name__ == "__main__":
    main()
