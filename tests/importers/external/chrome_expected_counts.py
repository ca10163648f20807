#!/usr/bin/env python3
"""Independent expectations for importing a Chrome / Kineto JSON trace into fencescope.

Reads the raw file with Python's own gzip / zipfile / json (nothing of fencescope) and applies
the mapping rules of issue 7 as written there, printing `key value` lines:

  events              events in the event array (M included)
  phase.<ph>          events per phase letter
  cpu_slice           X and B events that are not device packets or device cuda_sync events
  unclosed_begin      B events no E closes (per thread, file order)
  unmatched_end       E events with no open B
  instant             i / I / R events
  counter_samples     numeric args values of C events
  packets             X events of category kernel / gpu_memcpy / gpu_memset (and the older
                      Kernel / Memcpy / Memset) on a device (pid holding such events or cuda_sync),
                      and MTIA device events (mtia_ccp_events) other than event_record /
                      event_wait
  packets.<pid>.<tid> the same per device stream
  queues              device streams holding packets, waits or signals
  signals             event records placed on a stream: named by a cuda_sync (record
                      correlation id), or claimed by one (the waiting thread's latest record
                      call of no other event: which of the thread's candidates the GPU
                      timestamps pick does not change these counts on the traces under
                      ../shared) with their stream named or taken from the last
                      launch of their thread; implied records (a Stream Wait Event or Event
                      Sync naming a stream but no record; one with no record before it whose
                      event is recorded later on a known stream); one per Stream Sync and per
                      Context Sync; every MTIA event_record
  waits               "Stream Wait Event" events on a stream (every one is placed), and MTIA
                      event_wait events
  waits_linked        ... whose record is placed on a stream; MTIA waits with a record of the
                      stream they wait on (wait_on_stream) begun during them, or before them
                      when they took at most 1 us (schemas/kineto_inference.md)
  waits_inferred      ... of them, linked by inference (record or stream not named; every
                      linked MTIA wait)
  cpu_waits           Event / Stream / Context Sync events with a runtime call of the same
                      correlation id; MTIA host synchronizeStream calls (mtia_runtime with a
                      stream_id), each with a signal of the stream when the stream is in the trace
  cpu_waits_linked    ... of them, released by a signal: an Event Sync whose record is placed on a
                      stream, a Stream Sync naming its stream, a Context Sync after a launch on
                      its device, an MTIA sync of a stream in the trace

usage: chrome_expected_counts.py FILE
"""
import collections
import gzip
import io
import json
import sys
import zipfile

PACKET_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}


def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    elif raw[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            names = [n for n in z.namelist() if not n.endswith("/")]
            raw = z.read(names[0])
    text = raw.decode("utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        # A bare array may lack its closing bracket (and end with a comma).
        data = json.loads(text.rstrip().rstrip(",") + "]")
    return data["traceEvents"] if isinstance(data, dict) else data


def main(path):
    events = load(path)
    out = collections.OrderedDict()
    out["events"] = len(events)
    phases = collections.Counter(e.get("ph") for e in events)
    for ph, n in sorted(phases.items()):
        out["phase." + ph] = n

    devices = {e.get("pid") for e in events
               if e.get("ph") == "X" and (e.get("cat") in PACKET_CATS or e.get("cat") == "cuda_sync"
                                          or e.get("cat") == "mtia_ccp_events")}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            if str(e.get("args", {}).get("labels", "")).startswith("GPU "):
                devices.add(e.get("pid"))

    def is_mtia(e):
        return e.get("ph") == "X" and e.get("pid") in devices and e.get("cat") == "mtia_ccp_events"

    def is_mtia_sync(e):
        return is_mtia(e) and e.get("name") in ("event_record", "event_wait")

    def is_packet(e):
        return e.get("ph") == "X" and e.get("pid") in devices and (
            e.get("cat") in PACKET_CATS or (is_mtia(e) and not is_mtia_sync(e)))

    def is_device_sync(e):
        return e.get("ph") == "X" and e.get("pid") in devices and (
            e.get("cat") == "cuda_sync" or is_mtia_sync(e))

    out["cpu_slice"] = sum(1 for e in events
                           if e.get("ph") in ("X", "B") and not is_packet(e) and not is_device_sync(e))
    stacks = collections.defaultdict(int)
    unmatched_end = 0
    for e in events:
        key = (str(e.get("pid")), str(e.get("tid")))
        if e.get("ph") == "B":
            stacks[key] += 1
        elif e.get("ph") == "E":
            if stacks[key]:
                stacks[key] -= 1
            else:
                unmatched_end += 1
    out["unclosed_begin"] = sum(stacks.values())
    out["unmatched_end"] = unmatched_end
    out["instant"] = sum(1 for e in events if e.get("ph") in ("i", "I", "R"))
    out["counter_samples"] = sum(
        sum(1 for v in e.get("args", {}).values() if isinstance(v, (int, float)) and not isinstance(v, bool))
        for e in events if e.get("ph") == "C")

    packets = collections.Counter((e["pid"], e["tid"]) for e in events if is_packet(e))
    out["packets"] = sum(packets.values())
    for (pid, tid), n in sorted(packets.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        out[("packets.%s.%s" % (pid, tid)).replace(" ", "_")] = n

    # Kineto synchronisation (schemas/kineto_inference.md, written again here from its text).
    runtime = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in RUNTIME_CATS and e.get("pid") not in devices:
            corr = e.get("args", {}).get("correlation")
            if isinstance(corr, int) and corr >= 0:
                runtime[corr] = e
    is_record = lambda e: e.get("name", "").startswith(("cudaEventRecord", "hipEventRecord"))
    records = {c: {"ts": e["ts"], "tid": e["tid"], "stream": None, "event": None,
                   "device": None, "named": False, "stream_named": False}
               for c, e in runtime.items() if is_record(e)}
    by_thread = collections.defaultdict(list)
    for r in records.values():
        by_thread[r["tid"]].append(r)
    for rs in by_thread.values():
        rs.sort(key=lambda r: r["ts"])
    # Launches per host thread: a device packet's runtime call (by correlation id).
    launches = collections.defaultdict(list)
    for e in events:
        if is_packet(e):
            call = runtime.get(e.get("args", {}).get("correlation"))
            if call is not None and not is_record(call) and call["ts"] <= e["ts"]:
                launches[call["tid"]].append((call["ts"], (e["pid"], e["tid"])))
    for ls in launches.values():
        ls.sort(key=lambda x: x[0])
    syncs = [e for e in events if is_device_sync(e)]
    call_ts = lambda s: runtime[s["args"]["correlation"]]["ts"] \
        if s.get("args", {}).get("correlation") in runtime else s["ts"]
    syncs.sort(key=call_ts)
    latest_of_event = {}
    wait_record = {}
    wait_named = set()
    implied = 0
    for i, s in enumerate(syncs):
        if s.get("name") not in ("Stream Wait Event", "Event Sync"):
            continue
        a = s.get("args", {})
        ev = a.get("wait_on_cuda_event_id", -1)
        r = records.get(a.get("wait_on_cuda_event_record_corr_id"))
        if r is not None:
            if not r["named"]:
                r["event"], r["device"], r["named"] = ev, s["pid"], True
            if a.get("wait_on_stream", -1) >= 0 and not r["stream_named"]:
                r["stream"], r["stream_named"] = (s["pid"], a["wait_on_stream"]), True
            wait_named.add(i)
        elif ev is not None and ev >= 0:
            before = call_ts(s)
            call = runtime.get(a.get("correlation"))
            named = (s["pid"], a["wait_on_stream"]) if a.get("wait_on_stream", -1) >= 0 else None
            # A record known (from the capture) to be on another stream than the one the sync
            # names is not the one it waited for.
            on_stream = lambda c: named is None or not c["stream_named"] or c["stream"] == named
            if call is not None:
                for c in reversed([x for x in by_thread[call["tid"]] if x["ts"] < before]):
                    if (c["event"] is None or c["event"] == ev) and on_stream(c):
                        r = c
                        break
            if r is None:
                known = latest_of_event.get(ev)
                if known is not None and known["ts"] < before and on_stream(known):
                    r = known
            if r is None and a.get("wait_on_stream", -1) >= 0:
                r = {"ts": before, "stream": (s["pid"], a["wait_on_stream"]), "event": ev,
                     "device": s["pid"], "named": False, "stream_named": True}
                implied += 1
            if r is None:
                continue
            if r["event"] is None:
                r["event"], r["device"] = ev, s["pid"]
        else:
            continue
        wait_record[i] = r
        if latest_of_event.get(r["event"]) is None or latest_of_event[r["event"]]["ts"] < r["ts"]:
            latest_of_event[r["event"]] = r
    claimed = [r for r in records.values() if r["event"] is not None]
    for r in claimed:
        if r["stream"] is None:
            before = [x for x in launches.get(r["tid"], []) if x[0] < r["ts"]]
            if before:
                r["stream"] = before[-1][1]
    # A wait with no record before it whose event is recorded later in the trace on a known
    # stream: a record implied on that stream just before its call.
    for i, s in enumerate(syncs):
        a = s.get("args", {})
        ev = a.get("wait_on_cuda_event_id", -1)
        if i in wait_record or s.get("name") not in ("Stream Wait Event", "Event Sync") or \
                ev is None or ev < 0:
            continue
        later = sorted((r for r in claimed if r["event"] == ev and r["device"] == s["pid"] and
                        r["stream"] is not None and r["ts"] > call_ts(s)), key=lambda r: r["ts"])
        if later:
            wait_record[i] = {"ts": call_ts(s), "stream": later[0]["stream"], "event": ev,
                              "device": s["pid"], "named": False, "stream_named": False}
            implied += 1
    signals = sum(1 for r in claimed if r["stream"] is not None) + implied
    queues = set(packets)
    for r in list(claimed) + [r for r in wait_record.values() if r not in claimed]:
        if r["stream"] is not None:
            queues.add(r["stream"])
    waits = cpu_waits = cpu_waits_linked = waits_linked = waits_inferred = 0
    device_launch_times = collections.defaultdict(list)
    for e in events:
        if is_packet(e):
            call = runtime.get(e.get("args", {}).get("correlation"))
            device_launch_times[e["pid"]].append(call["ts"] if call is not None and call["ts"] <= e["ts"] else e["ts"])
    for i, s in enumerate(syncs):
        a = s.get("args", {})
        call = runtime.get(a.get("correlation"))
        if s.get("name") == "Stream Wait Event":
            stream = s["tid"] if isinstance(s["tid"], int) and s["tid"] >= 0 else a.get("stream", -1)
            if stream is None or stream < 0:
                continue
            waits += 1
            queues.add((s["pid"], stream))
            r = wait_record.get(i)
            if r is not None and r["stream"] is not None:
                waits_linked += 1
                if not (i in wait_named and r["named"] and r["stream_named"]):
                    waits_inferred += 1
        elif s.get("name") in ("Event Sync", "Stream Sync", "Context Sync") and call is not None:
            cpu_waits += 1
            if s.get("name") == "Stream Sync":
                stream = s["tid"] if isinstance(s["tid"], int) and s["tid"] >= 0 else a.get("stream", -1)
                if stream is not None and stream >= 0:
                    signals += 1
                    cpu_waits_linked += 1
                    queues.add((s["pid"], stream))
            elif s.get("name") == "Context Sync":
                if any(t < call["ts"] for t in device_launch_times.get(s["pid"], [])):
                    signals += 1
                    cpu_waits_linked += 1
            else:
                r = wait_record.get(i)
                if r is not None and r["stream"] is not None:
                    cpu_waits_linked += 1
    # MTIA: each stream (args.stream, on its own track) a queue, each record a signal, each wait
    # placed and linked to a record of the stream it waits on begun while it held its stream.
    mtia_records = collections.defaultdict(list)
    for e in events:
        if is_mtia(e):
            queues.add((e["pid"], e["tid"]))
            if e.get("name") == "event_record":
                mtia_records[(e["pid"], e["args"]["stream"])].append(e["ts"])
                signals += 1
    for e in events:
        if is_mtia(e) and e.get("name") == "event_wait":
            waits += 1
            on = mtia_records.get((e["pid"], e["args"].get("wait_on_stream", -1)), [])
            end = e["ts"] + e["dur"]
            begun = [t for t in on if t <= end]
            if begun and (max(begun) >= e["ts"] or e["dur"] <= 1):
                waits_linked += 1
                waits_inferred += 1
    mtia_streams = {(e["pid"], e["args"]["stream"]) for e in events if is_mtia(e)}
    for e in events:
        if (e.get("ph") == "X" and e.get("cat") == "mtia_runtime" and e.get("pid") not in devices
                and e.get("name") == "synchronizeStream"
                and isinstance(e.get("args", {}).get("stream_id"), int)):
            cpu_waits += 1
            if (e["args"].get("device"), e["args"]["stream_id"]) in mtia_streams:
                signals += 1
                cpu_waits_linked += 1
    out["signals"] = signals
    out["waits"] = waits
    out["waits_linked"] = waits_linked
    out["waits_inferred"] = waits_inferred
    out["cpu_waits"] = cpu_waits
    out["cpu_waits_linked"] = cpu_waits_linked
    out["queues"] = len(queues)
    for k, v in out.items():
        print(k, v)


if __name__ == "__main__":
    main(sys.argv[1])
