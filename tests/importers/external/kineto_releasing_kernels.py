#!/usr/bin/env python3
"""For each cuda_sync "Stream Wait Event" of a Kineto trace that names the stream its event was
recorded on (wait_on_stream), works out from the raw JSON which kernel released it: the kernel
launched on that stream (device = the sync's pid) before the record call (the call named by
wait_on_cuda_event_record_corr_id; without one, before the wait's own call) that ended last.
Then reads the imported trace with Python's sqlite3 (per-kind views only) and checks that the
wait placed at that cudaStreamWaitEvent call is released by a signal on that stream whose
execution follows that kernel's end, with that kernel the last packet completed on the stream
by then.

Prints `checked N` and one `mismatch ...` line per disagreement; exits 1 on any mismatch.

usage: kineto_releasing_kernels.py TRACE.json[.gz] TRACE.db
"""
import gzip
import json
import sqlite3
import sys
from decimal import Decimal


def ns(us):
    return int(Decimal(str(us)) * 1000)


def main():
    path, db_path = sys.argv[1], sys.argv[2]
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    data = json.loads(raw)
    events = data["traceEvents"] if isinstance(data, dict) else data
    base = int(data.get("baseTimeNanoseconds", 0)) if isinstance(data, dict) else 0
    runtime = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver"):
            c = e.get("args", {}).get("correlation")
            if isinstance(c, int):
                runtime[c] = e
    kernels = []  # (device, stream, launch ns, end ns, name)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            call = runtime.get(e.get("args", {}).get("correlation"))
            launch = ns(call["ts"]) if call is not None and call["ts"] <= e["ts"] else ns(e["ts"])
            kernels.append((e["pid"], e["tid"], launch, ns(e["ts"]) + ns(e.get("dur", 0)), e["name"]))

    db = sqlite3.connect(db_path)
    q = lambda sql, *a: db.execute(sql, a).fetchall()
    queue_name = dict(q("SELECT q.id, s.value FROM queues q JOIN strings s ON s.id = q.name_sid"))
    waits = {ts: (sig,) for ts, sig in q(
        "SELECT w.ts_ns, u.released_by_signal_id FROM fence_wait_queued w JOIN "
        "fence_wait_unblocked u USING (wait_id)")}
    signals = {sid: (queue, ts) for sid, queue, ts in q(
        "SELECT signal_id, queue_id, ts_ns FROM fence_signal_executed")}
    bad, checked = [], 0
    for e in events:
        if e.get("cat") != "cuda_sync" or e.get("name") != "Stream Wait Event":
            continue
        a = e.get("args", {})
        stream = a.get("wait_on_stream", -1)
        if stream is None or stream < 0:
            continue
        call = runtime.get(a.get("correlation"))
        wait_call = ns(call["ts"]) if call is not None else ns(e["ts"])
        record = runtime.get(a.get("wait_on_cuda_event_record_corr_id"))
        before = ns(record["ts"]) if record is not None else wait_call
        ran = [k for k in kernels if k[0] == e["pid"] and k[1] == stream and k[2] < before]
        if not ran:
            continue
        kernel = max(ran, key=lambda k: k[3])
        checked += 1
        got = waits.get(wait_call + base)
        if got is None or got[0] not in signals:
            bad.append(f"mismatch wait at {wait_call}: not placed or not linked")
            continue
        queue, executed = signals[got[0]]
        if not queue_name[queue].endswith(f"stream {stream}"):
            bad.append(f"mismatch wait at {wait_call}: released from {queue_name[queue]}, "
                       f"stream {stream} expected")
            continue
        last = q("SELECT s.value, c.ts_ns FROM packet_completed c JOIN packet_submitted p USING "
                 "(packet_id) JOIN strings s ON s.id = p.name_sid WHERE c.queue_id = ? AND "
                 "c.ts_ns <= ? ORDER BY c.ts_ns DESC LIMIT 1", queue, executed)
        if not last or last[0][0] != kernel[4] or last[0][1] != kernel[3] + base:
            bad.append(f"mismatch wait at {wait_call}: last packet {last[:1]}, expected "
                       f"{kernel[4]} ending {kernel[3] + base}")
    print("checked", checked)
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
