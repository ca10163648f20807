// `fencescope fleet submit --slurm` on a real one-node Slurm cluster started for the test
// (tests/fleet_slurm/local_slurm.sh: munged, slurmctld and slurmd under a scratch directory):
// 16 generated ranks go through the job array and the dependent reduce job, and the report the
// reduce job wrote holds the true stragglers and clock offsets. Where Slurm cannot start here
// the test is skipped with the reason (CTest reports it as skipped, never as passed).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::Json;
using test_support::IntAt;
using test_support::Quote;
using test_support::RunCommand;
using test_support::ScratchDir;

fs::path Script() { return test_support::SourceDir() / "tests/fleet_slurm/local_slurm.sh"; }

// The cluster's directory, short: a Unix socket path (munge's) is at most 108 bytes. Stops the
// daemons the test started and removes the directory, whatever happens in the test.
class Cluster {
 public:
  Cluster() {
    char name[] = "/tmp/fs-slurm-XXXXXX";
    if (mkdtemp(name)) m_dir = name;
  }
  ~Cluster() {
    if (m_dir.empty()) return;
    RunCommand("sh " + Quote(Script()) + " stop " + Quote(m_dir));
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
  const fs::path& dir() const { return m_dir; }

 private:
  fs::path m_dir;
};

TEST(FleetSlurm, SixteenRanksThroughAJobArrayAndADependentReduce) {
  ScratchDir dir;
  Cluster cluster;
  ASSERT_FALSE(cluster.dir().empty()) << "mkdtemp failed";
  const fs::path cluster_dir = cluster.dir();
  auto started = RunCommand("sh " + Quote(Script()) + " start " + Quote(cluster_dir));
  if (started.exit_code == 77) GTEST_SKIP() << started.out;
  ASSERT_EQ(started.exit_code, 0) << started.out << started.err;
  setenv("SLURM_CONF", (cluster_dir / "slurm.conf").c_str(), 1);

  auto gen = RunCommand("python3 " + Quote(test_support::SourceDir() / "tests/fleet/make_fleet.py") +
                        " --out " + Quote(dir / "gen") +
                        " --ranks 16 --steps 3 --slow 5:0:1.8 --slow 12:2:1.5 --seed 3");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const Json truth = test_support::ParseJsonText(test_support::ReadFile(dir / "gen/truth.json"));

  const fs::path fleet = dir / "fleet";
  auto submitted = test_support::RunFencescope("fleet submit --slurm " + Quote(dir / "gen/ranks") +
                                               " -o " + Quote(fleet) + " --array-max 8 --chunk 2");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  std::smatch ids;
  ASSERT_TRUE(std::regex_search(submitted.out, ids,
                                std::regex("map job ([0-9]+) .*reduce job ([0-9]+)")))
      << submitted.out;

  // Wait for the reduce job's report (a few seconds; at most two minutes).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (!fs::exists(fleet / "fleet.html") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(fs::exists(fleet / "fleet.json"))
      << "no report after 2 minutes; queue: " << RunCommand("squeue").out
      << test_support::ReadFile(cluster_dir / "log/slurmctld.log");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // fleet.html is written last

  auto status = test_support::RunFencescope("fleet status " + Quote(fleet));
  EXPECT_NE(status.out.find("16 traces, 16 summarised, 0 failed, 0 pending"), std::string::npos)
      << status.out;
  EXPECT_NE(status.out.find("map job " + ids[1].str()), std::string::npos) << status.out;

  const Json report = test_support::ParseJsonText(test_support::ReadFile(fleet / "fleet.json"));
  EXPECT_EQ(IntAt(report, "ranks_count"), 16);
  EXPECT_EQ(IntAt(report, "steps_matched"), 3);
  const auto& steps = truth.Find("steps")->items();
  for (size_t k = 0; k < steps.size(); ++k) {
    const std::string at = "steps[" + std::to_string(k) + "].straggler";
    EXPECT_EQ(IntAt(report, at + ".rank"), steps[k].Find("straggler")->Int()) << at;
    EXPECT_EQ(IntAt(report, at + ".lateness_ns"), steps[k].Find("lateness_ns")->Int()) << at;
  }
  EXPECT_EQ(IntAt(report, "steps[0].straggler.rank"), 5);
  EXPECT_EQ(IntAt(report, "steps[2].straggler.rank"), 12);
  const auto& offsets = truth.Find("offsets_ns")->items();
  for (size_t r = 0; r < 16; ++r) {
    EXPECT_EQ(IntAt(report, "ranks[" + std::to_string(r) + "].offset_ns"), offsets[r].Int());
  }
  unsetenv("SLURM_CONF");
}

}  // namespace
