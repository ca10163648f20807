// Shared by the libFuzzer harnesses: a scratch directory for files a harness must write (trace
// databases), created once per process and removed at exit.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace fuzz_support {

inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "fencescope-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) std::abort();
    std::filesystem::path path(pattern);
    static struct Remove {
      std::filesystem::path p;
      ~Remove() {
        std::error_code e;
        std::filesystem::remove_all(p, e);
      }
    } remove{path};
    return path;
  }();
  return dir;
}

}  // namespace fuzz_support
