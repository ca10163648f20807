#!/usr/bin/env python3
"""Counts, with nothing of fencescope, what a ROCm profiler capture holds per hardware queue:
rocprofv3 JSON (.json or .json.gz: rocprofiler-sdk-tool[].buffer_records.kernel_dispatch) or a
rocprof v1 / v2 kernel-trace CSV (timestamps.csv / results.csv). Prints "key<TAB>N" lines:
  gpus                    GPU agents the file lists (JSON: agents of type 2; CSV: GPU ids seen)
  queues                  hardware queues with a dispatch ((GPU, queue id) pairs)
  dispatches              kernel dispatches
  queue G Q packets       dispatches on queue id Q of the G-th GPU (GPUs numbered from 0 in the
                          order of their node ids; CSV: of their GPU ids)
  queue G Q busy_ns       the union of those dispatches' [start, end] intervals
  queue G Q streams       distinct HIP streams (stream_id) among them (JSON only)
  queue G Q stream S      dispatches of HIP stream S on it (JSON only)
"""
import csv
import gzip
import io
import json
import sys


def union_length(intervals):
    total, cur_start, cur_end = 0, None, None
    for start, end in sorted(intervals):
        if cur_end is None or start > cur_end:
            if cur_end is not None:
                total += cur_end - cur_start
            cur_start, cur_end = start, end
        else:
            cur_end = max(cur_end, end)
    if cur_end is not None:
        total += cur_end - cur_start
    return total


def read_json(data):
    doc = json.loads(data)
    gpus, dispatches = [], []
    for tool in doc["rocprofiler-sdk-tool"]:
        agents = [a for a in tool["agents"] if a["type"] == 2]
        agents.sort(key=lambda a: a.get("logical_node_id", a.get("node_id")))
        gpus += [a["id"]["handle"] for a in agents]
        for r in tool["buffer_records"].get("kernel_dispatch", []):
            info = r["dispatch_info"]
            stream = r.get("stream_id", {}).get("handle")
            dispatches.append((info["agent_id"]["handle"], info["queue_id"]["handle"], stream,
                               r["start_timestamp"], r["end_timestamp"]))
    return gpus, dispatches


def read_csv(text):
    rows = list(csv.DictReader(io.StringIO(text)))
    def col(row, *names):
        for n in names:
            if n in row:
                return row[n]
        raise KeyError(names)
    dispatches = []
    for row in rows:
        dispatches.append((int(col(row, "GPU_ID", "gpu-id")), int(col(row, "Queue_ID", "queue-id")),
                           None, int(col(row, "Start_Timestamp", "BeginNs")),
                           int(col(row, "End_Timestamp", "EndNs"))))
    gpus = sorted({d[0] for d in dispatches})
    return gpus, dispatches


def main():
    path = sys.argv[1]
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8")
    gpus, dispatches = read_json(text) if text.lstrip().startswith("{") else read_csv(text)
    number = {handle: i for i, handle in enumerate(gpus)}
    queues = {}
    for agent, queue, stream, start, end in dispatches:
        queues.setdefault((number[agent], queue), []).append((start, end, stream))
    out = {"gpus": len(gpus), "queues": len(queues), "dispatches": len(dispatches)}
    for (g, q), items in queues.items():
        key = f"queue {g} {q}"
        out[f"{key} packets"] = len(items)
        out[f"{key} busy_ns"] = union_length([(s, e) for s, e, _ in items])
        streams = {}
        for _, _, stream in items:
            if stream is not None:
                streams[stream] = streams.get(stream, 0) + 1
        if streams:
            out[f"{key} streams"] = len(streams)
            for stream, n in streams.items():
                out[f"{key} stream {stream}"] = n
    for key, value in out.items():
        print(f"{key}\t{value}")


if __name__ == "__main__":
    main()
