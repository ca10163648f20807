// `fencescope bench capture [--frames N] [--runs R]`: vkcube --c N without and with the
// capture layer, frames per second of each and their ratio (with / without).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "app/cli/capture_run.h"
#include "app/cli/commands.h"
#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "importers/vulkan/vk_record_importer.h"

namespace app::cli {

namespace fs = std::filesystem;

namespace {

struct BenchCaptureOptions {
  int frames = 1000;
  int runs = 3;
  std::string app = "vkcube";
};

void RunBenchCapture(const BenchCaptureOptions& o) {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) {
    throw core::Error("bench capture: vkcube needs a display (run under xvfb-run)");
  }
  const fs::path layer_dir = CaptureLayerDir();
  if (!fs::exists(layer_dir / kCaptureManifest)) {
    throw core::Error(fmt::format("bench capture: the capture layer is not built ({} missing)",
                                  (layer_dir / kCaptureManifest).string()));
  }
  const fs::path scratch =
      fs::temp_directory_path() / fmt::format("fencescope-bench-capture-{}", getpid());
  fs::create_directories(scratch);
  const std::vector<std::string> argv = {o.app, "--c", std::to_string(o.frames)};
  // Alternating runs; the best of each side (frame rates on a shared machine are noisy).
  double best_without = 0, best_with = 0;
  for (int r = 0; r < o.runs; ++r) {
    const AppRun without = RunApp(argv, {}, 0, 3, true);
    if (without.exit_code != 0) {
      fs::remove_all(scratch);
      throw core::Error(fmt::format("bench capture: {} failed (exit {}, signal {})", o.app,
                                    without.exit_code, without.term_signal));
    }
    fs::remove_all(scratch / "records");
    fs::create_directories(scratch / "records");
    const AppRun with =
        RunApp(argv, CaptureEnvironment(layer_dir, scratch / "records" / ""), 0, 3, true);
    const auto files = RecordFiles(scratch / "records");
    if (with.exit_code != 0 || files.empty()) {
      fs::remove_all(scratch);
      throw core::Error(
          fmt::format("bench capture: {} with the layer failed (exit {}, {} "
                      "record files)",
                      o.app, with.exit_code, files.size()));
    }
    const double fps_without = o.frames / without.seconds;
    const double fps_with = o.frames / with.seconds;
    fmt::print("run {}: without layer {:.1f} frames/s, with layer {:.1f} frames/s\n", r + 1,
               fps_without, fps_with);
    best_without = std::max(best_without, fps_without);
    best_with = std::max(best_with, fps_with);
    if (r + 1 == o.runs) {
      core::store::TraceWriter writer(scratch / "trace.db", "vulkan-layer");
      const auto stats = importers::vulkan::ImportVulkanRecords(files, writer);
      writer.Commit();
      fmt::print("last capture: {} batches ({} with GPU times), {} presents, {} CPU waits\n",
                 stats.batches, stats.timed_batches, stats.presents, stats.cpu_waits);
    }
  }
  fs::remove_all(scratch);
  fmt::print(
      "{} --c {} (best of {}): without layer {:.1f} frames/s, with layer {:.1f} "
      "frames/s, ratio {:.3f}\n",
      o.app, o.frames, o.runs, best_without, best_with, best_with / best_without);
}

}  // namespace

void RegisterBenchCapture(CLI::App& bench) {
  auto options = std::make_shared<BenchCaptureOptions>();
  auto* cmd = bench.add_subcommand(
      "capture", "vkcube with and without the Vulkan capture layer: frames/s and their ratio");
  cmd->add_option("--frames", options->frames, "Frames per run (vkcube --c N)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--runs", options->runs, "Runs of each (the best counts)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--app", options->app, "The vkcube executable");
  cmd->callback([options] { RunBenchCapture(*options); });
}

}  // namespace app::cli
