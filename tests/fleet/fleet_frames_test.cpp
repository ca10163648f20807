// Fleets of graphics traces: steps are frames, each ended by a present. Three simulated runs of
// one frame loop (no jitter, so the runs differ only where the test makes them differ): every
// frame draws 1000 us and presents 300 us on one queue, one frame every 4000 us; run 1 does
// 1500 us more GPU work before its present in frame 5 only. The presents are read back from
// each trace's own events with Python's sqlite3 (not with fencescope), and the fleet's frames,
// per-frame times and straggler are checked against them and against the scenario's figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::Json;
using test_support::IntAt;
using test_support::Quote;
using test_support::ReadFile;
using test_support::RunCommand;
using test_support::RunFencescope;
using test_support::ScratchDir;

constexpr int kFrames = 8;
constexpr int kSlowRun = 1;
constexpr int kSlowFrame = 5;
constexpr int64_t kDrawNs = 1'000'000, kPresentNs = 300'000, kHitchNs = 1'500'000;
constexpr int64_t kPeriodNs = 4'000'000;

std::string Scenario(bool hitch) {
  std::string text = R"([scenario]
name = "frames"
description = "A frame loop presenting once per frame"
process = "game.exe"
duration_ms = 100

[[adapter]]
name = "GPU"

[[engine]]
name = "GPU 3D"
adapter = "GPU"
type = "3d"

[[queue]]
name = "Graphics"
engine = "GPU 3D"

[[thread]]
name = "Render thread"
frames = 8
frame_period_us = 4000

  [[thread.step]]
  op = "cpu_work"
  duration_us = 200

  [[thread.step]]
  op = "execute"
  queue = "Graphics"
  name = "Draw"
  duration_us = 1000
)";
  if (hitch) {
    text += R"(
  [[thread.step]]
  op = "execute"
  queue = "Graphics"
  name = "Hitch"
  duration_us = 1500
  from_frame = 5
  every = 1000
)";
  }
  text += R"(
  [[thread.step]]
  op = "execute"
  queue = "Graphics"
  name = "Present"
  duration_us = 300
  present = true
)";
  return text;
}

// The completion times of the packets flagged present (packet_flags bit 16), read from the raw
// events table: kind 1 packet_submitted, kind 3 packet_completed, paired by op_id.
std::vector<int64_t> PresentTimes(const ScratchDir& dir, const fs::path& db) {
  std::ofstream(dir / "presents.py")
      << "import sqlite3, sys\n"
         "c = sqlite3.connect(sys.argv[1])\n"
         "for (t,) in c.execute('SELECT d.ts_ns FROM events s JOIN events d ON d.op_id = s.op_id "
         "AND d.kind = 3 WHERE s.kind = 1 AND (s.flags & 16) != 0 ORDER BY d.ts_ns'):\n"
         "    print(t)\n";
  const auto r = RunCommand("python3 " + Quote(dir / "presents.py") + " " + Quote(db));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<int64_t> out;
  std::istringstream in(r.out);
  for (int64_t t; in >> t;) out.push_back(t);
  return out;
}

TEST(FleetFrames, FramesEndAtPresentsAndTheHitchedRunIsTheStraggler) {
  ScratchDir dir;
  std::ofstream(dir / "fast.toml") << Scenario(false);
  std::ofstream(dir / "slow.toml") << Scenario(true);
  fs::create_directories(dir / "runs");
  std::vector<std::vector<int64_t>> presents;
  for (int run = 0; run < 3; ++run) {
    const fs::path db = dir / ("runs/run" + std::to_string(run) + ".db");
    test_support::SimulateTrace(
        db, Quote(dir / (run == kSlowRun ? "slow.toml" : "fast.toml")) + " --seed " +
                std::to_string(run + 1));
    presents.push_back(PresentTimes(dir, db));
    ASSERT_EQ(presents.back().size(), static_cast<size_t>(kFrames)) << db;
  }
  // The hitch delays frame 5's present on run 1 only, by its length; frame 6 is on time again.
  EXPECT_EQ(presents[kSlowRun][kSlowFrame - 1] - presents[0][kSlowFrame - 1], kHitchNs);
  EXPECT_EQ(presents[kSlowRun][kSlowFrame], presents[0][kSlowFrame]);

  const fs::path fleet = dir / "fleet";
  auto imported = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(fleet));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("3 of 3 traces summarised"), std::string::npos) << imported.out;

  const Json report =
      test_support::RunFencescopeJson("fleet report " + Quote(fleet) + " --format json");
  EXPECT_EQ(IntAt(report, "ranks_count"), 3);
  EXPECT_EQ(IntAt(report, "steps_matched"), kFrames);
  EXPECT_EQ(IntAt(report, "steps_unmatched"), 0);
  ASSERT_NE(report.Find("steps_from"), nullptr);
  EXPECT_EQ(report.Find("steps_from")->String(), "present_packet");
  EXPECT_EQ(report.Find("clock")->Find("method")->String(), "step_start");

  for (int run = 0; run < 3; ++run) {
    const std::string rank = "ranks[" + std::to_string(run) + "]";
    EXPECT_EQ(IntAt(report, rank + ".rank"), run);  // run0..run2: ranks from the file names
    EXPECT_EQ(IntAt(report, rank + ".steps"), kFrames);
    // Every frame's GPU work lies between the trace's start and its last present.
    EXPECT_EQ(IntAt(report, rank + ".busy_ns"),
              kFrames * (kDrawNs + kPresentNs) + (run == kSlowRun ? kHitchNs : 0))
        << rank;
    if (run != 0) {  // rank 0 takes the frames where every run ends at once (ties: lowest)
      EXPECT_EQ(IntAt(report, rank + ".straggler_steps"), run == kSlowRun ? 1 : 0) << rank;
    }

    // The map step's frames: frame N ends at the N-th present, starts at the one before (the
    // first at the trace's start).
    const Json summary = test_support::ParseJsonText(
        ReadFile(fleet / "traces" / ("0000" + std::to_string(run) + ".summary.json")));
    const Json* fleet_part = summary.Find("fleet");
    ASSERT_NE(fleet_part, nullptr);
    EXPECT_EQ(fleet_part->Find("steps_from")->String(), "present_packet");
    const auto& steps = fleet_part->Find("steps")->items();
    ASSERT_EQ(steps.size(), static_cast<size_t>(kFrames));
    for (int n = 0; n < kFrames; ++n) {
      const std::string at = "run " + std::to_string(run) + " frame " + std::to_string(n + 1);
      EXPECT_EQ(steps[n].Find("id")->Int(), n + 1) << at;
      EXPECT_EQ(steps[n].Find("end_ns")->Int(), presents[run][n]) << at;
      const int64_t start = n == 0 ? fleet_part->Find("start_ns")->Int() : presents[run][n - 1];
      EXPECT_EQ(steps[n].Find("start_ns")->Int(), start) << at;
      EXPECT_EQ(IntAt(report, "steps[" + std::to_string(n) + "].step_ns[" + std::to_string(run) +
                                  "]"),
                presents[run][n] - start)
          << at;
    }
    EXPECT_LE(fleet_part->Find("start_ns")->Int(), presents[run][0]);
  }

  // Frames after the first are one period long, except the hitched one and the one after it.
  for (int n = 2; n <= kFrames; ++n) {
    const std::string at = "steps[" + std::to_string(n - 1) + "]";
    EXPECT_EQ(IntAt(report, at + ".step"), n);
    if (n == kSlowFrame) {
      EXPECT_EQ(IntAt(report, at + ".step_ns[1]"), kPeriodNs + kHitchNs);
    } else if (n == kSlowFrame + 1) {
      EXPECT_EQ(IntAt(report, at + ".step_ns[1]"), kPeriodNs - kHitchNs);
    } else {
      EXPECT_EQ(IntAt(report, at + ".step_ns[1]"), kPeriodNs) << at;
    }
  }
  // The straggler of frame 5: run 1, late at the frame's end by the hitch (the clocks agree:
  // every offset is 0, taken from the frames' starts).
  const std::string slow = "steps[" + std::to_string(kSlowFrame - 1) + "].straggler";
  EXPECT_EQ(IntAt(report, slow + ".rank"), kSlowRun);
  EXPECT_EQ(IntAt(report, slow + ".lateness_ns"), kHitchNs);
  EXPECT_EQ(IntAt(report, slow + ".others_waited_ns"), 2 * kHitchNs);
  for (int run = 0; run < 3; ++run) {
    EXPECT_EQ(IntAt(report, "clock.offsets[" + std::to_string(run) + "].offset_ns"), 0);
  }

  // As runs (--traces-are runs, numbered by their file names): frame 5's straggler is run 1 by
  // how much longer its frame took (the hitch), nobody waiting; in frame 6, which the hitch
  // shortened on run 1, the others tie at one period (the lowest run, by 0 ns).
  const Json runs = test_support::RunFencescopeJson(
      "fleet report " + Quote(fleet) + " --traces-are runs --ranks-from name --format json");
  EXPECT_EQ(runs.Find("traces_are")->String(), "runs");
  EXPECT_EQ(IntAt(runs, slow + ".rank"), kSlowRun);
  EXPECT_EQ(IntAt(runs, slow + ".lateness_ns"), kHitchNs);
  EXPECT_EQ(IntAt(runs, slow + ".others_waited_ns"), 0);
  EXPECT_EQ(runs.Find("steps")->items()[kSlowFrame - 1].Find("straggler")->Find("at")->String(),
            "step time");
  const std::string after = "steps[" + std::to_string(kSlowFrame) + "].straggler";
  EXPECT_EQ(IntAt(runs, after + ".rank"), 0);
  EXPECT_EQ(IntAt(runs, after + ".lateness_ns"), 0);

  // The Markdown report says what the steps are.
  auto md = RunFencescope("fleet report " + Quote(fleet) + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("Steps are frames, each ended by the completion of a present packet."),
            std::string::npos)
      << md.out;
}

// Which records end the frames: present markers before present packets, vsync markers only
// when nothing says present, ProfilerStep slices before any of them. Records are added to
// simulated runs with Python's sqlite3 (kind 82 marker: flags = marker_type, 2 present, 1 vsync;
// kind 80 cpu_slice: value = duration, arg0 = name).
TEST(FleetFrames, PresentMarkersThenPresentPacketsThenVsyncs) {
  ScratchDir dir;
  std::string plain = Scenario(false);
  plain.replace(plain.find("present = true"), 14, "present = false");
  std::ofstream(dir / "presents.toml") << Scenario(false);
  std::ofstream(dir / "plain.toml") << plain;
  fs::create_directories(dir / "runs");
  test_support::SimulateTrace(dir / "runs/run0.db", Quote(dir / "presents.toml"));
  test_support::SimulateTrace(dir / "runs/run1.db", Quote(dir / "plain.toml"));
  test_support::SimulateTrace(dir / "runs/run2.db", Quote(dir / "presents.toml"));
  std::ofstream(dir / "add.py")
      << "import sqlite3, sys\n"
         "def add(path, rows):\n"
         "    c = sqlite3.connect(path)\n"
         "    for r in rows:\n"
         "        c.execute('INSERT INTO events(ts_ns, kind, thread_id, value, arg0, arg1, arg2, "
         "flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', r)\n"
         "    c.commit()\n"
         "runs = sys.argv[1]\n"
         // run 0: present markers (its present packets then do not count)
         "add(runs + '/run0.db', [(t, 82, None, None, 1, 0, None, 2) for t in (3000000, "
         "7000000, 11000000)])\n"
         // run 1: no presents, vsyncs (two at one instant: one frame boundary)
         "add(runs + '/run1.db', [(t, 82, None, None, 1, 0, None, 1) for t in (2000000, "
         "6000000, 6000000, 10000000, 14000000)])\n"
         // run 2: present packets and ProfilerStep#7, #8 slices on the render thread
         "c = sqlite3.connect(runs + '/run2.db')\n"
         "sid = c.execute('SELECT max(id) FROM strings').fetchone()[0]\n"
         "thread = c.execute('SELECT min(id) FROM threads').fetchone()[0]\n"
         "c.executemany('INSERT INTO strings(id, value) VALUES (?, ?)', [(sid + 1, "
         "'ProfilerStep#7'), (sid + 2, 'ProfilerStep#8')])\n"
         "c.commit()\n"
         "add(runs + '/run2.db', [(1000000, 80, thread, 5000000, sid + 1, 0, 0, 0), "
         "(6000000, 80, thread, 5000000, sid + 2, 0, 0, 0)])\n";
  auto added = RunCommand("python3 " + Quote(dir / "add.py") + " " + Quote(dir / "runs"));
  ASSERT_EQ(added.exit_code, 0) << added.err;

  const fs::path fleet = dir / "fleet";
  auto imported = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(fleet));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  struct Expected {
    std::string from;
    std::vector<int64_t> ids, starts, ends;  // starts[0] < 0: the trace's start
  };
  const std::vector<Expected> expected = {
      {"present_marker", {1, 2, 3}, {-1, 3000000, 7000000}, {3000000, 7000000, 11000000}},
      {"vsync_marker",
       {1, 2, 3, 4},
       {-1, 2000000, 6000000, 10000000},
       {2000000, 6000000, 10000000, 14000000}},
      {"profiler_step", {7, 8}, {1000000, 6000000}, {6000000, 11000000}},
  };
  for (size_t run = 0; run < expected.size(); ++run) {
    const Expected& e = expected[run];
    const Json summary = test_support::ParseJsonText(
        ReadFile(fleet / "traces" / ("0000" + std::to_string(run) + ".summary.json")));
    const Json* f = summary.Find("fleet");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->Find("steps_from")->String(), e.from) << run;
    const auto& steps = f->Find("steps")->items();
    ASSERT_EQ(steps.size(), e.ids.size()) << run;
    for (size_t n = 0; n < steps.size(); ++n) {
      EXPECT_EQ(steps[n].Find("id")->Int(), e.ids[n]) << run << " " << n;
      EXPECT_EQ(steps[n].Find("start_ns")->Int(),
                e.starts[n] < 0 ? f->Find("start_ns")->Int() : e.starts[n])
          << run << " " << n;
      EXPECT_EQ(steps[n].Find("end_ns")->Int(), e.ends[n]) << run << " " << n;
    }
  }
  const Json report =
      test_support::RunFencescopeJson("fleet report " + Quote(fleet) + " --format json");
  EXPECT_EQ(report.Find("steps_from")->String(), "mixed");
  EXPECT_EQ(report.Find("ranks")->items()[1].Find("steps_from")->String(), "vsync_marker");
}

// A trace with neither ProfilerStep slices nor presents nor vsyncs has no steps (and says so).
TEST(FleetFrames, ATraceWithoutPresentsHasNoSteps) {
  ScratchDir dir;
  std::string scenario = Scenario(false);
  scenario.replace(scenario.find("present = true"), 14, "present = false");
  std::ofstream(dir / "plain.toml") << scenario;
  fs::create_directories(dir / "runs");
  test_support::SimulateTrace(dir / "runs/run0.db", Quote(dir / "plain.toml"));
  test_support::SimulateTrace(dir / "runs/run1.db", Quote(dir / "plain.toml"));
  auto imported =
      RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(dir / "fleet"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const Json report =
      test_support::RunFencescopeJson("fleet report " + Quote(dir / "fleet") + " --format json");
  EXPECT_EQ(IntAt(report, "steps_matched"), 0);
  EXPECT_EQ(IntAt(report, "ranks[0].steps"), 0);
  EXPECT_EQ(report.Find("steps_from")->String(), "none");
}

}  // namespace
