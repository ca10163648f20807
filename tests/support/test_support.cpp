#include "tests/support/test_support.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/report/fail_if.h"

namespace test_support {

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "scratch";
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  m_path = std::filesystem::temp_directory_path() /
           ("fencescope-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
            "-" + name);
  std::filesystem::remove_all(m_path);
  std::filesystem::create_directories(m_path);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string Quote(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

void ExpectFailure(const CommandResult& r, int exit_code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

std::filesystem::path SimulateTrace(const std::filesystem::path& path, const std::string& args) {
  const CommandResult r = RunFencescope("simulate " + args + " -o " + Quote(path));
  EXPECT_EQ(r.exit_code, 0) << "simulate " << args << ": " << r.err;
  return path;
}

CommandResult RunFencescope(const std::string& args) {
  return RunCommand(std::string("'") + FENCESCOPE_EXECUTABLE + "' " + args);
}

CommandResult RunCommand(const std::string& shell_command) {
  ScratchDir capture;
  auto out = capture / "stdout.txt";
  auto err = capture / "stderr.txt";
  std::string command =
      shell_command + " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(out);
  result.err = ReadFile(err);
  // A sanitizer report from the child (build/asan) fails the test even where the test expects
  // the command to fail: its exit code alone would not tell.
  for (const char* report :
       {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", ": runtime error: "}) {
    if (result.err.find(report) != std::string::npos) {
      ADD_FAILURE() << "sanitizer report from `" << shell_command << "`:\n" << result.err;
      break;
    }
  }
  return result;
}

std::filesystem::path SourceDir() { return FENCESCOPE_SOURCE_DIR; }
std::filesystem::path SharedDir() { return FENCESCOPE_SHARED_DIR; }

double At(const core::report::Json& json, const std::string& path) {
  const core::report::Json* v = core::report::FindPath(json, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? v->Number() : -1;
}

std::map<std::string, int64_t> ScriptFigures(const std::filesystem::path& script,
                                             const std::filesystem::path& input) {
  return CommandFigures("python3 " + Quote(script) + " " + Quote(input));
}

std::map<std::string, int64_t> CommandFigures(const std::string& command) {
  auto run = RunCommand(command);
  EXPECT_EQ(run.exit_code, 0) << command << ": " << run.err;
  std::map<std::string, int64_t> out;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) out[line.substr(0, tab)] = std::stoll(line.substr(tab + 1));
  }
  return out;
}

}  // namespace test_support
