// Running an application with the Vulkan capture layer (app/cli/capture_command.cpp), shared by
// `capture` and `bench capture`.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace app::cli {

inline constexpr char kCaptureLayerName[] = "VK_LAYER_FENCESCOPE_capture";
inline constexpr char kCaptureManifest[] = "VkLayer_fencescope_capture.json";

struct AppRun {
  int exit_code = -1;    // when it exited
  int term_signal = 0;   // when a signal ended it
  bool stopped = false;  // stopped by --duration or by an interrupt of fencescope
  int stop_signal = 0;   // the last signal sent to stop it
  double seconds = 0;    // wall time from start to end
};

// The folder holding the layer and its manifest: $FENCESCOPE_VULKAN_LAYER_DIR, else
// vulkan_layer/ beside the fencescope binary.
std::filesystem::path CaptureLayerDir();
// The variables that enable the layer (VK_LAYER_PATH, VK_INSTANCE_LAYERS) and name its output.
std::vector<std::pair<std::string, std::string>> CaptureEnvironment(
    const std::filesystem::path& layer_dir, const std::filesystem::path& out);
// Runs argv with `env` added; after duration_s (> 0) sends SIGINT, then SIGTERM and SIGKILL
// grace_s apart until it ends. `quiet` sends its output to /dev/null.
AppRun RunApp(const std::vector<std::string>& argv,
              const std::vector<std::pair<std::string, std::string>>& env, double duration_s,
              double grace_s, bool quiet);
// The record files (*.fsvk) in `dir`, sorted.
std::vector<std::filesystem::path> RecordFiles(const std::filesystem::path& dir);

}  // namespace app::cli
