#!/usr/bin/env bash
# Seeds for the fuzz harnesses, one folder per harness under SEEDS, from the repository: the
# scenario files, the ftrace text and systrace fixtures, small Kineto traces (tests/fuzz/seeds),
# a simulated trace database, its Chrome JSON export (also gzip- and zip-wrapped) and its packed
# cache sections, a fleet summary of the Kineto seeds, an .etl, a trace-cmd .dat and a Vulkan
# record file from their builders, --fail-if examples. With --external DIR (../shared/traces/external), the real
# captures there are cut small and added (cut_external_seeds.py). Used by `./build.sh fuzz` and
# by the fuzz smoke tests of `./build.sh test` (repository seeds only; tests/fuzz/CMakeLists.txt).
# Usage: make_seeds.sh FENCESCOPE TOOLS_DIR SEEDS [--external DIR]
#   TOOLS_DIR holds make_etl_seed, make_vulkan_seed and make_cache_seed (the build's tests/fuzz).
set -euo pipefail
fencescope="$1" tools="$2" seeds="$3"
external="${5:-}"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
harnesses=(chrome_json etl compressed_input scenario fail_if trace_db ftrace_text trace_dat
  systrace_html vulkan_records fleet_summary cache_blob nsys_sqlite rocprof xplane)
# Made anew on every run: a second `./build.sh fuzz` must not meet the files of the first (a
# database written again would find its tables there).
rm -rf "$seeds"
for h in "${harnesses[@]}"; do mkdir -p "$seeds/$h"; done
# Files made on the way (a JSON to import, a fleet's output), removed however the script ends.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# A fuzzing build's fencescope carries ASan; what it leaks at exit is no seed's business.
export ASAN_OPTIONS=detect_leaks=0
cp "$source_dir"/tests/importers/ftrace/data/*.txt "$seeds/ftrace_text/"
cp "$source_dir"/tests/importers/ftrace/data/*.html "$seeds/systrace_html/"
# Small Kineto traces (CUDA stream waits and syncs of the current CUPTI shape; MTIA streams'
# records, waits and host syncs) for the GPU mappings.
cp "$source_dir"/tests/fuzz/seeds/chrome_json/*.json "$seeds/chrome_json/"
# Hand-made Nsight Systems exports (stream waits on a reused event handle, the same in a 2.9
# schema, the legacy NULL stream, two processes on two GPUs, NVTX steps, marks and domains,
# copies and memsets with their bytes), with 512-byte pages.
for scenario in stream_waits null_stream processes nvtx_steps nvtx_domains copies; do
  python3 "$source_dir/tests/importers/nsys/make_nsys_sqlite.py" "$scenario" \
    "$seeds/nsys_sqlite/$scenario.sqlite" --small-pages
done
python3 "$source_dir/tests/importers/nsys/make_nsys_sqlite.py" stream_waits \
  "$seeds/nsys_sqlite/old_schema.sqlite" --old-schema --small-pages
# rocprofv3 JSON and rocprof v2 / v3 kernel-trace CSV, made by hand; a hand-made rocpd
# database (with HIP syncs), with 512-byte pages.
cp "$source_dir"/tests/fuzz/seeds/rocprof/* "$seeds/rocprof/"
python3 "$source_dir/tests/importers/rocprof/make_rocpd.py" "$seeds/rocprof/rocpd.db" --syncs \
  --small-pages
# Hand-made XSpace profiles (launches by correlation_id, memcpys, aggregates, steps, an unknown
# metadata id).
for shape in launches unknown_metadata; do
  python3 "$source_dir/tests/importers/xplane/make_xspace.py" "$shape" \
    "$seeds/xplane/$shape.xplane.pb" >/dev/null
done
cp "$source_dir"/assets/scenarios/*.toml "$source_dir"/tests/cli/scenarios/*.toml "$seeds/scenario/"
"$fencescope" simulate async_compute_graphics --duration-ms 2 \
  -o "$seeds/trace_db/simulated.db" >/dev/null
"$fencescope" export "$seeds/trace_db/simulated.db" \
  -o "$seeds/chrome_json/simulated.json" >/dev/null
# An imported trace as well (problems, flows and args the simulator does not write).
"$fencescope" import "$source_dir/tests/importers/ftrace/data/drm_sched_deps.txt" \
  -o "$seeds/trace_db/ftrace.db" >/dev/null
# Traces with the rows the two above lack: flows (a Kineto import's launch links) and counter
# samples (Chrome counter events).
"$fencescope" import "$source_dir/tests/fuzz/seeds/chrome_json/kineto_cuda_streams.json" \
  -o "$seeds/trace_db/kineto.db" >/dev/null
counters_json="$scratch/counters.json"
cat >"$counters_json" <<'JSON'
{"traceEvents":[
{"ph":"X","cat":"kernel","name":"k","pid":1,"tid":7,"ts":10,"dur":10,"args":{"stream":7,"device":0}},
{"ph":"C","name":"memory","pid":1,"ts":5,"args":{"allocated":100,"reserved":200}},
{"ph":"C","name":"memory","pid":1,"ts":15,"args":{"allocated":150,"reserved":200}}]}
JSON
"$fencescope" import "$counters_json" -o "$seeds/trace_db/counters.db" >/dev/null
# Other programs' SQLite files given as traces: refused, naming what they hold (an Nsight
# Systems export, a rocpd database).
cp "$seeds/nsys_sqlite/stream_waits.sqlite" "$seeds/trace_db/nsys_export.db"
cp "$seeds/rocprof/rocpd.db" "$seeds/trace_db/rocpd.db"
"$tools/make_etl_seed" "$seeds/etl/capture.etl"
# A trace-cmd .dat made by hand (amdgpu jobs, fences, sched_switch, prints, two CPUs).
python3 "$source_dir/tests/importers/ftrace/make_trace_dat.py" "$seeds/trace_dat/amdgpu.dat" \
  >/dev/null
"$tools/make_vulkan_seed" "$seeds/vulkan_records/capture.fsvk"
"$tools/make_cache_seed" "$seeds/trace_db/simulated.db" "$seeds/cache_blob"
# A fleet summary's first line (all the reduce step, and the harness, read) per Kineto seed.
fleet="$scratch/fleet"
mkdir -p "$fleet"
"$fencescope" fleet import "$source_dir"/tests/fuzz/seeds/chrome_json -o "$fleet/f" -j 1 \
  >/dev/null 2>&1 || true  # a trace the map step refuses is no reason to stop
for summary in "$fleet"/f/traces/*.summary.json; do
  [ -e "$summary" ] && head -n 1 "$summary" >"$seeds/fleet_summary/$(basename "$summary")"
done
python3 - "$seeds" <<'PY'
import gzip, io, os, sys, zipfile
seeds = sys.argv[1]
json_bytes = open(os.path.join(seeds, "chrome_json", "simulated.json"), "rb").read()[:16384]
with open(os.path.join(seeds, "compressed_input", "trace.json.gz"), "wb") as f:
    f.write(gzip.compress(json_bytes, mtime=0))
with zipfile.ZipFile(os.path.join(seeds, "compressed_input", "trace.zip"), "w",
                     zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("inner.json", date_time=(2020, 1, 1, 0, 0, 0)), json_bytes,
                compress_type=zipfile.ZIP_DEFLATED)
open(os.path.join(seeds, "compressed_input", "plain.json"), "wb").write(json_bytes[:2048])
# The trace databases as small images (~55 KB instead of ~250 KB: 512-byte pages, vacuumed),
# the same tables and rows: a fuzzed image is then opened and read several times faster.
import sqlite3
for name in sorted(os.listdir(os.path.join(seeds, "trace_db"))):
    db = sqlite3.connect(os.path.join(seeds, "trace_db", name), isolation_level=None)
    db.execute("PRAGMA page_size = 512")
    db.execute("VACUUM")
    db.close()
# A trace of a newer schema version, and another program's database carrying its application_id.
import shutil
newer = os.path.join(seeds, "trace_db", "newer_schema.db")
shutil.copy(os.path.join(seeds, "trace_db", "counters.db"), newer)
db = sqlite3.connect(newer, isolation_level=None)
db.execute("PRAGMA user_version = 999")
db.close()
db = sqlite3.connect(os.path.join(seeds, "trace_db", "geopackage.db"), isolation_level=None)
db.execute("PRAGMA page_size = 512")
db.execute("PRAGMA application_id = 1196444487")
db.execute("CREATE TABLE gpkg_contents(table_name TEXT)")
db.close()
for i, expr in enumerate([
        "interrupts.spurious > 10 || fences.waits_never_unblocked > 0",
        "!(queues[0].busy_ns >= 1e9) && queues[\"3d queue\"].busy_ns / 2 != -3 * (1 - 2)",
        "fences.native == 1 && interrupts.ratio <= 0.5"]):
    open(os.path.join(seeds, "fail_if", "expr%d" % i), "w").write(expr)
PY
if [ "${4:-}" = "--external" ] && [ -d "$external" ]; then
  python3 "$source_dir/tests/fuzz/cut_external_seeds.py" "$external" "$seeds"
fi
# No harness may start from nothing: a seed here, or its minimized corpus in the repository
# (tests/fuzz/corpus).
for h in "${harnesses[@]}"; do
  if [ -z "$(ls -A "$seeds/$h")" ] && [ -z "$(ls -A "$source_dir/tests/fuzz/corpus/$h" 2>/dev/null)" ]; then
    echo "make_seeds.sh: no seed for $h" >&2
    exit 1
  fi
done
