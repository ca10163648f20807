// Launch delays, queue lengths and gap classes of real PyTorch profiler traces (HTA's test
// traces under ../shared/traces/external/hta) against kineto_launch_figures.py, which computes
// them from the raw JSON with Python's own json (GPU events joined to their runtime calls by
// args.correlation, as HTA does) - nothing of fencescope makes the expectations.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "core/report/fail_if.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::FindPath;
using core::report::Json;
using test_support::ScratchDir;

// stream name -> figure -> value, from the script's lines "stream <name>\t<key> <value>...".
std::map<std::string, std::map<std::string, int64_t>> ExpectedPerStream(const fs::path& trace) {
  const fs::path script =
      test_support::SourceDir() / "tests/importers/external/kineto_launch_figures.py";
  auto run = test_support::RunCommand("python3 " + test_support::Quote(script) + " " +
                                      test_support::Quote(trace));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::map<std::string, std::map<std::string, int64_t>> out;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string field, name;
    std::getline(fields, field, '\t');
    name = field.substr(std::string("stream ").size());
    while (std::getline(fields, field, '\t')) {
      const size_t space = field.find(' ');
      out[name][field.substr(0, space)] = std::stoll(field.substr(space + 1));
    }
  }
  return out;
}

int64_t Int(const Json& j, const std::string& path) {
  const Json* v = FindPath(j, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? v->Int() : -1;
}

void CompareWithRawJson(const fs::path& trace) {
  SCOPED_TRACE(trace.string());
  const auto expected = ExpectedPerStream(trace);
  ASSERT_FALSE(expected.empty()) << "kineto_launch_figures.py gave nothing";
  ScratchDir dir;
  importers::ImportFile(trace, dir / "trace.db");
  auto store = core::store::LoadTrace(dir / "trace.db");
  Json j = core::report::ReportJson(core::report::AnalyseTrace(store, true));
  const double span = static_cast<double>(Int(j, "duration_ns"));
  int64_t linked = 0;
  for (const auto& [name, figures] : expected) {
    SCOPED_TRACE(name);
    const std::string delay = "launch_delay[\"" + name + "\"].";
    EXPECT_EQ(Int(j, delay + "count"), figures.at("count"));
    EXPECT_EQ(Int(j, delay + "p50_ns"), figures.at("p50"));
    EXPECT_EQ(Int(j, delay + "p90_ns"), figures.at("p90"));
    EXPECT_EQ(Int(j, delay + "p99_ns"), figures.at("p99"));
    EXPECT_EQ(Int(j, delay + "max_ns"), figures.at("max"));
    EXPECT_EQ(Int(j, delay + "negative"), figures.at("negative"));
    EXPECT_EQ(Int(j, delay + "without_launch"), figures.at("without_launch"));
    linked += figures.at("count");
    const std::string length = "queue_length[\"" + name + "\"].";
    EXPECT_EQ(Int(j, length + "max"), figures.at("ql_max"));
    const double area = static_cast<double>(figures.at("ql_area"));
    EXPECT_NEAR(FindPath(j, length + "mean")->Number() * span, area, 1e-9 * area + 1);
    const std::string split = "idle_split[\"" + name + "\"].";
    for (const char* c : {"host_wait", "kernel_wait", "other", "unlinked"}) {
      EXPECT_EQ(Int(j, split + c + "_ns"), figures.at(std::string(c) + "_ns")) << c;
      EXPECT_EQ(Int(j, split + c + "_gaps"), figures.at(std::string(c) + "_gaps")) << c;
    }
  }
  EXPECT_EQ(Int(j, "launch_links.packets_linked"), linked);
}

}  // namespace

TEST(ExternalKinetoLaunch, AlexnetAgreesWithTheRawJson) {
  CompareWithRawJson(test_support::SharedDir() /
                     "traces/external/hta/critical_path/alexnet/"
                     "benchmark_result_2869224_1695835535_trace.json.gz");
}

TEST(ExternalKinetoLaunch, NanosecondResolutionTraceAgreesWithTheRawJson) {
  // fractional microseconds ("1712195495505583.0"), 6095 kernels launched far ahead
  CompareWithRawJson(test_support::SharedDir() /
                     "traces/external/hta/ns_resolution_trace/"
                     "rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
}
