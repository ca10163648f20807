#!/usr/bin/env python3
"""Compares a fencescope trace imported from make_cuda_trace.py's output with the truth the
generator wrote from its model. Reads the trace with Python's own sqlite3, through the per-kind
views of schemas/event_kinds.sql; nothing of fencescope's C++ is used.

Prints `name value` lines (counts found) and one `mismatch ...` line per disagreement; exits 1
when there is any mismatch.

usage: check_cuda_import.py TRUTH.json TRACE.db
"""
import json
import sqlite3
import sys

BASE = 1700000000000000000  # baseTimeNanoseconds of make_cuda_trace.py


def main():
    truth = json.load(open(sys.argv[1]))
    db = sqlite3.connect(sys.argv[2])
    q = lambda sql, *a: db.execute(sql, a).fetchall()
    name_of_queue = dict(q("SELECT q.id, s.value FROM queues q JOIN strings s ON s.id = q.name_sid"))
    bad = []
    c = truth["counts"]
    found = {
        "kernels": q("SELECT count(*) FROM packet_completed")[0][0],
        "stream_waits": q("SELECT count(*) FROM fence_wait_queued")[0][0],
        "stream_waits_unblocked": q("SELECT count(*) FROM fence_wait_unblocked")[0][0],
        "cpu_syncs": q("SELECT count(*) FROM cpu_wait_begin")[0][0],
        "gpu_waits_linked": q("SELECT count(*) FROM fence_wait_unblocked u JOIN fence_signal_queued s "
                              "ON s.signal_id = u.released_by_signal_id")[0][0],
        "gpu_waits_inferred": q("SELECT count(*) FROM fence_wait_unblocked WHERE release_link = 2")[0][0],
        "gpu_waits_from_capture": q("SELECT count(*) FROM fence_wait_unblocked WHERE release_link = 1")[0][0],
        "cpu_waits_inferred": q("SELECT count(*) FROM cpu_wait_released WHERE release_link = 2")[0][0],
    }
    want = {"kernels": c["kernels"], "stream_waits": c["stream_waits"],
            "stream_waits_unblocked": c["stream_waits"],
            "cpu_syncs": c["event_syncs"] + c["stream_syncs"] + c["context_syncs"],
            "gpu_waits_linked": c["stream_waits"]}
    for k, v in found.items():
        print(k, v)
        if k in want and want[k] != v:
            bad.append(f"mismatch {k}: trace {v}, truth {want[k]}")

    # Each wait: matched by its cudaStreamWaitEvent call time; its queue, the queue of the
    # signal that released it, and the kernel whose end executed that signal.
    waits = {ts - BASE: (queue, signal) for ts, queue, signal in q(
        "SELECT w.ts_ns, w.queue_id, u.released_by_signal_id FROM fence_wait_queued w "
        "JOIN fence_wait_unblocked u USING (wait_id)")}
    signals = {sid: (queue, ts) for sid, queue, ts in q(
        "SELECT signal_id, queue_id, ts_ns FROM fence_signal_executed")}
    for w in truth["waits"]:
        got = waits.get(w["call_ns"])
        if got is None:
            bad.append(f"mismatch wait {w['correlation']}: not placed")
            continue
        queue, signal = got
        if name_of_queue[queue] != f"GPU {w['device']} stream {w['stream']}":
            bad.append(f"mismatch wait {w['correlation']}: on {name_of_queue[queue]}")
        sq = signals.get(signal)
        if sq is None:
            bad.append(f"mismatch wait {w['correlation']}: no releasing signal")
            continue
        if name_of_queue[sq[0]] != f"GPU {w['device']} stream {w['record_stream']}":
            bad.append(f"mismatch wait {w['correlation']}: released from {name_of_queue[sq[0]]}, "
                       f"truth stream {w['record_stream']}")
        if sq[1] - BASE != w["executed_ns"]:
            bad.append(f"mismatch wait {w['correlation']}: signal executed at {sq[1] - BASE}, "
                       f"truth {w['executed_ns']}")
        if w["kernel_end_ns"] is not None:
            k = q("SELECT s.value FROM packet_completed c JOIN packet_submitted p USING (packet_id) "
                  "JOIN strings s ON s.id = p.name_sid WHERE c.queue_id = ? AND c.ts_ns = ?",
                  sq[0], w["kernel_end_ns"] + BASE)
            if [r[0] for r in k] != [w["kernel"]]:
                bad.append(f"mismatch wait {w['correlation']}: releasing kernel {k}, truth {w['kernel']}")
    # Each CPU sync: on its thread, linked to a signal executed at the releasing kernel's end.
    syncs = {ts - BASE: (fence, value) for ts, fence, value in q(
        "SELECT c.ts_ns, b.fence_id, b.fence_value FROM cpu_wait_begin b JOIN cpu_wait_released r "
        "USING (waiter_id) JOIN threads t ON t.id = b.thread_id JOIN fence_signal_executed c "
        "ON c.fence_id = b.fence_id AND c.fence_value = b.fence_value")}
    calls = {ts - BASE: tid for ts, tid in q(
        "SELECT b.ts_ns, t.tid FROM cpu_wait_begin b JOIN threads t ON t.id = b.thread_id")}
    linked = 0
    for s in truth["syncs"]:
        if s["kernel_end_ns"] is None:
            continue
        if s["kernel_end_ns"] not in syncs:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: no signal executed at "
                       f"{s['kernel_end_ns']}")
        else:
            linked += 1
    print("cpu_syncs_linked_to_truth", linked)
    tids = sorted(set(calls.values()))
    if tids != sorted(set(s["tid"] for s in truth["syncs"])):
        bad.append(f"mismatch sync threads {tids}")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
