#include "app/cli/fleet_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "app/cli/child_process.h"
#include "core/store/output_file.h"

namespace app::cli {
namespace fs = std::filesystem;

namespace {

// MemAvailable of /proc/meminfo in bytes; 0 when unknown.
uint64_t AvailableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit) {
    if (key == "MemAvailable:") return kb * 1024;
  }
  return 0;
}

bool IsCompressedName(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".gz" || ext == ".zip";
}

}  // namespace

uint64_t EstimatedMapPeakBytes(const fs::path& input) {
  std::error_code ec;
  uint64_t bytes = fs::file_size(input, ec);
  if (ec) bytes = 0;
  if (IsCompressedName(input)) bytes *= 10;
  return 2 * bytes + (64u << 20);
}

size_t FleetWorkerCount(const std::vector<fs::path>& inputs, size_t limit) {
  size_t workers = std::max(1u, std::thread::hardware_concurrency());
  uint64_t largest = 0;
  for (const fs::path& p : inputs) largest = std::max(largest, EstimatedMapPeakBytes(p));
  if (const uint64_t available = AvailableMemoryBytes(); available && largest) {
    workers = std::min<size_t>(workers, std::max<uint64_t>(1, available / largest));
  }
  workers = std::min(workers, std::max<size_t>(1, inputs.size()));
  if (limit) workers = std::min(workers, limit);
  return workers;
}

void ForEachOnPool(size_t count, size_t workers,
                   const std::function<void(size_t index, size_t worker)>& task) {
  std::atomic<size_t> next{0};
  auto work = [&](size_t worker) {
    for (size_t i = next++; i < count; i = next++) task(i, worker);
  };
  std::vector<std::thread> threads;
  for (size_t w = 0; w < std::max<size_t>(1, workers); ++w) threads.emplace_back(work, w);
  for (std::thread& t : threads) t.join();
}

MapPoolResult RunMapPool(const core::fleet::FleetPaths& paths, size_t count, size_t workers,
                         const std::function<void(size_t, size_t)>& progress) {
  const auto begin = std::chrono::steady_clock::now();
  MapPoolResult result;
  result.workers = std::max<size_t>(1, std::min(workers, count));
  const std::string self = SelfExecutable();
  std::mutex mutex;
  size_t done = 0;
  ForEachOnPool(count, result.workers, [&](size_t i, size_t) {
    ChildRun run;
    bool ok = false;
    try {
      run = RunChild(
          {self, "fleet", "map", paths.dir.string(), "--first", std::to_string(i), "--count", "1"},
          /*quiet=*/true);
      ok = run.spawn_error == 0 && run.exit_code == 0 && fs::exists(paths.Summary(i));
      if (!ok && !fs::exists(paths.Error(i))) {
        // The child could not say why itself (killed, out of memory, not started).
        const std::string why =
            run.spawn_error ? fmt::format("could not start {}: error {}", self, run.spawn_error)
            : run.exit_code > 128
                ? fmt::format("the map process was killed by signal {}", run.exit_code - 128)
                : fmt::format("the map process exited with code {}", run.exit_code);
        core::store::WriteFileAtomically(paths.Error(i), why + "\n");
      }
    } catch (const std::exception&) {
      // Only this trace is lost; the report names it (no .error file: "no summary").
      ok = false;
    }
    std::lock_guard lock(mutex);
    ok ? ++result.succeeded : ++result.failed;
    result.peak_worker_bytes = std::max(result.peak_worker_bytes, run.peak_resident_bytes);
    result.cpu_seconds += run.cpu_seconds;
    result.disk_read_bytes += run.disk_read_bytes;
    ++done;
    if (progress) progress(done, count);
  });
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return result;
}

}  // namespace app::cli
