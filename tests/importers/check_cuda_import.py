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
HELD_NS = 10000        # a wait that held its waiter longer than this must be linked exactly
SAME_MOMENT_NS = 5000  # clocks and wake-ups: a release this close after is the same moment


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
    # signal that released it, the record call that queued that signal and the kernel whose end
    # executed it. A wait that held its stream (held_ns > HELD_NS) must be linked exactly; one
    # that held nothing only to a signal executed by the time its stream went on (which record
    # it was leaves no trace in the timestamps), counted in unheld_linked_elsewhere.
    waits = {ts - BASE: (queue, signal, unblocked) for ts, queue, signal, unblocked in q(
        "SELECT w.ts_ns, w.queue_id, u.released_by_signal_id, u.ts_ns FROM fence_wait_queued w "
        "JOIN fence_wait_unblocked u USING (wait_id)")}
    signals = {sid: (queue, ts, queued) for sid, queue, ts, queued in q(
        "SELECT e.signal_id, e.queue_id, e.ts_ns, s.ts_ns FROM fence_signal_executed e "
        "JOIN fence_signal_queued s USING (signal_id)")}
    elsewhere = 0
    for w in truth["waits"]:
        got = waits.get(w["call_ns"])
        if got is None:
            bad.append(f"mismatch wait {w['correlation']}: not placed")
            continue
        queue, signal, unblocked = got
        if name_of_queue[queue] != f"GPU {w['device']} stream {w['stream']}":
            bad.append(f"mismatch wait {w['correlation']}: on {name_of_queue[queue]}")
        sq = signals.get(signal)
        if sq is None:
            bad.append(f"mismatch wait {w['correlation']}: no releasing signal")
            continue
        exact = (name_of_queue[sq[0]] == f"GPU {w['device']} stream {w['record_stream']}" and
                 sq[1] - BASE == w["executed_ns"] and
                 ("record_call_ns" not in w or sq[2] - BASE == w["record_call_ns"]))
        if w.get("held_ns", HELD_NS + 1) <= HELD_NS:
            if not exact:
                elsewhere += 1
            if sq[1] > unblocked + SAME_MOMENT_NS:
                bad.append(f"mismatch wait {w['correlation']}: linked to a signal executed at "
                           f"{sq[1] - BASE}, after the wait ended at {unblocked - BASE}")
            continue
        if name_of_queue[sq[0]] != f"GPU {w['device']} stream {w['record_stream']}":
            bad.append(f"mismatch wait {w['correlation']}: released from {name_of_queue[sq[0]]}, "
                       f"truth stream {w['record_stream']}")
        if sq[1] - BASE != w["executed_ns"]:
            bad.append(f"mismatch wait {w['correlation']}: signal executed at {sq[1] - BASE}, "
                       f"truth {w['executed_ns']}")
        if "record_call_ns" in w and sq[2] - BASE != w["record_call_ns"]:
            bad.append(f"mismatch wait {w['correlation']}: signal of the record called at "
                       f"{sq[2] - BASE}, truth {w['record_call_ns']}")
        if w["kernel_end_ns"] is not None:
            k = q("SELECT s.value FROM packet_completed c JOIN packet_submitted p USING (packet_id) "
                  "JOIN strings s ON s.id = p.name_sid WHERE c.queue_id = ? AND c.ts_ns = ?",
                  sq[0], w["kernel_end_ns"] + BASE)
            if [r[0] for r in k] != [w["kernel"]]:
                bad.append(f"mismatch wait {w['correlation']}: releasing kernel {k}, truth {w['kernel']}")
    # Each CPU sync (matched by its call time: the cuda_sync event begins 500 ns after it): on
    # its thread, released by the signal of its fence and value, executed by its release. One
    # that waited (held_ns > HELD_NS) at the releasing kernel's end and, for an Event Sync, by
    # the signal of the record it waited for.
    syncs = {b - BASE - 500: (tid, executed, queued, released) for b, tid, executed, queued,
             released in q(
        "SELECT b.ts_ns, t.tid, e.ts_ns, s.ts_ns, r.ts_ns FROM cpu_wait_begin b "
        "JOIN cpu_wait_released r USING (waiter_id) JOIN threads t ON t.id = b.thread_id "
        "LEFT JOIN fence_signal_queued s ON s.fence_id = b.fence_id AND "
        "s.fence_value = b.fence_value LEFT JOIN fence_signal_executed e "
        "ON e.signal_id = s.signal_id")}
    linked = 0
    for s in truth["syncs"]:
        got = syncs.get(s["call_ns"])
        if got is None:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: not placed")
            continue
        tid, executed, queued, released = got
        if tid != s["tid"]:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: on thread {tid}")
        if executed is None or executed > released:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: not linked")
            continue
        linked += 1
        if s["kernel_end_ns"] is None or s.get("held_ns", HELD_NS + 1) <= HELD_NS:
            continue
        if executed - BASE != s["kernel_end_ns"]:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: released by a signal "
                       f"executed at {executed - BASE}, truth {s['kernel_end_ns']}")
        if "record_call_ns" in s and queued - BASE != s["record_call_ns"]:
            bad.append(f"mismatch sync {s['kind']} {s['correlation']}: released by the record "
                       f"called at {queued - BASE}, truth {s['record_call_ns']}")
    print("unheld_linked_elsewhere", elsewhere)
    print("cpu_syncs_linked_to_truth", linked)
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
