#include "app/cli/analysed_trace.h"

#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

#include "app/cli/terminal_progress.h"
#include "core/model/error.h"

namespace app::cli {

AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, int64_t path_until_ns) {
  AnalysedTrace out;
  {
    TerminalProgress progress("loading  " + path);
    out.store = std::make_unique<core::store::TraceStore>(
        core::store::LoadTrace(path, [&](double f) { progress.Update(f); }));
  }
  TerminalProgress progress("analysing");
  out.data = core::report::AnalyseTrace(
      *out.store, full, [&](double f) { progress.Update(f); },
      path_until_ns < 0 ? core::analysis::kUnknownTime : out.store->start_ns() + path_until_ns);
  return out;
}

void WriteFileAtomically(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp-{}", getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw core::Error(fmt::format("{}: cannot create the output file", path.string()));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      throw core::Error(fmt::format("{}: writing the output failed", path.string()));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw core::Error(fmt::format("{}: cannot replace the output file", path.string()));
  }
}

}  // namespace app::cli
