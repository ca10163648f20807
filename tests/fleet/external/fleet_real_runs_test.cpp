// `fleet import --traces-are runs` over the real PyTorch traces of Holistic Trace Analysis's test
// data (../shared/traces/external/hta/*/*.json.gz): unrelated runs with no step id in common.
// Each run's whole-trace figures are counted a second way over its raw file by
// tests/fleet/count_busy.py, the matched and unmatched steps from the step ids it lists, and the
// reports say why the per-step figures are empty instead of printing zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::IntAt;
using test_support::Quote;
using test_support::ReadFile;
using test_support::RunFencescope;

TEST(FleetRealRuns, HtaTracesAsRunsAreComparedOverTheirWholeTraces) {
  const fs::path hta = test_support::SharedDir() / "traces/external/hta";
  std::vector<fs::path> inputs;
  for (const auto& folder : fs::directory_iterator(hta)) {
    if (!folder.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(folder.path())) {
      if (file.path().string().ends_with(".json.gz")) inputs.push_back(file.path());
    }
  }
  ASSERT_GE(inputs.size(), 10u);
  test_support::ScratchDir dir;
  auto imported = RunFencescope("fleet import " + Quote((hta / "*/*.json.gz").string()) + " -o " +
                                Quote(dir / "fleet") + " --traces-are runs");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const auto report =
      test_support::RunFencescopeJson("fleet report " + Quote(dir / "fleet") + " --format json");
  ASSERT_EQ(IntAt(report, "ranks_count"), static_cast<int64_t>(inputs.size()));
  // No step on every run: lined up by their starts, not left as far apart as their clocks'
  // origins (years here).
  EXPECT_EQ(report.Find("clock")->Find("method")->String(), "trace_start");

  // Step ids on every run, and on some only.
  std::map<int64_t, size_t> runs_with_step;
  size_t cut_off_total = 0;
  for (size_t r = 0; r < inputs.size(); ++r) {
    const std::string at = "ranks[" + std::to_string(r) + "]";
    const fs::path input = report.Find("ranks")->items()[r].Find("input")->String();
    const auto counted =
        test_support::ScriptFigures(test_support::SourceDir() / "tests/fleet/count_busy.py", input);
    EXPECT_EQ(IntAt(report, at + ".trace_busy_ns"), counted.at("trace_busy_ns")) << input;
    EXPECT_EQ(IntAt(report, at + ".trace_queues"), counted.at("trace_queues")) << input;
    EXPECT_EQ(IntAt(report, at + ".step_id_min"), counted.at("step_id_min")) << input;
    EXPECT_EQ(IntAt(report, at + ".step_id_max"), counted.at("step_id_max")) << input;
    size_t ids = 0;
    std::vector<int64_t> cut_off;
    for (const auto& [key, one] : counted) {
      if (key.starts_with("step ")) ++runs_with_step[std::stoll(key.substr(5))], ++ids;
      if (key.starts_with("cut_off ")) cut_off.push_back(std::stoll(key.substr(8)));
    }
    EXPECT_EQ(IntAt(report, at + ".steps"), static_cast<int64_t>(ids)) << input;
    // Steps that end after the trace's last record are left out, named.
    std::vector<int64_t> reported;
    for (const auto& id : report.Find("ranks")->items()[r].Find("steps_cut_off")->items()) {
      reported.push_back(id.Int());
    }
    std::sort(cut_off.begin(), cut_off.end());
    EXPECT_EQ(reported, cut_off) << input;
    cut_off_total += cut_off.size();
    // Each run's span holds its queues' time: busy + waiting + idle = span x queues.
    EXPECT_EQ(IntAt(report, at + ".trace_busy_ns") + IntAt(report, at + ".trace_waiting_ns") +
                  IntAt(report, at + ".trace_idle_ns"),
              IntAt(report, at + ".trace_ns") * IntAt(report, at + ".trace_queues"))
        << input;
  }
  const auto matched = std::count_if(runs_with_step.begin(), runs_with_step.end(),
                                     [&](const auto& s) { return s.second == inputs.size(); });
  EXPECT_EQ(IntAt(report, "steps_matched"), matched);
  EXPECT_EQ(IntAt(report, "steps_unmatched"),
            static_cast<int64_t>(runs_with_step.size()) - matched);
  EXPECT_EQ(IntAt(report, "steps_cut_off"), static_cast<int64_t>(cut_off_total));
  EXPECT_GT(cut_off_total, 0u) << "no HTA test trace ends inside a step now: the check of "
                                  "steps_cut_off above tells nothing";
  ASSERT_EQ(matched, 0) << "the HTA test traces share a step id now: this test reads them as "
                           "runs with none in common";

  // The Markdown report: why the per-step columns are empty, and every run's whole trace.
  auto md = RunFencescope("fleet report " + Quote(dir / "fleet") + " -o " + Quote(dir / "f.md"));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  const std::string text = ReadFile(dir / "f.md");
  EXPECT_NE(text.find("No step id is on every run"), std::string::npos) << text;
  EXPECT_NE(text.find("## Whole traces"), std::string::npos) << text;
  EXPECT_EQ(text.find("| 0 ns | 0 ns | 0 ns | 0 ns | 0 ns | 0 ns |"), std::string::npos)
      << "per-step figures printed as zeros:\n"
      << text;
  EXPECT_NE(text.find("No step matched on every run."), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(cut_off_total) + " steps were left out for ending after"),
            std::string::npos)
      << text;
}

}  // namespace
