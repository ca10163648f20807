// `fencescope bench import FILE`: import speed in MB/s of the (decompressed) input, with the time
// split between decoding (in memory) and SQLite inserts, so it shows which one limits the import.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

#include "app/cli/child_process.h"
#include "app/cli/commands.h"
#include "core/model/error.h"
#include "core/model/seconds_since.h"
#include "core/store/trace_writer.h"
#include "importers/common/compressed_input.h"
#include "importers/chrome_json/import_benchmark.h"
#include "importers/etl/etl_importer.h"
#include "importers/ftrace/ftrace_importer.h"
#include "importers/nsys/nsys_importer.h"
#include "importers/nsys/nsys_raw_read.h"
#include "importers/rocprof/rocpd_raw_read.h"
#include "importers/rocprof/rocprof_importer.h"

namespace app::cli {
namespace {

using Clock = core::SteadyClock;
using core::SecondsSince;

struct EtlRun {
  importers::etl::EtlImportStats stats;
  double commit_seconds = 0;
  double Decode() const { return stats.read_seconds + stats.decode_seconds; }
  double Write() const { return stats.write_seconds + commit_seconds; }
  double Total() const { return Decode() + Write(); }
};

void BenchEtl(const importers::DecodedInput& input, int repeat,
              const std::filesystem::path& scratch) {
  EtlRun best;
  for (int i = 0; i < repeat; ++i) {
    EtlRun run;
    core::store::TraceWriter writer(scratch, "etl");
    run.stats = importers::etl::ImportEtl(input.bytes.view(), input.label, writer, {});
    const auto t = Clock::now();
    writer.Commit();
    run.commit_seconds = SecondsSince(t);
    if (i == 0 || run.Total() < best.Total()) best = run;
  }
  std::filesystem::remove(scratch);
  const double mb = static_cast<double>(input.bytes.size()) / 1e6;
  const auto& s = best.stats;
  std::cout << fmt::format("input                 {} (ETW .etl, {:.1f} MB; best of {})\n",
                           input.label, mb, repeat);
  std::cout << fmt::format("ETW records           {} ({} DxgKrnl) -> {} trace events\n",
                           s.etw_events, s.dxgkrnl_events, s.records_written);
  std::cout << fmt::format("container walk        {:8.3f} s  {:9.1f} MB/s\n", s.read_seconds,
                           mb / s.read_seconds);
  std::cout << fmt::format("decode + map          {:8.3f} s  {:9.1f} MB/s   (in memory)\n",
                           s.decode_seconds, mb / s.decode_seconds);
  std::cout << fmt::format("decoding total        {:8.3f} s  {:9.1f} MB/s\n", best.Decode(),
                           mb / best.Decode());
  std::cout << fmt::format("SQLite inserts        {:8.3f} s  {:9.0f} rows/s  (+ commit {:.3f} s)\n",
                           s.write_seconds,
                           static_cast<double>(s.records_written) / s.write_seconds,
                           best.commit_seconds);
  std::cout << fmt::format("import total          {:8.3f} s  {:9.1f} MB/s\n", best.Total(),
                           mb / best.Total());
  std::cout << fmt::format("limited by            {} ({:.0f}% of the time)\n",
                           best.Write() >= best.Decode() ? "SQLite inserts" : "decoding",
                           100.0 * std::max(best.Write(), best.Decode()) / best.Total());
}

// ftrace text or trace-cmd .dat: the whole import, and for text next to a raw pass that only
// finds the line ends of the same bytes (the least any line reader does).
void BenchFtrace(const importers::DecodedInput& input, int repeat,
                 const std::filesystem::path& scratch) {
  const bool text = input.content == importers::FileFormat::kFtraceText;
  importers::ftrace::FtraceImportStats best;
  double best_total = 0, best_commit = 0;
  for (int i = 0; i < repeat; ++i) {
    const auto t = Clock::now();
    core::store::TraceWriter writer(scratch, text ? "ftrace-text" : "ftrace-dat");
    auto stats = text ? importers::ftrace::ImportFtraceText(input.bytes.view(), input.label,
                                                            writer, {})
                      : importers::ftrace::ImportTraceDat(input.bytes.view(), input.label,
                                                          writer, {});
    const auto c = Clock::now();
    writer.Commit();
    const double commit = SecondsSince(c);
    const double total = SecondsSince(t);
    if (i == 0 || total < best_total) {
      best = stats;
      best_total = total;
      best_commit = commit;
    }
  }
  std::filesystem::remove(scratch);
  double raw_seconds = 0;
  uint64_t lines = 0;
  for (int i = 0; i < repeat; ++i) {
    const auto t = Clock::now();
    uint64_t count = 0;
    const char* p = input.bytes.data();
    const char* end = p + input.bytes.size();
    while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p))))) {
      ++count;
      ++p;
    }
    const double seconds = SecondsSince(t);
    if (i == 0 || seconds < raw_seconds) raw_seconds = seconds;
    lines = count;
  }
  const double mb = static_cast<double>(input.bytes.size()) / 1e6;
  std::cout << fmt::format("input                 {} ({}, {:.1f} MB; best of {})\n", input.label,
                           text ? "ftrace text" : "trace-cmd .dat", mb, repeat);
  if (text) {
    std::cout << fmt::format("events read           {} ({} lines, {} broken) -> {} trace events\n",
                             best.events, lines, best.bad_lines, best.records_written);
  } else {
    std::cout << fmt::format("records read          {} -> {} trace events\n", best.events,
                             best.records_written);
  }
  std::cout << fmt::format("read + map            {:8.3f} s  {:9.1f} MB/s   (in memory)\n",
                           best.read_seconds, mb / best.read_seconds);
  std::cout << fmt::format("SQLite inserts        {:8.3f} s  (+ commit {:.3f} s)\n",
                           best.write_seconds, best_commit);
  std::cout << fmt::format("import total          {:8.3f} s  {:9.1f} MB/s\n", best_total,
                           mb / best_total);
  if (!text) return;  // a line scan means nothing on the binary .dat
  std::cout << fmt::format("raw line scan         {:8.3f} s  {:9.1f} MB/s   (memchr for line ends)\n",
                           raw_seconds, mb / raw_seconds);
  std::cout << fmt::format("import/raw ratio      {:.3f}\n", raw_seconds / best_total);
}

// Chrome JSON: the whole import next to a bare simdjson pass over the same bytes.
void BenchChromeJson(const std::filesystem::path& file, const std::filesystem::path& scratch,
                     int repeat) {
  auto r = importers::chrome_json::RunImportBenchmark(file, scratch, repeat);
  std::cout << fmt::format("JSON bytes (decoded)    {} ({:.1f} MB; best of {} runs)\n",
                           r.content_bytes, r.content_bytes / 1e6, r.runs);
  std::cout << fmt::format("events in file          {}\n", r.events_in_file);
  std::cout << fmt::format("records written         {}\n", r.records_written);
  std::cout << fmt::format("                        {:>8}  {:>8}  {:>13}\n", "wall MB/s", "wall s",
                           "CPU s");
  auto row = [&](const char* what, double wall, double cpu) {
    std::cout << fmt::format("{:<24}{:>9.1f}  {:>8.3f}  {:>13.3f}\n", what, r.MBps(wall), wall,
                             cpu);
  };
  row("import (whole)", r.import_seconds, r.import_cpu);
  row("  of which scan + parse", r.parse_seconds, r.parse_cpu);
  row("raw simdjson pass", r.raw_seconds, r.raw_cpu);
  std::cout << fmt::format("import/raw ratio        {:.2f} wall, {:.2f} CPU  (target >= 0.4 on "
                           ">= 100 MB)\n",
                           r.Ratio(), r.CpuRatio());
  std::cout << fmt::format("scan+parse/raw ratio    {:.2f} wall, {:.2f} CPU\n",
                           r.raw_seconds / r.parse_seconds, r.raw_cpu / r.parse_cpu);
}

// An SQLite capture (an Nsight Systems export, a rocpd database): the whole import (tables
// read, mapped, written, committed) next to a bare read of the same tables
// (importers/common/raw_table_read.h), both from the same opened file.
struct SqliteCaptureBench {
  std::string kind;      // "Nsight Systems export"
  std::string source;    // the trace's source name
  std::string raw_what;  // what the raw read reads
  std::string rows;      // what its rows are ("activity rows")
  std::function<void(core::store::TraceWriter&)> import;
  std::function<importers::RawReadResult()> raw_read;
};

void BenchSqliteCapture(const std::filesystem::path& file, const std::filesystem::path& scratch,
                        int repeat, const SqliteCaptureBench& bench) {
  double import_seconds = 0, raw_seconds = 0;
  uint64_t events = 0;
  importers::RawReadResult raw;
  for (int i = 0; i < repeat; ++i) {
    auto t = Clock::now();
    {
      core::store::TraceWriter writer(scratch, bench.source);
      bench.import(writer);
      events = writer.events_written();
      writer.Commit();
    }
    const double import = SecondsSince(t);
    t = Clock::now();
    raw = bench.raw_read();
    const double read = SecondsSince(t);
    if (i == 0 || import < import_seconds) import_seconds = import;
    if (i == 0 || read < raw_seconds) raw_seconds = read;
  }
  std::filesystem::remove(scratch);
  const double mb = static_cast<double>(std::filesystem::file_size(file)) / 1e6;
  std::cout << fmt::format("input                 {} ({}, {:.1f} MB; best of {})\n",
                           file.string(), bench.kind, mb, repeat);
  std::cout << fmt::format("{:<22}{} -> {} trace events\n", bench.rows, raw.rows, events);
  std::cout << fmt::format("import total          {:8.3f} s  {:9.1f} MB/s\n", import_seconds,
                           mb / import_seconds);
  std::cout << fmt::format("raw table read        {:8.3f} s  {:9.1f} MB/s   ({}; checksum {})\n",
                           raw_seconds, mb / raw_seconds, bench.raw_what, raw.checksum % 1000);
  std::cout << fmt::format("import/raw ratio      {:.3f}  (target >= 0.5)\n",
                           raw_seconds / import_seconds);
}

void BenchNsys(const std::filesystem::path& file, const std::filesystem::path& scratch,
               int repeat) {
  const importers::nsys::NsysDatabase db =
      importers::nsys::NsysDatabase::OpenFile(file, file.string());
  BenchSqliteCapture(file, scratch, repeat,
                     {"Nsight Systems export", "nsys-sqlite", "SELECT * joined to StringIds",
                      "activity rows",
                      [&](core::store::TraceWriter& w) {
                        importers::nsys::ImportNsysDatabase(db, w, {});
                      },
                      [&] { return importers::nsys::RawReadActivityTables(db); }});
}

void BenchRocpd(const std::filesystem::path& file, const std::filesystem::path& scratch,
                int repeat) {
  core::store::Database db(file.string(), core::store::Database::Mode::kReadOnly);
  BenchSqliteCapture(file, scratch, repeat,
                     {"rocpd database", "rocpd", "SELECT * with the names joined", "table rows",
                      [&](core::store::TraceWriter& w) {
                        importers::rocprof::ImportRocpd(db, file.string(), w, {});
                      },
                      [&] { return importers::rocprof::RawReadRocpdTables(db); }});
}

// The whole `fencescope import` in a child process, run before this process reads the input:
// Linux carries the high-water mark of the image a process replaces into its ru_maxrss, and a
// spawned child starts from this process's image, so this one must still be small.
ChildRun ImportInAChild(const std::filesystem::path& file, const std::filesystem::path& scratch) {
  const ChildRun run =
      RunChild({SelfExecutable(), "import", file.string(), "-o", scratch.string()}, true);
  std::error_code ec;
  std::filesystem::remove(scratch, ec);
  if (run.exit_code != 0) {
    throw core::Error(file.string() +
                      ": the import failed (run `fencescope import` on it to see why)");
  }
  return run;
}

// Its peak resident memory against the input's size on disk and decoded.
void PrintPeakMemory(const ChildRun& run, uint64_t file_bytes, uint64_t decoded_bytes) {
  const double mb = static_cast<double>(run.peak_resident_bytes) / 1e6;
  std::cout << fmt::format("import peak resident  {:.1f} MB  (a child `fencescope import`)\n", mb);
  std::cout << fmt::format("peak / input bytes    {:.2f}  (file {:.1f} MB; target <= 1.0)\n",
                           static_cast<double>(run.peak_resident_bytes) / file_bytes,
                           file_bytes / 1e6);
  if (decoded_bytes != file_bytes) {
    std::cout << fmt::format("peak / decoded bytes  {:.2f}  (decoded {:.1f} MB)\n",
                             static_cast<double>(run.peak_resident_bytes) / decoded_bytes,
                             decoded_bytes / 1e6);
  }
}

}  // namespace

void RegisterBenchImport(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "import", "Import speed of FILE in MB/s, split into decoding and SQLite inserts");
  auto file = std::make_shared<std::string>();
  auto repeat = std::make_shared<int>(3);
  auto dir = std::make_shared<std::string>(std::filesystem::temp_directory_path().string());
  cmd->add_option("FILE", *file, "File to import (any format `import` reads)")->required();
  cmd->add_option("--repeat", *repeat, "Runs; the best is reported (default 3)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--dir", *dir, "Directory for the scratch trace");
  cmd->callback([file, repeat, dir] {
    if (*repeat < 1) throw core::Error("--repeat must be at least 1");
    const auto scratch = std::filesystem::path(*dir) /
                         fmt::format("fencescope-bench-import-{}.db", ::getpid());
    const ChildRun child = ImportInAChild(*file, scratch);
    const auto t = Clock::now();
    importers::DecodedInput input = importers::ReadInput(*file);
    const double read_seconds = SecondsSince(t);
    if (input.container != importers::FileFormat::kUnknown) {
      std::cout << fmt::format("decompress            {:8.3f} s  ({} -> {} bytes)\n",
                               read_seconds, input.file_size, input.bytes.size());
    }
    if (input.content == importers::FileFormat::kEtl) {
      BenchEtl(input, *repeat, scratch);
    } else if (input.content == importers::FileFormat::kFencescopeTrace &&
               input.container == importers::FileFormat::kUnknown &&
               importers::nsys::IsNsysExportFile(*file)) {
      BenchNsys(*file, scratch, *repeat);
    } else if (input.content == importers::FileFormat::kFencescopeTrace &&
               input.container == importers::FileFormat::kUnknown &&
               importers::rocprof::IsRocpdFile(*file)) {
      BenchRocpd(*file, scratch, *repeat);
    } else if (input.content == importers::FileFormat::kFtraceText ||
               input.content == importers::FileFormat::kTraceDat) {
      BenchFtrace(input, *repeat, scratch);
    } else {
      BenchChromeJson(*file, scratch, *repeat);
    }
    PrintPeakMemory(child, input.file_size, input.bytes.size());
  });
}

}  // namespace app::cli
