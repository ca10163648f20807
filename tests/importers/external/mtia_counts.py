#!/usr/bin/env python3
"""Counts, with nothing of fencescope, what an MTIA Kineto trace (mtia_ccp_events, .json or
.json.gz) holds per device stream (args.stream) and which record released each event_wait.
Prints "key<TAB>N" lines:
  streams                  device streams with an event
  stream S packets         events of S other than event_record / event_wait
  stream S busy_ns         the union of those events' intervals
  stream S records         event_record events of S
  stream S waits           event_wait events of S
  stream S waiting_ns      how long S was held by its waits and not running a packet: each
                           wait holds S from when it was queued (its host call, the
                           mtia_runtime event of its args.correlation, when that came first;
                           else its own start) to its end, the earliest queued first (a later
                           one holds S from the end of those before it)
  waits                    event_wait events
  waits_linked             waits whose stream-to-wait-on (wait_on_stream) began a record while
                           the wait held its stream (at or after its start, by its end)
  release_gap_max_ns       the longest time from such a record's start to its wait's end
  pair S W waits           linked waits of S on W
  pair S W waiting_ns      their share of S's waiting_ns
  host_syncs               synchronizeStream calls of the host (mtia_runtime, args.stream_id)
  stream S host_syncs      ... of them on S
  host_syncs_late          ... that returned before everything given to their stream before
                           the call had ended (by the device's timestamps)
  host_sync_tail_ns        added over the calls: the call's return less the moment that work
                           had ended (the return, for the late ones; the call itself when
                           nothing had been given): how long each returned after its work
A stream is given a packet, record or wait by its host call (the mtia_runtime event of its
args.correlation, when that came first) or else at its own start.
Times are read as decimals and turned into whole nanoseconds one by one, as the trace states
them (microseconds with up to three decimals)."""
import collections
import decimal
import gzip
import json
import sys


def ns(us):
    return int(us * 1000)


def subtract(a, b, busy):
    """Length of [a, b] not covered by the sorted, disjoint intervals of busy."""
    covered = sum(max(0, min(b, y) - max(a, x)) for x, y in busy)
    return (b - a) - covered


def disjoint(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        trace = json.load(f, parse_float=decimal.Decimal)
    events = [e for e in trace["traceEvents"] if e.get("cat") == "mtia_ccp_events"
              and e.get("ph") == "X"]
    devices = {e["pid"] for e in events}
    host_calls = {e["args"]["correlation"]: ns(e["ts"]) for e in trace["traceEvents"]
                  if e.get("cat") == "mtia_runtime" and e.get("ph") == "X"
                  and e["pid"] not in devices and "correlation" in e.get("args", {})}
    given = collections.defaultdict(list)  # stream -> (given at, end)
    for e in events:
        start = ns(e["ts"])
        call = host_calls.get(e["args"].get("correlation"))
        given[e["args"]["stream"]].append((call if call is not None and call <= start else start,
                                           start + ns(e["dur"])))
    packets = collections.defaultdict(list)
    records = collections.defaultdict(list)
    waits = collections.defaultdict(list)
    for e in events:
        stream = e["args"]["stream"]
        start = ns(e["ts"])
        end = start + ns(e["dur"])
        if e["name"] == "event_record":
            records[stream].append(start)
        elif e["name"] == "event_wait":
            call = host_calls.get(e["args"].get("correlation"))
            queued = call if call is not None and call <= start else start
            waits[stream].append((start, end, e["args"]["wait_on_stream"], queued))
        else:
            packets[stream].append((start, end))
    streams = set(packets) | set(records) | set(waits)
    print(f"streams\t{len(streams)}")
    pairs = collections.defaultdict(lambda: [0, 0])
    linked = 0
    gap_max = 0
    for s in sorted(streams):
        print(f"stream {s} packets\t{len(packets[s])}")
        busy = disjoint(packets[s])
        print(f"stream {s} busy_ns\t{sum(b - a for a, b in busy)}")
        print(f"stream {s} records\t{len(records[s])}")
        print(f"stream {s} waits\t{len(waits[s])}")
        waiting = 0
        cursor = None
        for start, end, on, queued in sorted(waits[s], key=lambda w: w[3]):
            held_from = queued if cursor is None else max(queued, cursor)
            held = subtract(held_from, end, busy) if end > held_from else 0
            cursor = end if cursor is None else max(cursor, end)
            waiting += held
            begun = [r for r in records.get(on, []) if start <= r <= end]
            if begun:
                linked += 1
                gap_max = max(gap_max, end - max(begun))
                pairs[(s, on)][0] += 1
                pairs[(s, on)][1] += held
        print(f"stream {s} waiting_ns\t{waiting}")
    print(f"waits\t{sum(len(w) for w in waits.values())}")
    print(f"waits_linked\t{linked}")
    print(f"release_gap_max_ns\t{gap_max}")
    syncs = late = tail = 0
    syncs_of = collections.Counter()
    for e in trace["traceEvents"]:
        if (e.get("cat") == "mtia_runtime" and e.get("ph") == "X" and e["pid"] not in devices
                and e.get("name") == "synchronizeStream"):
            syncs += 1
            syncs_of[int(e["args"]["stream_id"])] += 1
            call, ret = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            ends = [end for at, end in given.get(int(e["args"]["stream_id"]), []) if at < call]
            ended = max([call] + ends)
            if ended > ret:
                late += 1
                ended = ret
            tail += ret - ended
    print(f"host_syncs\t{syncs}")
    for s in sorted(syncs_of):
        print(f"stream {s} host_syncs\t{syncs_of[s]}")
    print(f"host_syncs_late\t{late}")
    print(f"host_sync_tail_ns\t{tail}")
    for (s, on), (n, t) in sorted(pairs.items()):
        print(f"pair {s} {on} waits\t{n}")
        print(f"pair {s} {on} waiting_ns\t{t}")


if __name__ == "__main__":
    main(sys.argv[1])
