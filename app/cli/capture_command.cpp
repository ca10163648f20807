// `fencescope capture -o trace.db [--duration S] -- APP ARGS...`: runs APP with the Vulkan
// capture layer (VK_LAYER_FENCESCOPE_capture, importers/vulkan/layer) and turns its records
// into a trace. `fencescope capture -o trace.db --records FILE...` converts record files that
// the layer wrote when enabled by hand.
// `fencescope bench capture [--frames N]`: vkcube with and without the layer.
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/capture_run.h"
#include "app/cli/commands.h"
#include "app/gui_entry.h"
#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "importers/vulkan/vk_record_importer.h"

namespace app::cli {

namespace fs = std::filesystem;

namespace {

volatile sig_atomic_t g_interrupted = 0;
void OnInterrupt(int) {
  g_interrupted = 1;
}

}  // namespace

fs::path CaptureLayerDir() {
  if (const char* dir = std::getenv("FENCESCOPE_VULKAN_LAYER_DIR"); dir && *dir) return dir;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  // The build folder keeps it beside the binary; an install (app/packaging/CMakeLists.txt) in
  // PREFIX/lib/fencescope/vulkan_layer, found from PREFIX/bin.
  const fs::path beside = exe.parent_path() / "vulkan_layer";
  const fs::path installed = exe.parent_path().parent_path() / "lib/fencescope/vulkan_layer";
  if (!fs::exists(beside, ec) && fs::exists(installed, ec)) return installed;
  return beside;
}

std::vector<std::pair<std::string, std::string>> CaptureEnvironment(const fs::path& layer_dir,
                                                                    const fs::path& out) {
  auto join = [](const std::string& first, const char* rest) {
    return rest && *rest ? first + ":" + rest : first;
  };
  return {{"VK_LAYER_PATH", join(layer_dir.string(), std::getenv("VK_LAYER_PATH"))},
          {"VK_INSTANCE_LAYERS", join(kCaptureLayerName, std::getenv("VK_INSTANCE_LAYERS"))},
          {"FENCESCOPE_CAPTURE_OUT", out.string()}};
}

AppRun RunApp(const std::vector<std::string>& argv,
              const std::vector<std::pair<std::string, std::string>>& env, double duration_s,
              double grace_s, bool quiet) {
  if (argv.empty()) throw core::Error("capture: no application given (after --)");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw core::Error("capture: fork failed");
  if (pid == 0) {
    for (const auto& [key, value] : env) setenv(key.c_str(), value.c_str(), 1);
    // A shell starting us in the background sets SIGINT to ignored; the application gets the
    // default back so that --duration can stop it with SIGINT.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (quiet) {
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 1), dup2(null, 2);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    fmt::print(stderr, "fencescope: capture: cannot run {}: {}\n", argv[0], strerror(errno));
    _exit(127);
  }
  struct sigaction action {
  }, old_int{};
  action.sa_handler = OnInterrupt;
  sigaction(SIGINT, &action, &old_int);
  AppRun run;
  int sent = 0;  // 0 none, 1 SIGINT, 2 SIGTERM, 3 SIGKILL
  std::chrono::steady_clock::time_point sent_at;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const bool stop = (duration_s > 0 && elapsed >= duration_s) || g_interrupted;
    if (stop && sent == 0) {
      kill(pid, SIGINT);
      sent = 1, sent_at = now, run.stopped = true;
    } else if (sent > 0 && sent < 3 &&
               std::chrono::duration<double>(now - sent_at).count() >= grace_s) {
      kill(pid, sent == 1 ? SIGTERM : SIGKILL);
      ++sent, sent_at = now;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  sigaction(SIGINT, &old_int, nullptr);
  g_interrupted = 0;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.stop_signal = sent == 1 ? SIGINT : sent == 2 ? SIGTERM : sent == 3 ? SIGKILL : 0;
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.term_signal = WTERMSIG(status);
  return run;
}

std::vector<fs::path> RecordFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".fsvk") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

std::string Describe(const AppRun& run) {
  std::string how = run.term_signal ? fmt::format("ended by signal {} ({})", run.term_signal,
                                                  strsignal(run.term_signal))
                                    : fmt::format("exited with {}", run.exit_code);
  if (run.stopped) how += fmt::format(" after being stopped ({})", strsignal(run.stop_signal));
  return how;
}

void Convert(const std::vector<fs::path>& files, const fs::path& out) {
  core::store::TraceWriter writer(out, "vulkan-layer");
  const auto stats = importers::vulkan::ImportVulkanRecords(files, writer);
  writer.Commit();
  fmt::print(
      "{}: {} events from {} process(es): {} batches ({} with GPU times, {} named), {} GPU "
      "waits, {} GPU signals, {} CPU signals, {} CPU waits ({} linked to a signal, {} by "
      "polling), {} presents, {} acquires\n",
      out.string(), stats.events, stats.files, stats.batches, stats.timed_batches,
      stats.named_batches, stats.gpu_waits, stats.gpu_signals, stats.cpu_signals, stats.cpu_waits,
      stats.cpu_waits_linked, stats.cpu_wait_polls, stats.presents, stats.acquires);
}

struct CaptureOptions {
  std::string out;
  double duration = 0;
  double grace = 3;
  bool keep_records = false;
  std::vector<std::string> records;
  std::vector<std::string> app;
};

void RunCapture(const CaptureOptions& o) {
  if (!o.records.empty()) {
    if (!o.app.empty()) throw core::Error("capture: give either --records or an application");
    std::vector<fs::path> files;
    for (const auto& r : o.records) {
      if (fs::is_directory(r)) {
        for (auto& f : RecordFiles(r)) files.push_back(f);
      } else {
        files.push_back(r);
      }
    }
    if (files.empty()) throw core::Error("capture: no record files (.fsvk) found");
    Convert(files, o.out);
    return;
  }
  const fs::path layer_dir = CaptureLayerDir();
  if (!fs::exists(layer_dir / kCaptureManifest)) {
    throw core::Error(fmt::format(
        "capture: the Vulkan capture layer is not built: {} is missing (fencescope was built "
        "without the Vulkan headers, libvulkan-dev; FENCESCOPE_VULKAN_LAYER_DIR overrides the "
        "place)",
        (layer_dir / kCaptureManifest).string()));
  }
  const fs::path records = fs::path(o.out).string() + ".records";
  fs::remove_all(records);
  fs::create_directories(records);
  const AppRun run =
      RunApp(o.app, CaptureEnvironment(layer_dir, records / ""), o.duration, o.grace, false);
  const auto files = RecordFiles(records);
  fmt::print(stderr, "fencescope: capture: {} {}\n", o.app.front(), Describe(run));
  if (files.empty()) {
    fs::remove_all(records);
    throw core::Error(fmt::format(
        "capture: the layer {} did not load into {}: it wrote no records. The application "
        "still ran ({}), but without the layer: check that it uses Vulkan and that a Vulkan "
        "loader (libvulkan1) and driver (e.g. mesa-vulkan-drivers) are installed; `vulkaninfo "
        "--summary` with VK_LAYER_PATH={} lists the layer when the loader finds it",
        kCaptureLayerName, o.app.front(), Describe(run), layer_dir.string()));
  }
  Convert(files, o.out);
  if (o.keep_records) {
    fmt::print(stderr, "fencescope: capture: records kept in {}\n", records.string());
  } else {
    fs::remove_all(records);
  }
  if (run.exit_code != 0 && !run.stopped) SetExitCode(3);
}

}  // namespace

void RegisterCaptureCommand(CLI::App& app) {
  auto options = std::make_shared<CaptureOptions>();
  auto* cmd = app.add_subcommand(
      "capture",
      "Run a Vulkan application with the capture layer and write its queues, semaphores, "
      "fences and presents as a trace: capture -o trace.db [--duration S] -- APP ARGS...");
  cmd->add_option("-o,--output", options->out, "Trace to write (.db)")->required();
  cmd->add_option("--duration", options->duration,
                  "Stop the application after this many seconds (SIGINT, then SIGTERM and "
                  "SIGKILL after --grace); 0: let it end by itself")
      ->check(FiniteRange(0, 1e6));
  cmd->add_option("--grace", options->grace,
                  "Seconds between SIGINT, SIGTERM and SIGKILL when stopping (default 3)")
      ->check(FiniteRange(0, 3600));
  cmd->add_flag("--keep-records", options->keep_records,
                "Keep the layer's record files (<output>.records/) after converting");
  cmd->add_option("--records", options->records,
                  "Convert record files (.fsvk, or folders of them) written by the layer when "
                  "enabled by hand, instead of running an application");
  cmd->add_option("app", options->app, "The application and its arguments (after --)");
  cmd->callback([options] { RunCapture(*options); });
}

}  // namespace app::cli
