#!/usr/bin/env python3
"""Writes a small rocpd database by hand (rocprofv3's SQLite output): tables named with a session
suffix (rocpd_<table>_<uuid>) beside views of the plain names, as rocprofv3 writes them, with
only the columns fencescope reads plus a few it ignores. The table layout follows ROCm's
rocprofiler-sdk (rocpd schema 3); the rows are made up and worked through by hand in
rocpd_test.cpp.

Usage: make_rocpd.py OUT.db [--bad-agent] [--syncs]
       make_rocpd.py OUT.db --fleet-process PID COMPUTE_NS LAG_NS
  --bad-agent  adds a kernel dispatch on agent 9, which rocpd_info_agent does not list
  --syncs      adds, on thread 5152 and GPU 0, HIP calls with their arguments (rocpd_arg):
               a producer kernel on stream 0xA (HSA queue 2), hipEventRecord(0xE1, 0xA),
               hipStreamWaitEvent(0xB, 0xE1), a consumer kernel on stream 0xB (HSA queue 3),
               hipEventRecord(0xE2, 0xB), hipEventSynchronize(0xE2), hipDeviceSynchronize()
  --fleet-process  instead of the rows above, one process PID of a job on host node3 (one GPU,
               one HSA queue, thread PID): roctx ranges "step 1" and "step 2" (each ending with its all-reduce), each launching a
               compute kernel of COMPUTE_NS and then an RCCL all-reduce that ends at the same
               instant of the host's clock in every process (FLEET_STEPS): processes given
               different COMPUTE_NS arrive at the all-reduce at different times. The ranges and
               launch calls begin LAG_NS later than FLEET_STEPS says (a host loop that lagged),
               so the steps' starts do not line the processes up; the all-reduce's end does
"""
import os
import sqlite3
import sys

SUFFIX = "_0a1b2c3d"

TABLES = {
    "rocpd_string": "id INTEGER PRIMARY KEY, guid TEXT, string TEXT NOT NULL",
    "rocpd_info_node": "id INTEGER PRIMARY KEY, hostname TEXT",
    "rocpd_info_process": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, command TEXT",
    "rocpd_info_thread": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, tid INTEGER, "
                         "name TEXT",
    "rocpd_info_agent": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, type TEXT, "
                        "absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, "
                        "name TEXT, product_name TEXT",
    "rocpd_info_queue": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, name TEXT",
    "rocpd_info_stream": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, name TEXT",
    "rocpd_info_kernel_symbol": "id INTEGER PRIMARY KEY, code_object_id INTEGER, "
                                "kernel_name TEXT, display_name TEXT",
    "rocpd_event": "id INTEGER PRIMARY KEY, category_id INTEGER, correlation_id INTEGER",
    "rocpd_region": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, tid INTEGER, "
                    "start BIGINT, \"end\" BIGINT, name_id INTEGER, event_id INTEGER",
    "rocpd_kernel_dispatch": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, tid INTEGER, "
                             "agent_id INTEGER, kernel_id INTEGER, dispatch_id INTEGER, "
                             "queue_id INTEGER, stream_id INTEGER, start BIGINT, \"end\" BIGINT, "
                             "workgroup_size_x INTEGER, workgroup_size_y INTEGER, "
                             "workgroup_size_z INTEGER, grid_size_x INTEGER, grid_size_y INTEGER, "
                             "grid_size_z INTEGER, event_id INTEGER",
    "rocpd_arg": "id INTEGER PRIMARY KEY, event_id INTEGER, position INTEGER, type TEXT, "
                 "name TEXT, value TEXT",
    "rocpd_memory_copy": "id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, tid INTEGER, "
                         "start BIGINT, \"end\" BIGINT, name_id INTEGER, dst_agent_id INTEGER, "
                         "src_agent_id INTEGER, size INTEGER, queue_id INTEGER, "
                         "stream_id INTEGER, event_id INTEGER",
}

ROWS = {
    "rocpd_string": [(1, "g", "HIP_RUNTIME_API"), (2, "g", "hipLaunchKernel"),
                     (3, "g", "MEMORY_COPY_DEVICE_TO_HOST"), (4, "g", "hipMemcpyAsync"),
                     (5, "g", "MARKER_CORE_RANGE_API"), (6, "g", "epoch 0")],
    "rocpd_info_node": [(1, "node3")],
    "rocpd_info_process": [(1, 1, 5150, "/opt/bin/app --n 3")],
    "rocpd_info_thread": [(1, 1, 1, 5150, "main"), (2, 1, 1, 5151, "copier")],
    # Agent 3 has the lower logical index: it is GPU 0, agent 2 GPU 1.
    "rocpd_info_agent": [(1, 1, 1, "CPU", 0, 0, 0, "AMD EPYC", "AMD EPYC"),
                         (2, 1, 1, "GPU", 2, 2, 1, "gfx942", "AMD Instinct MI300X"),
                         (3, 1, 1, "GPU", 1, 1, 0, "gfx942", "AMD Instinct MI300X")],
    "rocpd_info_queue": [(1, 1, 1, "Queue 1")],
    "rocpd_info_stream": [(1, 1, 1, "Stream 1"), (2, 1, 1, "Stream 2")],
    "rocpd_info_kernel_symbol": [(1, 1, "_Z3addv.kd", "add()"), (2, 1, "_Z3mulv.kd", "")],
    # Correlation ids: 10 and 11 the two launches, 12 the copy, 13 the roctx range.
    "rocpd_event": [(1, 1, 10), (2, 1, 11), (3, 1, 12), (4, 1, 10), (5, 1, 11), (6, 1, 12),
                    (7, 5, 13)],
    "rocpd_region": [(1, 1, 1, 1, 100, 110, 2, 1), (2, 1, 1, 1, 120, 125, 2, 2),
                     (3, 1, 1, 2, 130, 160, 4, 3), (4, 1, 1, 1, 50, 500, 6, 7)],
    # Two HIP streams on one HSA queue of GPU 1.
    "rocpd_kernel_dispatch": [
        (1, 1, 1, 1, 2, 1, 1, 1, 1, 200, 260, 256, 1, 1, 1024, 1, 1, 4),
        (2, 1, 1, 1, 2, 2, 2, 1, 2, 250, 300, 64, 1, 1, 64, 1, 1, 5)],
    # Device to host, run by GPU 1 (the source).
    "rocpd_memory_copy": [(1, 1, 1, 2, 170, 400, 3, 1, 2, 8192, None, 2, 6)],
}


# The --syncs rows, times from 1000 on. Calls: (region id, start, end, name string id, rocpd_event
# id = correlation id, arguments).
SYNC_CALLS = [
    (10, 1000, 1010, 2, 20, [("stream", "0xa")]),
    (11, 1020, 1025, 7, 21, [("event", "0xe1"), ("stream", "0xa")]),
    (12, 1030, 1035, 8, 22, [("stream", "0xb"), ("event", "0xe1"), ("flags", "0")]),
    (13, 1040, 1050, 2, 23, [("stream", "0xb")]),
    (14, 1060, 1065, 7, 24, [("event", "0xe2"), ("stream", "0xb")]),
    (15, 1070, 1520, 9, 25, [("event", "0xe2")]),
    (16, 1530, 1540, 10, 26, []),
]


def add_syncs(rows):
    rows["rocpd_string"] += [(7, "g", "hipEventRecord"), (8, "g", "hipStreamWaitEvent"),
                             (9, "g", "hipEventSynchronize"), (10, "g", "hipDeviceSynchronize")]
    rows["rocpd_info_thread"].append((3, 1, 1, 5152, "sync"))
    rows["rocpd_info_queue"] += [(2, 1, 1, "Queue 2"), (3, 1, 1, "Queue 3")]
    rows["rocpd_info_stream"] += [(3, 1, 1, "Stream 3"), (4, 1, 1, "Stream 4")]
    rows["rocpd_info_kernel_symbol"] += [(3, 1, "_Z8producerv.kd", "producer()"),
                                         (4, 1, "_Z8consumerv.kd", "consumer()")]
    arg_id = 1
    for region, start, end, name, event, args in SYNC_CALLS:
        rows["rocpd_event"].append((event, 1, event))
        rows["rocpd_region"].append((region, 1, 1, 3, start, end, name, event))
        for position, (arg, value) in enumerate(args):
            rows["rocpd_arg"].append((arg_id, event, position, "void*", arg, value))
            arg_id += 1
    # The kernels' own events carry their launch's correlation id.
    rows["rocpd_event"] += [(30, 1, 20), (31, 1, 23)]
    rows["rocpd_kernel_dispatch"] += [
        (10, 1, 1, 3, 3, 3, 10, 2, 3, 1100, 1400, 64, 1, 1, 64, 1, 1, 30),
        (11, 1, 1, 3, 3, 4, 11, 3, 4, 1410, 1500, 64, 1, 1, 64, 1, 1, 31)]


# --fleet-process: each step's start on the host's monotonic clock (ns); in step s the compute
# kernel starts at s + 100 us and the all-reduce ends at s + 500 us in every process.
FLEET_STEPS = [(1, 5_000_000_000), (2, 5_001_000_000)]
ALL_REDUCE = "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"


def fleet_process_rows(pid, compute_ns, lag_ns):
    rows = {
        "rocpd_string": [(1, "g", "HIP_RUNTIME_API"), (2, "g", "hipLaunchKernel"),
                         (5, "g", "MARKER_CORE_RANGE_API")],
        "rocpd_info_node": [(1, "node3")],
        "rocpd_info_process": [(1, 1, pid, "/opt/bin/train")],
        "rocpd_info_thread": [(1, 1, 1, pid, "main")],
        "rocpd_info_agent": [(1, 1, 1, "CPU", 0, 0, 0, "AMD EPYC", "AMD EPYC"),
                             (2, 1, 1, "GPU", 1, 1, 0, "gfx942", "AMD Instinct MI300X")],
        "rocpd_info_queue": [(1, 1, 1, "Queue 1")],
        "rocpd_info_stream": [(1, 1, 1, "Stream 1")],
        "rocpd_info_kernel_symbol": [(1, 1, "_Z7computev.kd", "compute()"),
                                     (2, 1, "ncclDevKernel_Generic.kd", ALL_REDUCE)],
        "rocpd_event": [], "rocpd_region": [], "rocpd_kernel_dispatch": [],
    }
    for step, start in FLEET_STEPS:
        name_id, range_id = 10 + step, 100 * step
        rows["rocpd_string"].append((name_id, "g", f"step {step}"))
        rows["rocpd_event"].append((range_id, 5, range_id))
        rows["rocpd_region"].append((range_id, 1, 1, 1, start + lag_ns, start + 500_000,
                                     name_id, range_id))
        compute_end = start + 100_000 + compute_ns
        kernels = [(1, start + 100_000, compute_end), (2, compute_end, start + 500_000)]
        for k, (symbol, begin, end) in enumerate(kernels):
            launch = range_id + 1 + k  # the launch's correlation id, and its region's id
            call = start + lag_ns + 10_000 + 10_000 * k
            rows["rocpd_event"] += [(launch, 1, launch), (launch + 50, 1, launch)]
            rows["rocpd_region"].append((launch, 1, 1, 1, call, call + 2_000, 2, launch))
            rows["rocpd_kernel_dispatch"].append(
                (launch, 1, 1, 1, 2, symbol, launch, 1, 1, begin, end, 256, 1, 1, 4096, 1, 1,
                 launch + 50))
    return rows


def main():
    out = sys.argv[1]
    if os.path.exists(out):  # written anew, so that a second run (./build.sh fuzz) works
        os.remove(out)
    db = sqlite3.connect(out)
    if "--small-pages" in sys.argv[2:]:  # a fuzz seed: 512-byte pages, a smaller image
        db.execute("PRAGMA page_size = 512")
    rows = {k: list(ROWS.get(k, [])) for k in TABLES}
    if "--fleet-process" in sys.argv[2:]:
        at = sys.argv.index("--fleet-process")
        fleet_rows = fleet_process_rows(*(int(a) for a in sys.argv[at + 1:at + 4]))
        rows = {k: fleet_rows.get(k, []) for k in TABLES}
    if "--bad-agent" in sys.argv[2:]:
        rows["rocpd_kernel_dispatch"].append(
            (3, 1, 1, 1, 9, 1, 3, 1, 1, 600, 700, 1, 1, 1, 1, 1, 1, None))
    if "--syncs" in sys.argv[2:]:
        add_syncs(rows)
    for table, columns in TABLES.items():
        db.execute(f'CREATE TABLE "{table}{SUFFIX}" ({columns})')
        db.execute(f'CREATE VIEW "{table}" AS SELECT * FROM "{table}{SUFFIX}"')
        for row in rows.get(table, []):
            marks = ", ".join("?" * len(row))
            db.execute(f'INSERT INTO "{table}{SUFFIX}" VALUES ({marks})', row)
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
