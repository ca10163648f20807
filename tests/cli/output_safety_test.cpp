// Commands that write a file never destroy their input or a file that is not theirs to replace:
// an output naming the input (by any path) is refused, so is one that exists and is not a regular
// file (a FIFO, a device), and a symbolic link is written through, the link kept.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

using test_support::Quote;
using test_support::ReadFile;
using test_support::RunFencescope;
using test_support::ScratchDir;
namespace fs = std::filesystem;

namespace {
const char kJson[] = R"({"traceEvents":[{"name":"k","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]})";

fs::path WriteJson(const ScratchDir& dir) {
  const fs::path path = dir / "in.json";
  std::ofstream(path) << kJson;
  return path;
}

fs::path Simulate(const ScratchDir& dir) {
  return test_support::SimulateTrace(dir / "sim.db", "default --duration-ms 1");
}

void ExpectRefused(const test_support::CommandResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}
}  // namespace

TEST(CliOutputSafety, ImportOntoItsInputIsRefusedByAnyName) {
  ScratchDir dir;
  const fs::path in = WriteJson(dir);
  ExpectRefused(RunFencescope("import " + Quote(in) + " -o " + Quote(in)),
                "the output is the input file");
  // ./F for F, and a hard link: the same inode
  ExpectRefused(RunFencescope("import " + Quote(in) + " -o " +
                              Quote(in.parent_path() / "." / "in.json")),
                "the output is the input file");
  fs::create_hard_link(in, dir / "hard.json");
  auto r = RunFencescope("import " + Quote(in) + " -o " + Quote(dir / "hard.json"));
  ExpectRefused(r, "the output is the input file");
  EXPECT_NE(r.err.find("hard.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in.json"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(in), kJson);
}

TEST(CliOutputSafety, ExportReportAndCompareOntoTheirInputTraceAreRefused) {
  ScratchDir dir;
  const fs::path db = Simulate(dir);
  const std::string before = ReadFile(db);
  ExpectRefused(RunFencescope("export " + Quote(db) + " -o " + Quote(db)),
                "the output is the input trace");
  ExpectRefused(
      RunFencescope("report " + Quote(db) + " -o " + Quote(db.parent_path() / "." / "sim.db")),
      "the output is the input trace");
  ExpectRefused(RunFencescope("compare " + Quote(db) + " " + Quote(db) + " -o " + Quote(db)),
                "the output is the first trace");
  EXPECT_EQ(ReadFile(db), before);
}

TEST(CliOutputSafety, OutputThatIsAFifoIsRefusedByEveryWritingCommand) {
  ScratchDir dir;
  const fs::path in = WriteJson(dir);
  const fs::path db = Simulate(dir);
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string commands[] = {
      "simulate default --duration-ms 1 -o " + Quote(fifo),
      "import " + Quote(in) + " -o " + Quote(fifo),
      "export " + Quote(db) + " -o " + Quote(fifo),
      "report " + Quote(db) + " -o " + Quote(fifo),
      "compare " + Quote(db) + " " + Quote(db) + " -o " + Quote(fifo),
  };
  for (const std::string& command : commands) {
    ExpectRefused(RunFencescope(command), "is a FIFO, not a regular file");
    EXPECT_TRUE(fs::is_fifo(fifo)) << command;
  }
  // a link to a device: the device is refused, the link left alone
  fs::create_symlink("/dev/null", dir / "null-link");
  ExpectRefused(RunFencescope("report " + Quote(db) + " -o " + Quote(dir / "null-link")),
                "is a character device");
  EXPECT_TRUE(fs::is_symlink(dir / "null-link"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(CliOutputSafety, SymbolicLinkOutputWritesTheFileItPointsToAndKeepsTheLink) {
  ScratchDir dir;
  const fs::path db = Simulate(dir);
  fs::create_directory(dir / "real");
  fs::create_symlink("real/report.json", dir / "report-link.json");
  auto r = RunFencescope("report " + Quote(db) + " -o " + Quote(dir / "report-link.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "report-link.json"));
  EXPECT_NE(ReadFile(dir / "real" / "report.json").find("\"critical_path\""), std::string::npos);
  fs::create_symlink("real/trace.db", dir / "trace-link.db");
  r = RunFencescope("import " + Quote(WriteJson(dir)) + " -o " + Quote(dir / "trace-link.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "trace-link.db"));
  EXPECT_TRUE(fs::is_regular_file(dir / "real" / "trace.db"));
}

TEST(CliOutputSafety, StaleTemporaryFilesOfKilledRunsAreRemovedThoseOfLiveOnesKept) {
  ScratchDir dir;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);  // `child` is now a pid with no process
  const fs::path stale = dir / ("trace.db.tmp-" + std::to_string(child));
  const fs::path live = dir / ("trace.db.tmp-" + std::to_string(::getpid()));
  const fs::path other = dir / ("other.db.tmp-" + std::to_string(child));
  for (const fs::path& p : {stale, live, other}) std::ofstream(p) << "partial";
  auto r = RunFencescope("simulate default --duration-ms 1 -o " + Quote(dir / "trace.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));  // another target's: not this run's to judge
  // the same for a file written whole (a report)
  std::ofstream(dir / ("r.json.tmp-" + std::to_string(child))) << "partial";
  r = RunFencescope("report " + Quote(dir / "trace.db") + " -o " + Quote(dir / "r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir / ("r.json.tmp-" + std::to_string(child))));
}
