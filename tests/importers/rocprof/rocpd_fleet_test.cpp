// A fleet of per-process rocpd files (rocprofv3 writes one per process, %pid%_results.db) lines up
// by the host's clock. make_rocpd.py --fleet-process writes two processes of one job on one host:
// two roctx steps each, a compute kernel and then an RCCL all-reduce that ends at the same
// instant of that clock in both. Process 6002's compute kernel is longer (it arrives at the
// all-reduce later) and its host loop lags, so its steps begin later: lining the files up by
// their steps' starts (or by where each capture began) would shift it, by the all-reduce's end
// it stays where its clock put it. Every expected figure is worked out from those inputs below.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::IntAt;
using test_support::Quote;

// What make_rocpd.py writes for each step (ns after the step's start in FLEET_STEPS).
constexpr int64_t kComputeStart = 100'000;
constexpr int64_t kAllReduceEnd = 500'000;

struct Process {
  int64_t pid;
  int64_t compute_ns;
  int64_t lag_ns;  // its roctx ranges and launches begin this much later
};

TEST(RocpdFleet, PerProcessFilesOfOneHostLineUpByTheHostsClock) {
  test_support::ScratchDir dir;
  const Process processes[] = {{6001, 200'000, 0}, {6002, 300'000, 50'000}};
  fs::create_directories(dir / "ranks");
  for (const Process& p : processes) {
    const auto made = test_support::RunCommand(
        "python3 " + Quote(test_support::SourceDir() / "tests/importers/rocprof/make_rocpd.py") +
        " " + Quote(dir / "ranks" / (std::to_string(p.pid) + "_results.db")) + " --fleet-process " +
        std::to_string(p.pid) + " " + std::to_string(p.compute_ns) + " " +
        std::to_string(p.lag_ns));
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  const auto imported = test_support::RunFencescope("fleet import " + Quote(dir / "ranks") +
                                                    " -o " + Quote(dir / "fleet"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("2 of 2 traces"), std::string::npos) << imported.out;
  const auto report =
      test_support::RunFencescopeJson("fleet report " + Quote(dir / "fleet") + " --format json");

  // One clock: the all-reduce ends at the same instant in both files, so no offset.
  EXPECT_EQ(report.Find("clock")->Find("method")->String(), "collective_end");
  EXPECT_EQ(IntAt(report, "clock.max_abs_offset_ns"), 0);
  EXPECT_EQ(IntAt(report, "steps_matched"), 2);
  for (int r = 0; r < 2; ++r) {
    const std::string at = "ranks[" + std::to_string(r) + "]";
    EXPECT_EQ(IntAt(report, at + ".rank"), processes[r].pid);  // the pid of the file name
    EXPECT_EQ(IntAt(report, at + ".offset_ns"), 0) << at;
    EXPECT_EQ(IntAt(report, at + ".steps"), 2) << at;
    // Both kernels of both steps: from the compute kernel's start to the all-reduce's end.
    EXPECT_EQ(IntAt(report, at + ".trace_busy_ns"), 2 * (kAllReduceEnd - kComputeStart)) << at;
  }
  // Each step: 6002 reaches the all-reduce compute_ns(6002) - compute_ns(6001) after 6001.
  const int64_t lateness = processes[1].compute_ns - processes[0].compute_ns;
  for (int s = 0; s < 2; ++s) {
    const std::string at = "steps[" + std::to_string(s) + "]";
    EXPECT_EQ(IntAt(report, at + ".step"), s + 1);
    EXPECT_EQ(IntAt(report, at + ".straggler.rank"), 6002) << at;
    EXPECT_EQ(IntAt(report, at + ".straggler.lateness_ns"), lateness) << at;
    EXPECT_EQ(IntAt(report, at + ".straggler.others_waited_ns"), lateness) << at;
    for (int r = 0; r < 2; ++r) {
      EXPECT_EQ(IntAt(report, at + ".step_ns[" + std::to_string(r) + "]"),
                kAllReduceEnd - processes[r].lag_ns)
          << at << " rank " << r;
    }
  }
}

}  // namespace
