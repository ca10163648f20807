// The critical path of a real PyTorch capture against the one HTA computed for it: HTA's test
// data holds the simple_add trace with HTA's critical path overlaid (the events on its path are
// marked), read by hta_critical_path_ops.py with Python's own json. HTA builds its path from CPU
// ops, kernel launches and stream order, a different graph from ours; on this trace both put the
// same GPU operations on the path (HTA also counts the first memcpy, which our walk reaches
// through the CPU thread instead), and both say the CPU thread held almost all of it.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::Json;

struct GpuOp {
  int64_t start = 0;
  int64_t end = 0;
  bool on_hta_path = false;
};

std::vector<GpuOp> OpsFromRawJson(const fs::path& trace) {
  const fs::path script =
      test_support::SourceDir() / "tests/importers/external/hta_critical_path_ops.py";
  auto run = test_support::RunCommand("python3 " + test_support::Quote(script) + " " +
                                      test_support::Quote(trace));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<GpuOp> ops;
  std::istringstream lines(run.out);
  for (GpuOp op; lines >> op.start >> op.end >> op.on_hta_path;) ops.push_back(op);
  return ops;
}

}  // namespace

TEST(HtaCriticalPath, SameGpuOperationsOnThePathAsHta) {
  const fs::path trace = test_support::SharedDir() /
                         "traces/external/hta/critical_path/end_to_end/simple_add/output/"
                         "overlaid_critical_path_trace.json.gz";
  const std::vector<GpuOp> ops = OpsFromRawJson(trace);
  std::set<int64_t> hta_starts;
  for (const GpuOp& op : ops) {
    if (op.on_hta_path) hta_starts.insert(op.start);
  }
  ASSERT_GT(ops.size(), 50u);
  ASSERT_GT(hta_starts.size(), 10u);

  test_support::ScratchDir dir;
  importers::ImportFile(trace, dir / "t.db");
  auto store = core::store::LoadTrace(dir / "t.db");
  Json j = core::report::ReportJson(core::report::AnalyseTrace(store, true));
  const Json& path = *j.Find("critical_path");
  size_t runs = 0, runs_on_hta_path = 0;
  for (const Json& step : path.Find("steps")->items()) {
    if (step.Find("kind")->String() != "run") continue;
    ++runs;
    if (hta_starts.count(step.Find("start_ns")->Int())) ++runs_on_hta_path;
  }
  ASSERT_EQ(path.Find("steps_total")->Int(), static_cast<int64_t>(path.Find("steps")->size()))
      << "the report lists only the last steps; this trace's path must be listed whole";
  EXPECT_EQ(runs_on_hta_path, runs) << "every GPU operation on our path is on HTA's";
  EXPECT_GE(runs + 1, hta_starts.size()) << "at most one of HTA's GPU operations missing";
  // Both computations put the CPU thread on nearly all of the path (HTA: 602 of its 624 events
  // are CPU ops and runtime calls); ours says so by time.
  double thread_share = 0;
  for (const Json& share : path.Find("shares")->items()) {
    if (share.Find("track")->String() == "thread") thread_share += share.Find("share")->Number();
  }
  EXPECT_GT(thread_share, 0.95);
}
