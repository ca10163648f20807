#!/usr/bin/env python3
"""Counts, with nothing of fencescope, what an `nsys export --type sqlite` file holds, reading
its raw tables with Python's sqlite3. Prints "key<TAB>N" lines:
  packets                    kernels + memcpys + memsets
  kernels / memcpys / memsets
  stream D S packets         packets on GPU D, stream S (streams of one process)
  runtime_calls              rows of CUPTI_ACTIVITY_KIND_RUNTIME (+ _DRIVER)
  launches_linked            packets whose correlationId is an API call of their process that
                             started no later than the packet did
  syncs                      SYNCHRONIZATION rows
  syncs stream_wait / event_sync / stream_sync / context_sync
                             ... by the API call joined on (process, correlationId); a row whose
                             call is missing is counted by its shape (event and stream: stream
                             wait; event: event sync; stream: stream sync; neither: context)
  cpu_waits                  event / stream / context syncs whose call is in the file
  gpu_waits                  stream waits naming a stream
  event_records              cudaEventRecord* / cuEventRecord* calls
  os_calls                   rows of OSRT_API (futex, poll, ioctl, ...)
  nvtx_ranges                NVTX push/pop and start/end ranges (eventType 59, 60, 70, 71)
                             that have an end
  memcpy KIND bytes          bytes of the memcpys of CUPTI copy kind KIND (1 HtoD, 2 DtoH,
                             8 DtoD, 10 PtoP, ...), summed
  memset bytes               bytes of the memsets, summed
  nvtx_marks                 NVTX marks (eventType 34, 65)
  nvtx_domain NAME ranges    NVTX ranges in the domain created (eventType 75) as NAME by their
                             process (domainId other than 0)
  processes_with_gpu_work    distinct processes of the packets
"""
import sqlite3
import sys
from collections import Counter

NONE = 0xFFFFFFFF


def pid_of(global_id):
    return (global_id >> 24) & 0xFFFFFF


def main(path):
    db = sqlite3.connect("file:" + path + "?mode=ro&immutable=1", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    out = Counter()
    calls = {}
    for table in ("CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"):
        if table not in tables:
            continue
        for start, tid, corr, name in db.execute(
                f"SELECT r.start, r.globalTid, r.correlationId, s.value FROM {table} r "
                "LEFT JOIN StringIds s ON s.id = r.nameId"):
            out["runtime_calls"] += 1
            calls[(pid_of(tid), corr)] = (start, name or "")
            if (name or "").startswith(("cudaEventRecord", "cuEventRecord")):
                out["event_records"] += 1
    pids = set()
    for table, key in (("CUPTI_ACTIVITY_KIND_KERNEL", "kernels"),
                       ("CUPTI_ACTIVITY_KIND_MEMCPY", "memcpys"),
                       ("CUPTI_ACTIVITY_KIND_MEMSET", "memsets")):
        out[key] += 0
        if table not in tables:
            continue
        for start, dev, stream, corr, gpid in db.execute(
                f"SELECT start, deviceId, streamId, correlationId, globalPid FROM {table}"):
            out[key] += 1
            out["packets"] += 1
            out[f"stream {dev} {stream} packets"] += 1
            pids.add(pid_of(gpid))
            call = calls.get((pid_of(gpid), corr))
            if call and call[0] <= start:
                out["launches_linked"] += 1
    out["processes_with_gpu_work"] = len(pids)
    kinds = {1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA", 6: "AtoD", 7: "DtoA",
             8: "DtoD", 9: "HtoH", 10: "PtoP"}
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in tables:
        for size, kind in db.execute("SELECT bytes, copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY"):
            out[f"memcpy {kinds.get(kind, kind)} bytes"] += size
    if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:
        for (size,) in db.execute("SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMSET"):
            out["memset bytes"] += size
    out["syncs"] += 0
    out["cpu_waits"] += 0
    out["gpu_waits"] += 0
    if "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" in tables:
        for stream, corr, gpid, event in db.execute(
                "SELECT streamId, correlationId, globalPid, eventId "
                "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
            out["syncs"] += 1
            call = calls.get((pid_of(gpid), corr))
            name = call[1] if call else ""
            if name.startswith(("cudaStreamWaitEvent", "cuStreamWaitEvent")):
                kind = "stream_wait"
            elif name.startswith(("cudaEventSynchronize", "cuEventSynchronize")):
                kind = "event_sync"
            elif name.startswith(("cudaStreamSynchronize", "cuStreamSynchronize")):
                kind = "stream_sync"
            elif name.startswith(("cudaDeviceSynchronize", "cudaThreadSynchronize",
                                  "cuCtxSynchronize")):
                kind = "context_sync"
            elif event != NONE:
                kind = "stream_wait" if stream != NONE else "event_sync"
            else:
                kind = "stream_sync" if stream != NONE else "context_sync"
            out[f"syncs {kind}"] += 1
            if kind == "stream_wait":
                out["gpu_waits"] += stream != NONE
            elif call:
                out["cpu_waits"] += 1
    out["os_calls"] += 0
    if "OSRT_API" in tables:
        (out["os_calls"],) = db.execute("SELECT count(*) FROM OSRT_API").fetchone()
    out["nvtx_ranges"] += 0
    out["nvtx_marks"] += 0
    if "NVTX_EVENTS" in tables:
        (n,) = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) "
                          "AND end IS NOT NULL").fetchone()
        out["nvtx_ranges"] = n
        (out["nvtx_marks"],) = db.execute(
            "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 65)").fetchone()
        domains = {}
        for tid, domain, text, text_id in db.execute(
                "SELECT globalTid, domainId, text, textId FROM NVTX_EVENTS WHERE eventType = 75"):
            if text is None and text_id is not None:
                (text,) = db.execute("SELECT value FROM StringIds WHERE id = ?",
                                     (text_id,)).fetchone()
            domains[(pid_of(tid or 0), domain)] = text
        for tid, domain in db.execute(
                "SELECT globalTid, domainId FROM NVTX_EVENTS WHERE eventType IN "
                "(59, 60, 70, 71) AND end IS NOT NULL AND domainId != 0"):
            name = domains.get((pid_of(tid or 0), domain))
            if name is not None:
                out[f"nvtx_domain {name} ranges"] += 1
    for key in sorted(out):
        print(f"{key}\t{out[key]}")


if __name__ == "__main__":
    main(sys.argv[1])
