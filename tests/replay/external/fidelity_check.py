#!/usr/bin/env python3
"""The replay's fidelity figures recomputed from the trace and its replay with Python's sqlite3
alone, through the per-kind views (schemas/event_kinds.sql): nothing of fencescope's C++.

  trace_span_ns / replay_span_ns  from the trace's start (meta start_ns, else its first event)
                                  to the last end of the packets that completed in the trace
                                  (in the replay: those same packet ids, when they completed)
  packets_compared                those packets that started and completed in the replay too
  start_error_ns_p50 / _p99       |replay start - trace start| over them, nearest rank
  step_error_pct_mean             ProfilerStep#N slices run on to the end of the packets submitted
                                  within them, each from the later of its slice's start and the
                                  step before's end (else frames: presents), per step id in both,
                                  |replay length - trace length| / trace length * 100

usage: fidelity_check.py TRACE.db REPLAY.db
"""
import math
import re
import sqlite3
import sys


def start_of(db):
    row = db.execute("SELECT value FROM meta WHERE key = 'start_ns'").fetchone()
    if row:
        return int(row[0])
    return db.execute("SELECT min(ts_ns) FROM events").fetchone()[0]


def packets(db):
    starts = dict(db.execute("SELECT packet_id, min(ts_ns) FROM packet_started GROUP BY packet_id"))
    ends = dict(db.execute("SELECT packet_id, max(ts_ns) FROM packet_completed GROUP BY packet_id"))
    return {p: (starts[p], ends[p]) for p in ends if p in starts}


def nearest_rank(sorted_values, p):
    if not sorted_values:
        return 0
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def steps(db):
    """ProfilerStep#N slices (the first of each N) run on to their GPU work's end, else frames
    ended by presents."""
    slices = {}
    for name, ts, dur in db.execute(
            "SELECT s.value, c.ts_ns, c.duration_ns FROM cpu_slice c JOIN strings s "
            "ON s.id = c.name_sid ORDER BY c.ts_ns"):
        m = re.fullmatch(r"ProfilerStep#(\d+)", name)
        if m and int(m.group(1)) not in slices:
            slices[int(m.group(1))] = (ts, ts + dur)
    if slices:
        ends = dict(db.execute(
            "SELECT packet_id, max(ts_ns) FROM packet_completed GROUP BY packet_id"))
        submitted = [(ts, ends[p]) for p, ts in db.execute(
            "SELECT packet_id, min(ts_ns) FROM packet_submitted GROUP BY packet_id") if p in ends]
        out, previous_end = {}, None
        for n, (begin, end) in sorted(slices.items(), key=lambda kv: (kv[1][0], kv[0])):
            work_end = max([e for s, e in submitted if begin <= s < end], default=end)
            begin = begin if previous_end is None else max(begin, previous_end)
            end = max(begin, end, work_end)
            out[n] = end - begin
            previous_end = end
        return out
    presents = [t for (t,) in db.execute("SELECT ts_ns FROM marker WHERE marker_type = 2")]
    if not presents:
        presents = [t for (t,) in db.execute(
            "SELECT c.ts_ns FROM packet_completed c JOIN packet_submitted s USING (packet_id) "
            "WHERE (s.packet_flags & 16) != 0")]
    if not presents:
        presents = [t for (t,) in db.execute("SELECT ts_ns FROM marker WHERE marker_type = 1")]
    presents = sorted(set(presents))
    first = min([start_of(db)] + presents[:1])
    frames, begin = {}, first
    for n, t in enumerate(presents, 1):
        frames[n] = t - begin
        begin = t
    return frames


def main():
    trace = sqlite3.connect(sys.argv[1])
    replay = sqlite3.connect(sys.argv[2])
    origin = start_of(trace)
    t, r = packets(trace), packets(replay)
    trace_last = max((end for _, end in t.values()), default=origin)
    matched = [p for p in t if p in r]
    replay_last = max((r[p][1] for p in matched), default=origin)
    errors = sorted(abs(r[p][0] - t[p][0]) for p in matched)
    print("trace_span_ns", trace_last - origin)
    print("replay_span_ns", replay_last - origin)
    print("packets_compared", len(matched))
    print("start_error_ns_p50", nearest_rank(errors, 50))
    print("start_error_ns_p99", nearest_rank(errors, 99))
    ts, rs = steps(trace), steps(replay)
    errs = [abs(rs[k] - v) / v * 100 for k, v in ts.items() if v > 0 and k in rs]
    print("step_error_pct_mean", sum(errs) / len(errs) if errs else 0)


if __name__ == "__main__":
    main()
