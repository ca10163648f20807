#!/usr/bin/env python3
"""Grows the hand-made rocpd database (make_rocpd.py --syncs) by repeating its rows until the
file holds at least MEGABYTES: each round appends a copy of every event, argument, region,
kernel dispatch and memory copy, its ids, correlation ids and dispatch ids shifted past the
rows there, its times after the last end. For `fencescope bench import` on a large rocpd file.

    python3 grow_rocpd.py OUT.db MEGABYTES

Prints the rows it holds, one `key<TAB>count` a line: dispatches, copies, regions, events, and
copies_of_base (how many times the hand-made rows are there).
"""
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUFFIX = "_0a1b2c3d"  # make_rocpd.py's session suffix

# Each grown table: its columns, with the shifted ones written as expressions of the shifts
# (:id the table's own id shift, :event the event id shift, :corr the correlation id shift,
# :t the time shift).
GROWN = {
    "rocpd_event": "id + :id, category_id, correlation_id + :corr",
    "rocpd_arg": "id + :id, event_id + :event, position, type, name, value",
    "rocpd_region": "id + :id, nid, pid, tid, start + :t, \"end\" + :t, name_id, event_id + :event",
    "rocpd_kernel_dispatch": "id + :id, nid, pid, tid, agent_id, kernel_id, dispatch_id + :id, "
                             "queue_id, stream_id, start + :t, \"end\" + :t, workgroup_size_x, "
                             "workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, "
                             "grid_size_z, event_id + :event",
    "rocpd_memory_copy": "id + :id, nid, pid, tid, start + :t, \"end\" + :t, name_id, "
                         "dst_agent_id, src_agent_id, size, queue_id, stream_id, event_id + :event",
}
TIMED = ["rocpd_region", "rocpd_kernel_dispatch", "rocpd_memory_copy"]


def one(db, sql):
    return db.execute(sql).fetchone()[0] or 0


def main(out, megabytes):
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([sys.executable, os.path.join(HERE, "make_rocpd.py"), out, "--syncs"],
                   check=True)
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    t = lambda name: '"%s%s"' % (name, SUFFIX)
    copies_of_base = 1
    while os.path.getsize(out) < megabytes * 1_000_000:
        event = one(db, "SELECT max(id) FROM " + t("rocpd_event"))
        corr = one(db, "SELECT max(correlation_id) FROM " + t("rocpd_event"))
        first = min(one(db, "SELECT min(start) FROM " + t(n)) for n in TIMED)
        last = max(one(db, 'SELECT max("end") FROM ' + t(n)) for n in TIMED)
        shifts = {"event": event, "corr": corr, "t": last - first + 1000}
        for name, columns in GROWN.items():
            shifts["id"] = one(db, "SELECT max(id) FROM " + t(name))
            db.execute("INSERT INTO %s SELECT %s FROM %s" % (t(name), columns, t(name)), shifts)
        db.commit()
        copies_of_base *= 2
    print("copies_of_base\t%d" % copies_of_base)
    for key, name in (("dispatches", "rocpd_kernel_dispatch"), ("copies", "rocpd_memory_copy"),
                      ("regions", "rocpd_region"), ("events", "rocpd_event")):
        print("%s\t%d" % (key, one(db, "SELECT count(*) FROM " + t(name))))
    db.close()


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
