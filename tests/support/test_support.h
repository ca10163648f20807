// Helpers shared by the test executables: scratch directories, running the fencescope binary,
// reading files, and the paths of the repository and of ../shared.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "core/model/error.h"
#include "core/report/json.h"

namespace test_support {

// A fresh, empty directory unique to the calling test; removed when the object goes away.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

 private:
  std::filesystem::path m_path;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `command` with the shell, stdin from /dev/null, capturing stdout and stderr.
CommandResult RunCommand(const std::string& command);
// Runs the built fencescope executable with `args` (a shell-quoted string).
CommandResult RunFencescope(const std::string& args);
// `path` in single quotes, for the argument string of RunFencescope.
std::string Quote(const std::filesystem::path& path);
// `r` is a command that failed with `exit_code` and said `needle` on stderr.
void ExpectFailure(const CommandResult& r, int exit_code, const std::string& needle);
// `fencescope simulate ARGS -o PATH` (ARGS: a scenario name or file, then any options); a test
// failure with the command's stderr when it fails. Returns `path`.
std::filesystem::path SimulateTrace(const std::filesystem::path& path, const std::string& args);

std::string ReadFile(const std::filesystem::path& path);
// How many times `needle` occurs in `text` (overlapping ones too), e.g. table rows ("<tr").
size_t Occurrences(const std::string& text, const std::string& needle);
// The message of the core::Error `f` throws ("(no error)" when it returns).
template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// The number at a --fail-if style path (`fences.waits_never_unblocked`, `queues[1].busy_ns`) of
// a report's JSON; a test failure and -1 when the key is missing.
double At(const core::report::Json& json, const std::string& path);
std::filesystem::path SourceDir();
// ../shared next to the repository (exists on CI; tests needing it live in `external` folders).
std::filesystem::path SharedDir();

// Runs `python3 script input` and reads its "key<TAB>count" lines (a script that counts a raw
// trace's figures with nothing of fencescope); a failed run fails the calling test.
std::map<std::string, int64_t> ScriptFigures(const std::filesystem::path& script,
                                             const std::filesystem::path& input);
// The same for any command line (a script given more than one argument).
std::map<std::string, int64_t> CommandFigures(const std::string& command);

}  // namespace test_support
