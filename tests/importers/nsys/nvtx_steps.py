#!/usr/bin/env python3
"""Works out, with nothing of fencescope, the iterations an `nsys export --type sqlite` file's
NVTX ranges mark and what each holds, reading NVTX_EVENTS and CUPTI_ACTIVITY_KIND_KERNEL with
Python's sqlite3. Prints "key<TAB>N" lines:
  steps            how many steps
  step N ns        the length of step N
  step N busy      kernel time inside step N (each kernel's overlap with the step)
  step N start     its start
Steps: ranges (eventType 59, 60, 70, 71, with an end) named "step N" / "iteration N" /
"iter N" (any case; ' ', '#', '_' before N). Where none is, the name ending in step /
iteration / iter (alone or after '_', ' ', '-') that the most ranges have, at least two,
numbered 1, 2, ... by start, ranges starting inside the one before left out.
"""
import re
import sqlite3
import sys
from collections import Counter

NUMBERED = re.compile(r"^(iteration|iter|step)[ #_]*(\d+)$", re.IGNORECASE)
UNNUMBERED = re.compile(r"^(.*[ _-])?(iteration|iter|step)$", re.IGNORECASE)


def main(path):
    db = sqlite3.connect("file:" + path + "?mode=ro&immutable=1", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "NVTX_EVENTS" not in tables:
        print("steps\t0")
        return
    ranges = sorted(db.execute(
        "SELECT n.start, n.end, coalesce(n.text, s.value) FROM NVTX_EVENTS n "
        "LEFT JOIN StringIds s ON s.id = n.textId "
        "WHERE n.eventType IN (59, 60, 70, 71) AND n.end IS NOT NULL"))
    steps = []
    for start, end, text in ranges:
        m = NUMBERED.match(text or "")
        if m:
            steps.append((int(m.group(2)), start, end))
    if not steps:
        counts = Counter(t for _, _, t in ranges if UNNUMBERED.match(t or ""))
        best = [t for t, n in counts.items() if n >= 2 and n == max(counts.values())]
        if best:
            first = {t: min(s for s, _, x in ranges if x == t) for t in best}
            chosen = min(best, key=lambda t: first[t])
            previous_end = None
            for start, end, text in ranges:
                if text != chosen or (previous_end is not None and start < previous_end):
                    continue
                steps.append((len(steps) + 1, start, end))
                previous_end = end
    kernels = []
    if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
        kernels = list(db.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL"))
    print(f"steps\t{len(steps)}")
    for n, start, end in steps:
        busy = sum(max(0, min(end, k_end) - max(start, k_start)) for k_start, k_end in kernels)
        print(f"step {n} ns\t{end - start}")
        print(f"step {n} busy\t{busy}")
        print(f"step {n} start\t{start}")


if __name__ == "__main__":
    main(sys.argv[1])
