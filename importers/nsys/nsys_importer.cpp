#include "importers/nsys/nsys_importer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/nsys/nsys_reader.h"
#include "importers/nsys/nsys_trace_builder.h"

extern char** environ;

namespace importers::nsys {
namespace {

// The `nsys` executable on PATH, empty when there is none.
std::string FindNsys() {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/nsys";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string ExportCommand(const std::filesystem::path& report, const std::filesystem::path& out) {
  return fmt::format("nsys export --type sqlite --force-overwrite true --output {} {}",
                     out.string(), report.string());
}

}  // namespace

void ImportNsysDatabase(const NsysDatabase& db, core::store::TraceWriter& writer,
                        const ImportOptions& options) {
  if (!LooksLikeNsysExport(db)) {
    throw core::Error(fmt::format(
        "{}: not an Nsight Systems export (no StringIds table beside CUPTI_ACTIVITY_KIND_* or "
        "TARGET_INFO_* tables)",
        db.label()));
  }
  auto part = [&](double from, double to) {
    return [&options, from, to](double f) {
      if (options.progress) options.progress(from + (to - from) * f);
    };
  };
  NsysCapture capture = ReadCapture(db, part(0.0, 0.5));
  BuildTrace(capture, db.label(), writer, part(0.5, 1.0));
}

void ExportNsysReport(const std::filesystem::path& report,
                      const std::filesystem::path& sqlite_out) {
  const std::string nsys = FindNsys();
  if (nsys.empty()) {
    throw core::Error(fmt::format(
        "{}: an Nsight Systems report (.nsys-rep), which only NVIDIA's nsys reads, and no nsys "
        "is on PATH: export it with `{}` and import the .sqlite file",
        report.string(), ExportCommand(report, report.string() + ".sqlite")));
  }
  const std::string out = sqlite_out.string(), in = report.string();
  std::vector<std::string> args = {nsys,  "export", "--type", "sqlite", "--force-overwrite",
                                   "true", "--output", out,   in};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::filesystem::path log = sqlite_out.string() + ".log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, nsys.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (rc == 0) waitpid(pid, &status, 0);
  std::ifstream in_log(log);
  std::string said((std::istreambuf_iterator<char>(in_log)), std::istreambuf_iterator<char>());
  std::error_code ec;
  std::filesystem::remove(log, ec);
  if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      !std::filesystem::exists(sqlite_out)) {
    if (said.size() > 2000) said = said.substr(said.size() - 2000);
    throw core::Error(fmt::format("{}: `{}` failed{}{}", in, ExportCommand(report, sqlite_out),
                                  said.empty() ? "" : ": ", said));
  }
}

}  // namespace importers::nsys
