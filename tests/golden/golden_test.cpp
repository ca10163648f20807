// Golden files: for every embedded scenario (seed 1) and for the importers' small fixtures, the
// whole trace database dumped as text and the `report --format json` output, compared with the
// files under tests/golden/. A change of behaviour shows as a diff of those files; after an
// intended change, `./build.sh golden` rewrites them (FENCESCOPE_UPDATE_GOLDEN=1 runs this test
// in write mode) and the diff is what a reviewer reads.
//
// Dump format (golden_dump.h): one block per table, "== table(columns)" then one line per row,
// cells joined by " | ", NULL (or empty) as "NULL"; events by rowid with their kind's name,
// other tables ordered by all their columns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/sim/scenario_loader.h"
#include "tests/golden/golden_dump.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

bool UpdateMode() {
  const char* v = std::getenv("FENCESCOPE_UPDATE_GOLDEN");
  return v && *v && std::string(v) != "0";
}

fs::path GoldenDir() { return test_support::SourceDir() / "tests/golden"; }

// Compares `text` with the golden file `name` (or writes it in update mode). On a difference the
// failure names the first differing line of each.
void CheckGolden(const std::string& name, const std::string& text) {
  const fs::path file = GoldenDir() / name;
  if (UpdateMode()) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return;
  }
  ASSERT_TRUE(fs::exists(file)) << file << " is missing: run ./build.sh golden";
  const std::string want = test_support::ReadFile(file);
  if (want == text) return;
  size_t line = 1, at = 0;
  while (at < want.size() && at < text.size() && want[at] == text[at]) {
    if (want[at] == '\n') ++line;
    ++at;
  }
  auto line_at = [](const std::string& s, size_t pos) {
    const size_t begin = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    const size_t from = begin == std::string::npos ? 0 : begin + 1;
    return s.substr(from, s.find('\n', from) - from);
  };
  ADD_FAILURE() << name << " differs from the golden file at line " << line << ":\n  golden: "
                << line_at(want, at) << "\n  now:    " << line_at(text, at)
                << "\n(after an intended change: ./build.sh golden, then review the diff)";
}

std::string ReportJson(const fs::path& db) {
  auto r = RunFencescope("report " + Quote(db) + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

void CheckTrace(const std::string& name, const fs::path& db) {
  CheckGolden(name + ".dump.txt", golden::DumpTrace(db));
  CheckGolden(name + ".report.json", ReportJson(db));
}

class GoldenScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenScenario, TraceAndReportAsChecked) {
  ScratchDir dir;
  const fs::path db = dir / "trace.db";
  auto r = RunFencescope("simulate " + GetParam() + " --seed 1 -o " + Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CheckTrace("scenarios/" + GetParam(), db);
}

INSTANTIATE_TEST_SUITE_P(Embedded, GoldenScenario,
                         ::testing::ValuesIn(core::sim::EmbeddedScenarioNames()),
                         [](const auto& info) { return info.param; });

// The CUDA traces of tests/importers/make_cuda_trace.py (current CUPTI shape, and with the
// record links older Kineto wrote), imported.
TEST(GoldenImport, CudaTraces) {
  ScratchDir dir;
  const fs::path script = test_support::SourceDir() / "tests/importers/make_cuda_trace.py";
  for (const auto& [name, args] :
       {std::pair<std::string, std::string>{"cuda_cupti13", "--seed 1 --iterations 6 --overlap"},
        {"cuda_legacy_links", "--seed 2 --iterations 4 --devices 2 --legacy-links"}}) {
    SCOPED_TRACE(name);
    const fs::path json = dir / (name + ".json"), db = dir / (name + ".db");
    const std::string make = "python3 " + Quote(script) + " " + Quote(json) + " " + args;
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
    auto r = RunFencescope("import " + Quote(json) + " -o " + Quote(db));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    CheckTrace("importers/" + name, db);
  }
}

// A small trace-cmd report text of one amdgpu frame (tests/importers/ftrace/data), imported.
TEST(GoldenImport, FtraceText) {
  ScratchDir dir;
  const fs::path text = test_support::SourceDir() / "tests/importers/ftrace/data/amdgpu_frame.txt";
  const fs::path db = dir / "amdgpu_frame.db";
  auto r = RunFencescope("import " + Quote(text) + " -o " + Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CheckTrace("importers/ftrace_amdgpu_frame", db);
}

}  // namespace
