#!/usr/bin/env python3
"""Writes a large Kineto-style trace for `fencescope bench import` by repeating a real one.

Each copy of the source trace's events is shifted in time past the previous copy, and its
correlation ids (flow ids, args correlation / External id / wait_on_cuda_event_record_corr_id)
are offset so launches, flows and waits stay distinct. Metadata (M) events are written once.

usage: generate_large_kineto_trace.py SOURCE.json[.gz] OUT.json [--min-mb 110]
"""
import argparse
import gzip
import json


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--min-mb", type=float, default=110.0)
    args = parser.parse_args()
    events = load(args.source)
    meta = [e for e in events if e.get("ph") == "M"]
    body = [e for e in events if e.get("ph") != "M"]
    times = [e["ts"] for e in body if isinstance(e.get("ts"), (int, float))]
    span = max(times) - min(times) + 1000
    max_corr = max([e["id"] for e in body if isinstance(e.get("id"), int)] +
                   [e.get("args", {}).get("correlation", 0) for e in body] + [0]) + 1
    id_keys = ("correlation", "External id", "wait_on_cuda_event_record_corr_id")
    written = 0
    copy = 0
    with open(args.out, "w") as out:
        out.write('{"schemaVersion": 1, "traceEvents": [\n')
        first = True
        for e in meta:
            out.write(("" if first else ",\n") + json.dumps(e))
            first = False
        while written < args.min_mb * 1e6:
            for e in body:
                e2 = dict(e)
                if isinstance(e2.get("ts"), (int, float)):
                    e2["ts"] = round(e2["ts"] + copy * span, 3)
                if isinstance(e2.get("id"), int):
                    e2["id"] = e2["id"] + copy * max_corr
                a = e2.get("args")
                if isinstance(a, dict):
                    a = dict(a)
                    for k in id_keys:
                        if isinstance(a.get(k), int) and a[k] >= 0:
                            a[k] = a[k] + copy * max_corr
                    e2["args"] = a
                text = ",\n" + json.dumps(e2)
                out.write(text)
                written += len(text)
            copy += 1
        out.write("\n]}\n")
    print(f"{args.out}: {copy} copies, {written / 1e6:.1f} MB of events")


if __name__ == "__main__":
    main()
