#!/usr/bin/env bash
# Seeds for the fuzz harnesses, one folder per harness under SEEDS: the scenario files, ftrace
# text fixtures, small Kineto traces (tests/fuzz/seeds), a simulated trace database and its
# Chrome JSON export (also gzip- and zip-wrapped), an .etl from the ETL tests' builder, --fail-if
# examples. Used by
# `./build.sh fuzz` and by the fuzz smoke tests of `./build.sh test` (tests/fuzz/CMakeLists.txt).
# Usage: make_seeds.sh FENCESCOPE MAKE_ETL_SEED SEEDS
set -euo pipefail
fencescope="$1" make_etl_seed="$2" seeds="$3"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$seeds"/{chrome_json,etl,compressed_input,scenario,fail_if,trace_db,ftrace_text}
cp "$source_dir"/tests/importers/ftrace/data/*.txt "$seeds/ftrace_text/"
# Small Kineto traces (CUDA stream waits and syncs of the current CUPTI shape; MTIA streams'
# records, waits and host syncs) for the GPU mappings.
cp "$source_dir"/tests/fuzz/seeds/chrome_json/*.json "$seeds/chrome_json/"
cp "$source_dir"/assets/scenarios/*.toml "$source_dir"/tests/cli/scenarios/*.toml "$seeds/scenario/"
# A fuzzing build's fencescope carries ASan; what it leaks at exit is no seed's business.
ASAN_OPTIONS=detect_leaks=0 "$fencescope" simulate async_compute_graphics --duration-ms 2 \
  -o "$seeds/trace_db/simulated.db" >/dev/null
ASAN_OPTIONS=detect_leaks=0 "$fencescope" export "$seeds/trace_db/simulated.db" \
  -o "$seeds/chrome_json/simulated.json" >/dev/null
"$make_etl_seed" "$seeds/etl/capture.etl"
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
for i, expr in enumerate([
        "interrupts.spurious > 10 || fences.waits_never_unblocked > 0",
        "!(queues[0].busy_ns >= 1e9) && queues[\"3d queue\"].busy_ns / 2 != -3 * (1 - 2)",
        "fences.native == 1 && interrupts.ratio <= 0.5"]):
    open(os.path.join(seeds, "fail_if", "expr%d" % i), "w").write(expr)
PY
