#!/usr/bin/env bash
# Line coverage each fuzz harness reaches in its own reader: every harness of BUILD (built with
# -DFENCESCOPE_FUZZ_COVERAGE=ON: clang source-based coverage, linked with replay_main.cpp)
# replays, once each, its seeds (SEEDS/HARNESS), the minimized corpus and regression inputs kept
# in the repository (tests/fuzz/{corpus,regressions}/HARNESS) and the corpus of the fuzzing runs
# (WORK/HARNESS); llvm-profdata-14 merges the profile and llvm-cov-14 reports the lines of the
# reader's source files, listed below. Prints one row per harness; the llvm-cov reports, per file,
# are left in BUILD/coverage/HARNESS.txt.
# Usage: coverage.sh BUILD SEEDS WORK HARNESS...
set -euo pipefail
build="$1" seeds="$2" work="$3"
shift 3
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"

# The reader of each harness: the files whose lines it is there to reach.
reader_files() {
  cd "$source_dir"
  case "$1" in
    chrome_json) ls importers/chrome_json/*.cpp importers/chrome_json/*.h |
                   grep -v import_benchmark ;;
    etl) ls importers/etl/*.cpp ;;
    compressed_input) ls importers/common/compressed_input.cpp importers/common/inflated_output.cpp ;;
    scenario) ls core/sim/scenario_loader.cpp core/sim/frame_expr.cpp ;;
    fail_if) ls core/report/fail_if.cpp ;;
    trace_db) ls core/store/trace_loader.cpp core/store/trace_file.cpp core/store/sqlite_db.cpp ;;
    ftrace_text) ls importers/ftrace/*.cpp | grep -v -e trace_dat_reader -e systrace_html \
                   -e trace_cmd_record ;;
    trace_dat) ls importers/ftrace/trace_dat_reader.cpp ;;
    systrace_html) ls importers/ftrace/systrace_html.cpp ;;
    vulkan_records) ls importers/vulkan/vk_record_*.cpp ;;
    fleet_summary) ls core/fleet/summary_file.cpp ;;
    cache_blob) ls core/cache/serialize.h ;;
    # (the raw reads are `bench import`'s yardsticks, not the importers)
    nsys_sqlite) ls importers/nsys/*.cpp | grep -v raw_read ;;
    rocprof) ls importers/rocprof/*.cpp | grep -v raw_read ;;
    xplane) ls importers/xplane/*.cpp ;;
  esac
}

mkdir -p "$build/coverage"
printf '%-24s %8s %8s %8s  %s\n' harness lines reached cover reader
for name in "$@"; do
  inputs=()
  for d in "$seeds/$name" "$source_dir/tests/fuzz/corpus/$name" \
           "$source_dir/tests/fuzz/regressions/$name" "$work/$name"; do
    if [ -d "$d" ] && [ -n "$(ls -A "$d")" ]; then inputs+=("$d"); fi
  done
  binary="$build/tests/fuzz/fuzz_$name"
  profile="$build/coverage/$name"
  rm -f "$profile".profraw "$profile".profdata
  # The whole corpus is replayed even where an input fails (the profile is written at exit).
  LLVM_PROFILE_FILE="$profile.profraw" "$binary" --mutants 0 "${inputs[@]}" \
    >"$profile.log" 2>&1 || echo "coverage.sh: $name: the replay failed, see $profile.log" >&2
  llvm-profdata-14 merge -sparse "$profile.profraw" -o "$profile.profdata"
  mapfile -t files < <(reader_files "$name")
  (cd "$source_dir" && llvm-cov-14 report "$OLDPWD/$binary" -instr-profile="$OLDPWD/$profile.profdata" \
    "${files[@]}") >"$profile.txt"
  # TOTAL row: regions, missed, cover, functions, missed, executed, lines, missed lines, cover.
  read -r lines missed < <(awk '$1 == "TOTAL" {print $8, $9}' "$profile.txt")
  printf '%-24s %8s %8s %7s%%  %s\n' "fuzz_$name" "$lines" "$((lines - missed))" \
    "$(awk -v l="$lines" -v m="$missed" 'BEGIN {printf "%.1f", l ? 100 * (l - m) / l : 0}')" \
    "$(echo "${files[*]}" | tr ' ' ',' | cut -c1-60)"
done
