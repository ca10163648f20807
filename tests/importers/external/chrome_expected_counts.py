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
                      Kernel / Memcpy / Memset) on a device (pid holding such events or cuda_sync)
  packets.<pid>.<tid> the same per device stream
  queues              device streams holding packets, waits or signals
  signals             cudaEventRecord calls whose stream a cuda_sync event names
  waits               "Stream Wait Event" events whose record is found (by record correlation,
                      else the latest earlier resolved record of the same CUDA event id)
  cpu_waits           Event / Stream / Context Sync events with a runtime call of the same
                      correlation id

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
               if e.get("ph") == "X" and (e.get("cat") in PACKET_CATS or e.get("cat") == "cuda_sync")}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            if str(e.get("args", {}).get("labels", "")).startswith("GPU "):
                devices.add(e.get("pid"))

    def is_packet(e):
        return e.get("ph") == "X" and e.get("pid") in devices and e.get("cat") in PACKET_CATS

    def is_device_sync(e):
        return e.get("ph") == "X" and e.get("pid") in devices and e.get("cat") == "cuda_sync"

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

    # Kineto synchronisation.
    runtime = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in RUNTIME_CATS:
            corr = e.get("args", {}).get("correlation")
            if isinstance(corr, int) and corr >= 0:
                runtime[corr] = e
    records = {c: {"ts": e["ts"], "stream": None, "event": None, "device": None}
               for c, e in runtime.items()
               if e.get("name", "").startswith(("cudaEventRecord", "hipEventRecord"))}
    syncs = [e for e in events if is_device_sync(e)]
    for s in syncs:
        a = s.get("args", {})
        r = records.get(a.get("wait_on_cuda_event_record_corr_id"))
        if r is None or r["stream"] is not None:
            continue
        if a.get("wait_on_stream", -1) < 0 or a.get("wait_on_cuda_event_id", -1) < 0:
            continue
        r["stream"], r["event"], r["device"] = a["wait_on_stream"], a["wait_on_cuda_event_id"], s["pid"]
    resolved = {c: r for c, r in records.items() if r["stream"] is not None}
    out["signals"] = len(resolved)
    queues = set(packets)
    for r in resolved.values():
        queues.add((r["device"], r["stream"]))

    def find_record(s, before):
        a = s.get("args", {})
        r = resolved.get(a.get("wait_on_cuda_event_record_corr_id"))
        if r is not None:
            return r
        best = None
        for r in resolved.values():
            if r["device"] == s["pid"] and r["event"] == a.get("wait_on_cuda_event_id") and r["ts"] <= before:
                if best is None or r["ts"] >= best["ts"]:
                    best = r
        return best

    waits = cpu_waits = 0
    for s in syncs:
        a = s.get("args", {})
        call = runtime.get(a.get("correlation"))
        if s.get("name") == "Stream Wait Event":
            if find_record(s, call["ts"] if call else s["ts"]) is not None:
                waits += 1
                queues.add((s["pid"], s["tid"] if s["tid"] >= 0 else a.get("stream")))
        elif s.get("name") in ("Event Sync", "Stream Sync", "Context Sync") and call is not None:
            cpu_waits += 1
    out["waits"] = waits
    out["cpu_waits"] = cpu_waits
    out["queues"] = len(queues)
    for k, v in out.items():
        print(k, v)


if __name__ == "__main__":
    main(sys.argv[1])
