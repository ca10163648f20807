// `fencescope bench store`: how close the trace writer and loader come to what SQLite itself can
// do on this machine, measured in the same run.
//
//   writer  : N synthetic events through TraceWriter (including Commit: indexes, sync, rename)
//   ceiling : the same N rows through one prepared INSERT into a bare table with the same columns,
//             in one transaction, with the same pragmas
//   loader  : LoadTrace of the written file (columns, sort check, per-queue/thread indices)
//   select  : one raw "SELECT ... ORDER BY rowid" stepping over the same rows, reading each column
#pragma once

#include <cstdint>
#include <filesystem>

namespace core::store {

struct StoreBenchmarkResult {
  uint64_t events = 0;
  double writer_seconds = 0;
  double raw_insert_seconds = 0;
  double loader_seconds = 0;
  double raw_select_seconds = 0;
  double WriterRowsPerSecond() const { return events / writer_seconds; }
  double RawInsertRowsPerSecond() const { return events / raw_insert_seconds; }
  double LoaderRowsPerSecond() const { return events / loader_seconds; }
  double RawSelectRowsPerSecond() const { return events / raw_select_seconds; }
  double WriterRatio() const { return raw_insert_seconds / writer_seconds; }
  double LoaderRatio() const { return raw_select_seconds / loader_seconds; }
};

// The raw SQLite insert ceiling alone: seconds to insert `rows` synthetic event rows through one
// prepared INSERT into a bare table in one transaction at `db_path` (the file is removed).
// Other benchmarks (`bench simulate`) compare against it in the same run.
double MeasureRawInsertSeconds(uint64_t rows, const std::filesystem::path& db_path);

// SQLite's own time to step through the `events` rows of the database at `path` in rowid order,
// fetching every column the loader reads (event_row.h) and keeping nothing: what reading the
// rows costs at the least, the yardstick of the loader here and of a first open in `bench ui`.
double RawSelectSeconds(const std::filesystem::path& path);

// Runs the benchmark with files in `work_dir` (removed afterwards).
StoreBenchmarkResult RunStoreBenchmark(uint64_t events, const std::filesystem::path& work_dir);

}  // namespace core::store
