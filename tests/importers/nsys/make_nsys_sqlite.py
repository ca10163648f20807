#!/usr/bin/env python3
"""Writes tiny hand-made SQLite files shaped as `nsys export --type sqlite` writes them (the
columns the tables of a 2026.1 export, schema 3.24, have for what is used here; `--old-schema`:
a 2.9-era export, EXPORT_META_DATA and no eventSyncId) holding what no shared real export has.

    make_nsys_sqlite.py SCENARIO OUT.sqlite [--old-schema] [--no-event-table]
                        [--event-timestamps] [--damage-table TABLE] [--small-pages]
                        [--session-start NS]

--session-start NS: TARGET_INFO_SESSION_START_TIME.utcEpochNs (default 0).
--small-pages: 512-byte pages (the fuzz seeds: small images read fast).
--damage-table TABLE: TABLE's root page is then overwritten with 0xff bytes.
--event-timestamps: the CUDA_EVENT rows carry device timestamps instead of 0 (stream_waits:
205 for the record on 13, 302 for the one on 14; null_stream: 405).

Scenarios (times in ns; one process, pid 100, thread 101, GPU 0, unless said):
  stream_waits   streams 13, 14, 15. k1 on 13 [100, 200] (launched at 10, corr 1); k2 on 14
                 [110, 300] (corr 2). Event handle 77 recorded on 13 at 20 (corr 3, eventSyncId
                 1), stream 15 waits for it at 30 (corr 4); the same handle 77 recorded again
                 on 14 at 40 (corr 5, eventSyncId 2), stream 15 waits for it at 50 (corr 6);
                 k3 on 15 [310, 400] (launched at 60, corr 7); cudaEventSynchronize on 77 at 70
                 returning at 305 (corr 8, eventSyncId 2). Every CUDA_EVENT timestamp is 0.
                 --no-stream-wait-rows: the two stream waits have no SYNCHRONIZATION row.
  processes      pid 100 on GPU 0 stream 7 and pid 200 on GPU 1 stream 7, with the same
                 correlation ids: each launches a kernel (corr 1; pid 100 [100, 200], pid 200
                 [100, 500]) and calls cudaDeviceSynchronize (corr 2, [50, 210] / [50, 510]),
                 exported with syncType 1 (as a 2024.5 export writes every device sync).
  graph          cudaGraphLaunch (corr 5, at 10) runs three kernels of one graph on stream 7
                 ([100, 150], [150, 220], [220, 260], graphNodeId 1-3); cudaStreamSynchronize
                 (corr 6, [30, 270]) exported with syncType 2.
  null_stream    stream 7 is the legacy NULL stream (flag 3), 13 and 14 blocking streams: k1 on
                 13 [100, 200], k2 on 14 [100, 400] launched at 10 and 11 (corr 1, 2); event 5
                 recorded on 7 at 20 (corr 3, eventSyncId 1, timestamp 0); stream 13 waits for
                 it at 30 (corr 4); k3 on 13 [410, 450] launched at 40 (corr 5).
  nvtx_steps     NVTX push/pop ranges on thread 101 (domain 0) marking three iterations:
                 "step 1" [1000, 2000], "step 2" [2000, 3500], "step 3" [3500, 4200] (with
                 --slow-step: step 2 ends at 4500 and step 3 is [4500, 5200]), each holding a
                 "forward" range [S+5, S+50] and a cudaLaunchKernel at S+10 (corr i) whose
                 kernel "k" runs on stream 7 [S+100, S+100+L], L = 300, 900, 200 (--slow-step:
                 1900 for step 2); then "teardown" [E+100, E+300] after the last step's end E.
                 --repeated-steps: every step range is named "train_step" instead, with one
                 more "train_step" [S2+600, S2+700] nested in step 2 and one "eval_step"
                 inside teardown [E+150, E+200].
  nvtx_domains   NVTX on thread 101: domain 1 created as "MPI" (NvtxDomainCreate, eventType
                 75), domain 2 used without being created. Ranges: "MPI_Send" in domain 1
                 [100, 200] (push/pop), "io" in domain 2 [300, 400] (start/end, eventType 60),
                 "plain" in the default domain [500, 600], "unnamed" in domain 3 (created with
                 an empty name) [700, 800]. Marks (eventType 34): "checkpoint"
                 (default domain) at 150, "MPI barrier" (domain 1, text by textId) at 250.
  copies         stream 7 (flag 1): memcpys launched by cudaMemcpyAsync (corr 1-4, at 10, 20,
                 30, 40): HtoD 4096 bytes [100, 200] (copyKind 1), DtoH 1024 [200, 250] (2),
                 DtoD 512 [250, 270] (8), PtoP 256 [270, 300] (10); a memset of 2048 bytes
                 [300, 320] launched by cudaMemsetAsync (corr 5, at 50).
"""
import os
import sqlite3
import sys

PID = 100


def gtid(pid, tid):
    return (pid << 24) | tid


def gpid(pid):
    return pid << 24


def make(path, scenario, old, no_event_table, event_timestamps, small_pages, session_start,
         options=()):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    if small_pages:
        db.execute("PRAGMA page_size = 512")
    meta = "EXPORT_META_DATA" if old else "META_DATA_EXPORT"
    db.executescript(f"""
      CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE {meta} (name TEXT NOT NULL, value TEXT);
      CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
      CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT);
      CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL,
        vmId INTEGER NOT NULL, processId INTEGER NOT NULL, contextId INTEGER NOT NULL,
        priority INTEGER NOT NULL, flag INTEGER NOT NULL);
      CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
      CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
        eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER,
        nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
        shortName INTEGER NOT NULL, graphNodeId INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
        copyKind INTEGER NOT NULL);
    """)
    if scenario == "copies":  # (only there: other scenarios put a view in its place)
        db.execute("""CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL,
            end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
            streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
            value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER,
            memKind INTEGER)""")
    sync_id_col = "" if old else ", eventSyncId INTEGER"
    db.execute(f"""CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL,
        end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
        streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
        syncType INTEGER NOT NULL, eventId INTEGER NOT NULL{sync_id_col})""")
    if not no_event_table:
        ts_col = "" if old else "timestamp INTEGER, "
        db.execute(f"""CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT ({ts_col}
            deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
            correlationId INTEGER, globalPid INTEGER, eventId INTEGER NOT NULL{sync_id_col})""")
    db.execute("""CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
        eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT,
        globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER REFERENCES StringIds(id),
        domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL,
        uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER,
        jsonText TEXT)""")
    db.execute(f"INSERT INTO {meta} VALUES ('EXPORT_PRODUCT_VERSION', ?), "
               "('EXPORT_SCHEMA_VERSION', ?)",
               ("2022.2.1.31", "2.9.1") if old else ("2026.1.1.204", "3.24.14"))
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '', '')", (session_start,))
    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings) + 1
            db.execute("INSERT INTO StringIds VALUES (?, ?)", (strings[text], text))
        return strings[text]

    def process(pid, name, gpus):
        db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (gpid(pid), pid, name))
        db.execute("INSERT INTO ThreadNames VALUES (?, 0, ?)", (sid(f"{name} main"),
                                                               gtid(pid, pid + 1)))
        for g in gpus:
            db.execute("INSERT INTO TARGET_INFO_GPU VALUES (0, ?, ?)", (g, f"Test GPU {g}"))

    def stream(pid, s, flag=1):
        db.execute("INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?, 0, 0, ?, 1, 0, ?)",
                   (s, pid, flag))

    def call(name, corr, start, end, pid=PID):
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 1, ?, ?, ?, 0, NULL)",
                   (start, end, gtid(pid, pid + 1), corr, sid(name)))

    def kernel(name, corr, s, start, end, pid=PID, gpu=0, node=None):
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
                   (start, end, gpu, s, corr, gpid(pid), sid(name), sid(name), node))

    def sync(corr, start, end, sync_type, s=0xFFFFFFFF, event=0xFFFFFFFF, sync_id=None,
             pid=PID, gpu=0):
        row = [start, end, gpu, 1, s, corr, gpid(pid), sync_type, event]
        if not old:
            row.append(0xFFFFFFFF if sync_id is None else sync_id)
        db.execute(f"INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES "
                   f"({', '.join('?' * len(row))})", row)

    def record(corr, s, event, sync_id, pid=PID, stamp=0):
        if no_event_table:
            return
        stamp = stamp if event_timestamps else 0
        row = ([] if old else [stamp]) + [0, 1, s, corr, gpid(pid), event]
        if not old:
            row.append(sync_id)
        db.execute(f"INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT VALUES "
                   f"({', '.join('?' * len(row))})", row)

    def nvtx(event_type, start, end, text, domain=0, pid=PID, use_text_id=False):
        db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId, globalTid, "
                   "domainId) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (start, end, event_type, None if use_text_id else text,
                    sid(text) if use_text_id else None, gtid(pid, pid + 1), domain))

    if scenario == "stream_waits":
        process(PID, "app", [0])
        for s in (13, 14, 15):
            stream(PID, s, 2)
        call("cudaLaunchKernel_v7000", 1, 10, 12)
        kernel("k1", 1, 13, 100, 200)
        call("cudaLaunchKernel_v7000", 2, 15, 17)
        kernel("k2", 2, 14, 110, 300)
        call("cudaEventRecord_v3020", 3, 20, 21)
        record(3, 13, 77, 1, stamp=205)
        wait_rows = "--no-stream-wait-rows" not in options
        call("cudaStreamWaitEvent_v3020", 4, 30, 31)
        if wait_rows:
            sync(4, 30, 31, 3, s=15, event=77, sync_id=1)
        call("cudaEventRecord_v3020", 5, 40, 41)
        record(5, 14, 77, 2, stamp=302)
        call("cudaStreamWaitEvent_v3020", 6, 50, 51)
        if wait_rows:
            sync(6, 50, 51, 3, s=15, event=77, sync_id=2)
        call("cudaLaunchKernel_v7000", 7, 60, 62)
        kernel("k3", 7, 15, 310, 400)
        call("cudaEventSynchronize_v3020", 8, 70, 305)
        sync(8, 70, 305, 1, event=77, sync_id=2)
    elif scenario == "processes":
        for pid, gpu, end in ((100, 0, 200), (200, 1, 500)):
            process(pid, f"rank{gpu}", [gpu])
            stream(pid, 7, 3)
            call("cudaLaunchKernel_v7000", 1, 10, 12, pid=pid)
            kernel(f"k_rank{gpu}", 1, 7, 100, end, pid=pid, gpu=gpu)
            call("cudaDeviceSynchronize_v3020", 2, 50, end + 10, pid=pid)
            sync(2, 50, end + 10, 1, pid=pid, gpu=gpu)
    elif scenario == "graph":
        process(PID, "app", [0])
        stream(PID, 7, 3)
        call("cudaGraphLaunch_v10000", 5, 10, 20)
        for node, (start, end) in enumerate(((100, 150), (150, 220), (220, 260)), 1):
            kernel(f"node{node}", 5, 7, start, end, node=node)
        call("cudaStreamSynchronize_v3020", 6, 30, 270)
        sync(6, 30, 270, 2, s=7)
    elif scenario == "null_stream":
        process(PID, "app", [0])
        stream(PID, 7, 3)
        stream(PID, 13, 1)
        stream(PID, 14, 1)
        call("cudaLaunchKernel_v7000", 1, 10, 11)
        kernel("k1", 1, 13, 100, 200)
        call("cudaLaunchKernel_v7000", 2, 11, 12)
        kernel("k2", 2, 14, 100, 400)
        call("cudaEventRecord_v3020", 3, 20, 21)
        record(3, 7, 5, 1, stamp=405)
        call("cudaStreamWaitEvent_v3020", 4, 30, 31)
        sync(4, 30, 31, 3, s=13, event=5, sync_id=1)
        call("cudaLaunchKernel_v7000", 5, 40, 41)
        kernel("k3", 5, 13, 410, 450)
    elif scenario == "nvtx_steps":
        process(PID, "app", [0])
        stream(PID, 7, 1)
        slow = "--slow-step" in options
        repeated = "--repeated-steps" in options
        lengths = (300, 1900 if slow else 900, 200)
        bounds = ((1000, 2000), (2000, 4500 if slow else 3500))
        bounds += ((bounds[1][1], bounds[1][1] + 700),)
        for i, ((start, end), length) in enumerate(zip(bounds, lengths), 1):
            nvtx(59, start, end, "train_step" if repeated else f"step {i}", use_text_id=i == 2)
            nvtx(59, start + 5, start + 50, "forward")
            call("cudaLaunchKernel_v7000", i, start + 10, start + 12)
            kernel("k", i, 7, start + 100, start + 100 + length)
        last = bounds[2][1]
        if repeated:
            nvtx(59, bounds[1][0] + 600, bounds[1][0] + 700, "train_step")
            nvtx(59, last + 150, last + 200, "eval_step")
        nvtx(59, last + 100, last + 300, "teardown")
    elif scenario == "nvtx_domains":
        process(PID, "app", [0])
        nvtx(75, 10, None, "MPI", domain=1)
        nvtx(59, 100, 200, "MPI_Send", domain=1)
        nvtx(60, 300, 400, "io", domain=2)
        nvtx(59, 500, 600, "plain")
        nvtx(75, 11, None, "", domain=3)
        nvtx(59, 700, 800, "unnamed", domain=3)
        nvtx(34, 150, None, "checkpoint")
        nvtx(34, 250, None, "MPI barrier", domain=1, use_text_id=True)
    elif scenario == "copies":
        process(PID, "app", [0])
        stream(PID, 7, 1)
        for corr, (kind, size, start, end) in enumerate(
                ((1, 4096, 100, 200), (2, 1024, 200, 250), (8, 512, 250, 270),
                 (10, 256, 270, 300)), 1):
            call("cudaMemcpyAsync_v3020", corr, corr * 10, corr * 10 + 2)
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, 0, 1, 7, ?, ?, ?, ?)",
                       (start, end, corr, gpid(PID), size, kind))
        call("cudaMemsetAsync_v3020", 5, 50, 52)
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (300, 320, 0, 1, 7, 5, ?, 0, "
                   "2048, NULL, 2)", (gpid(PID),))
    else:
        raise SystemExit(f"unknown scenario {scenario}")
    db.commit()
    db.close()


def damage(path, table):
    db = sqlite3.connect(path)
    (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    with open(path, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xff" * size)


if __name__ == "__main__":
    make(sys.argv[2], sys.argv[1], "--old-schema" in sys.argv, "--no-event-table" in sys.argv,
         "--event-timestamps" in sys.argv, "--small-pages" in sys.argv,
         int(sys.argv[sys.argv.index("--session-start") + 1])
         if "--session-start" in sys.argv else 0, sys.argv[3:])
    if "--damage-table" in sys.argv:
        damage(sys.argv[2], sys.argv[sys.argv.index("--damage-table") + 1])
