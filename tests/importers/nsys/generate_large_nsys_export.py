#!/usr/bin/env python3
"""Makes a large Nsight Systems export for `fencescope bench import` by repeating a real export's
activity rows: the copy of SOURCE at OUT gets COPIES - 1 more copies of the rows of its
CUPTI_ACTIVITY_KIND_* tables, NVTX_EVENTS and OSRT_API, each copy shifted in time past the one
before and its correlationIds past the largest of the one before, so that launches and syncs
stay joined within their copy.

    generate_large_nsys_export.py SOURCE OUT COPIES
"""
import shutil
import sqlite3
import sys

TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
          "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER",
          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_CUDA_EVENT", "NVTX_EVENTS",
          "OSRT_API"]


def main(source, out, copies):
    shutil.copyfile(source, out)
    db = sqlite3.connect(out)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    tables = [t for t in TABLES if t in tables]
    columns = {t: [r[1] for r in db.execute(f"PRAGMA table_info({t})")] for t in tables}
    span = 0
    corr = 0
    for t in tables:
        cols = columns[t]
        time_col = "start" if "start" in cols else "timestamp"
        (hi,) = db.execute(f"SELECT max(coalesce(end, {time_col})) FROM {t}").fetchone()
        span = max(span, hi or 0)
        if "correlationId" in cols:
            (c,) = db.execute(f"SELECT max(correlationId) FROM {t}").fetchone()
            corr = max(corr, c or 0)
    span += 1
    corr += 1
    for t in tables:
        cols = columns[t]
        (base,) = db.execute(f"SELECT max(rowid) FROM {t}").fetchone()
        for i in range(1, copies):
            exprs = []
            for c in cols:
                if c in ("start", "end") or (c == "timestamp" and t.endswith("CUDA_EVENT")):
                    exprs.append(f"CASE WHEN {c} > 0 THEN {c} + {i * span} ELSE {c} END")
                elif c == "correlationId":
                    exprs.append(f"{c} + {i * corr}")
                else:
                    exprs.append(c)
            db.execute(f"INSERT INTO {t} ({', '.join(cols)}) SELECT {', '.join(exprs)} "
                       f"FROM {t} WHERE rowid <= {base}")
        db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
