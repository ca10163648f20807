// `fencescope fleet import / report / status / submit --dry-run` through the real binary on
// fleets made by tests/fleet/make_fleet.py, whose truth.json holds the answers by construction
// (stragglers, lateness, clock offsets, waits); per-rank busy time is counted a second way over
// the raw rank files by tests/fleet/count_busy.py.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

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

// The real single-rank PyTorch trace the fleets are made from, where ../shared exists; the
// generator's built-in step otherwise (a user's clean clone).
fs::path BaseTrace() {
  return test_support::SharedDir() / "traces/external/kineto/worker0.1623143089861.pt.trace.json.gz";
}

// Runs make_fleet.py into DIR/gen; returns truth.json (a failed expectation and null on error).
Json Generate(const ScratchDir& dir, const std::string& args, bool real_base) {
  std::string command = "python3 " + Quote(test_support::SourceDir() / "tests/fleet/make_fleet.py") +
                        " --out " + Quote(dir / "gen") + " " + args;
  if (real_base && fs::exists(BaseTrace())) command += " --base " + Quote(BaseTrace());
  auto r = RunCommand(command);
  EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
  if (r.exit_code != 0) return Json();
  return test_support::ParseJsonText(ReadFile(dir / "gen/truth.json"));
}

Json FleetReportJson(const fs::path& fleet) {
  return test_support::RunFencescopeJson("fleet report " + Quote(fleet) + " --format json");
}

TEST(FleetCli, StragglersOffsetsAndWaitsAreTheGeneratedOnes) {
  ScratchDir dir;
  // Rank 3 slow at step 1, rank 6 at step 3, rank 1 at step 4; every rank's clock offset.
  const Json truth = Generate(dir,
                              "--ranks 8 --steps 5 --keep-ms 6 --slow 3:1:1.6 --slow 6:3:1.4 "
                              "--slow 1:4:1.25 --seed 7",
                              /*real_base=*/true);
  ASSERT_EQ(truth.type(), Json::Type::kObject);
  const fs::path fleet = dir / "fleet";
  auto imported = RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " + Quote(fleet));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("8 of 8 traces summarised"), std::string::npos) << imported.out;

  const Json report = FleetReportJson(fleet);
  EXPECT_EQ(IntAt(report, "ranks_count"), 8);
  EXPECT_EQ(IntAt(report, "steps_matched"), 5);
  EXPECT_EQ(IntAt(report, "traces_failed"), 0);
  EXPECT_EQ(report.Find("clock")->Find("method")->String(), "collective_end");
  EXPECT_EQ(report.Find("steps_from")->String(), "profiler_step");

  // Stragglers: the slow ranks where one was made slow, and the exact lateness at every step.
  const auto& steps = truth.Find("steps")->items();
  ASSERT_EQ(steps.size(), 5u);
  for (size_t k = 0; k < steps.size(); ++k) {
    const std::string at = "steps[" + std::to_string(k) + "]";
    EXPECT_EQ(IntAt(report, at + ".step"), static_cast<int64_t>(k));
    EXPECT_EQ(IntAt(report, at + ".straggler.rank"), steps[k].Find("straggler")->Int()) << at;
    EXPECT_EQ(IntAt(report, at + ".straggler.lateness_ns"), steps[k].Find("lateness_ns")->Int())
        << at;
    int64_t waited = 0;
    for (const Json& w : steps[k].Find("collective_wait_ns")->items()) waited += w.Int();
    EXPECT_EQ(IntAt(report, at + ".straggler.others_waited_ns"), waited) << at;
    for (size_t r = 0; r < 8; ++r) {
      EXPECT_EQ(IntAt(report, at + ".step_ns[" + std::to_string(r) + "]"),
                steps[k].Find("step_ns")->items()[r].Int());
    }
  }
  EXPECT_EQ(IntAt(report, "steps[1].straggler.rank"), 3);
  EXPECT_EQ(IntAt(report, "steps[3].straggler.rank"), 6);
  EXPECT_EQ(IntAt(report, "steps[4].straggler.rank"), 1);

  // What each straggler was doing is its own summary's critical path of that step.
  std::map<int64_t, Json> summary_of_rank;
  for (const auto& e : fs::directory_iterator(fleet / "traces")) {
    if (e.path().string().ends_with(".summary.json")) {
      Json summary = test_support::ParseJsonText(ReadFile(e.path()));
      summary_of_rank[summary.Find("fleet")->Find("metadata_rank")->Int()] = std::move(summary);
    }
  }
  ASSERT_EQ(summary_of_rank.size(), 8u);
  for (size_t k = 0; k < steps.size(); ++k) {
    const Json& straggler = *report.Find("steps")->items()[k].Find("straggler");
    const Json& doing = *straggler.Find("doing");
    const Json* path = nullptr;
    for (const Json& step :
         summary_of_rank.at(straggler.Find("rank")->Int()).Find("fleet")->Find("steps")->items()) {
      if (step.Find("id")->Int() == static_cast<int64_t>(k)) path = step.Find("path");
    }
    ASSERT_NE(path, nullptr) << k;
    EXPECT_GT(doing.size(), 0u) << k;
    EXPECT_EQ(doing.Dump(), path->Dump()) << k;
  }

  // Clock offsets and per-rank figures.
  const auto& offsets = truth.Find("offsets_ns")->items();
  for (size_t r = 0; r < 8; ++r) {
    const std::string at = "ranks[" + std::to_string(r) + "]";
    EXPECT_EQ(IntAt(report, at + ".rank"), static_cast<int64_t>(r));
    EXPECT_EQ(report.Find("ranks")->items()[r].Find("rank_source")->String(), "metadata");
    EXPECT_EQ(IntAt(report, at + ".offset_ns"), offsets[r].Int()) << at;
    EXPECT_EQ(IntAt(report, "clock.offsets[" + std::to_string(r) + "].spread_ns"), 0) << at;
    int64_t waits = 0;
    for (const Json& s : steps) waits += s.Find("collective_wait_ns")->items()[r].Int();
    EXPECT_EQ(IntAt(report, at + ".collective_wait_ns"), waits) << at;
    const auto counted = test_support::ScriptFigures(
        test_support::SourceDir() / "tests/fleet/count_busy.py",
        dir / "gen/ranks" / ("worker_" + std::to_string(r) + ".pt.trace.json"));
    EXPECT_EQ(IntAt(report, at + ".busy_ns"), counted.at("busy_ns")) << at;
    EXPECT_EQ(IntAt(report, at + ".collective_ns"), counted.at("collective_ns")) << at;
    EXPECT_EQ(IntAt(report, at + ".steps"), counted.at("steps")) << at;
    // Over the whole trace, whatever steps matched.
    EXPECT_EQ(IntAt(report, at + ".trace_busy_ns"), counted.at("trace_busy_ns")) << at;
    EXPECT_EQ(IntAt(report, at + ".trace_queues"), counted.at("trace_queues")) << at;
    EXPECT_EQ(IntAt(report, at + ".step_id_min"), counted.at("step_id_min")) << at;
    EXPECT_EQ(IntAt(report, at + ".step_id_max"), counted.at("step_id_max")) << at;
  }

  // The other formats name the stragglers; --fail-if reads the fleet keys.
  auto html = RunFencescope("fleet report " + Quote(fleet) + " -o " + Quote(dir / "fleet.html"));
  ASSERT_EQ(html.exit_code, 0) << html.err;
  const std::string page = ReadFile(dir / "fleet.html");
  EXPECT_NE(page.find("id=\"heat-map\""), std::string::npos);
  EXPECT_NE(page.find("rank 3 step 1"), std::string::npos);
  auto md = RunFencescope("fleet report " + Quote(fleet) + " -o " + Quote(dir / "fleet.md"));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(ReadFile(dir / "fleet.md").find("## Stragglers per step"), std::string::npos);
  auto tripped = RunFencescope("fleet report " + Quote(fleet) +
                               " --fail-if 'stragglers.max_lateness_ns > 1000000'");
  EXPECT_EQ(tripped.exit_code, 3) << tripped.err;
  auto quiet = RunFencescope("fleet report " + Quote(fleet) + " --fail-if 'traces_failed > 0'");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  auto unknown = RunFencescope("fleet report " + Quote(fleet) + " --fail-if 'no_such_key > 0'");
  test_support::ExpectFailure(unknown, 1, "no_such_key");
}

TEST(FleetCli, RankFromFileNameElseFromOrder) {
  ScratchDir dir;
  ASSERT_EQ(Generate(dir, "--ranks 3 --steps 2 --no-rank-info", false).type(), Json::Type::kObject);
  auto r = RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " + Quote(dir / "f1"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json report = FleetReportJson(dir / "f1");
  for (int i = 0; i < 3; ++i) {
    const Json& rank = report.Find("ranks")->items()[i];
    EXPECT_EQ(rank.Find("rank_source")->String(), "file name");
    EXPECT_EQ(rank.Find("rank")->Int(), i);
  }
  ScratchDir other;
  ASSERT_EQ(Generate(other, "--ranks 3 --steps 2 --no-rank-info --unnumbered", false).type(),
            Json::Type::kObject);
  // A glob this time.
  r = RunFencescope("fleet import " + Quote(other / "gen/ranks") + "/'trace_*.json' -o " +
                    Quote(other / "f2"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  report = FleetReportJson(other / "f2");
  for (int i = 0; i < 3; ++i) {
    const Json& rank = report.Find("ranks")->items()[i];
    EXPECT_EQ(rank.Find("rank_source")->String(), "order");
    EXPECT_EQ(rank.Find("rank")->Int(), i);
  }
}

TEST(FleetCli, AFailedTraceIsNamedAndTheOthersGoOn) {
  ScratchDir dir;
  ASSERT_EQ(Generate(dir, "--ranks 3 --steps 2", false).type(), Json::Type::kObject);
  std::ofstream(dir / "gen/ranks/worker_9.pt.trace.json") << "{\"traceEvents\": [{\"ph\": \"X\", ";
  const fs::path fleet = dir / "fleet";
  auto r = RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " + Quote(fleet));
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("worker_9.pt.trace.json"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("3 of 4 traces summarised"), std::string::npos) << r.out;
  auto status = RunFencescope("fleet status " + Quote(fleet));
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("4 traces, 3 summarised, 1 failed, 0 pending"), std::string::npos)
      << status.out;
  const Json report = FleetReportJson(fleet);
  EXPECT_EQ(IntAt(report, "ranks_count"), 3);
  EXPECT_EQ(IntAt(report, "traces_failed"), 1);
  EXPECT_NE(report.Find("failed")->items()[0].Find("input")->String().find("worker_9"),
            std::string::npos);
  auto gate = RunFencescope("fleet report " + Quote(fleet) + " --fail-if 'traces_failed > 0'");
  EXPECT_EQ(gate.exit_code, 3);
}

// A capture that ends inside a step: the profiler still writes the step's slice with its true
// end, long after the trace's last record. That step is left out (named in the report), not
// compared as a step that was all idle; the step both runs recorded whole is matched.
TEST(FleetCli, AStepTheCaptureEndedInsideIsLeftOutAndNamed) {
  ScratchDir dir;
  fs::create_directories(dir / "runs");
  auto slice = [](const char* name, int ts, int dur) {
    return fmt::format(R"({{"ph": "X", "cat": "user_annotation", "name": "{}", "pid": 1, )"
                       R"("tid": 1, "ts": {}, "dur": {}}})",
                       name, ts, dur);
  };
  // Run 0: steps 1 and 2 whole, a record after them. Run 1: the capture's last record at 2500
  // us, inside step 2, which the profiler closed 1 s later.
  std::ofstream(dir / "runs/a.json")
      << "{\"traceEvents\": [" << slice("ProfilerStep#1", 1000, 1000) << ", "
      << slice("ProfilerStep#2", 2000, 1000) << ", " << slice("after", 3500, 10) << "]}\n";
  std::ofstream(dir / "runs/b.json")
      << "{\"traceEvents\": [" << slice("ProfilerStep#1", 1000, 1200) << ", "
      << slice("ProfilerStep#2", 2200, 1000000) << ", " << slice("last", 2500, 10) << "]}\n";
  auto r = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(dir / "fleet") +
                         " --traces-are runs");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json report = FleetReportJson(dir / "fleet");
  EXPECT_EQ(IntAt(report, "steps_matched"), 1);
  EXPECT_EQ(IntAt(report, "steps[0].step"), 1);
  EXPECT_EQ(IntAt(report, "steps[0].straggler.rank"), 1);  // 1200 us against 1000 us
  EXPECT_EQ(IntAt(report, "steps[0].straggler.lateness_ns"), 200'000);
  EXPECT_EQ(IntAt(report, "steps_unmatched"), 1);  // step 2: on run 0 only
  EXPECT_EQ(IntAt(report, "steps_cut_off"), 1);
  EXPECT_EQ(report.Find("ranks")->items()[0].Find("steps_cut_off")->size(), 0u);
  ASSERT_EQ(report.Find("ranks")->items()[1].Find("steps_cut_off")->size(), 1u);
  EXPECT_EQ(IntAt(report, "ranks[1].steps_cut_off[0]"), 2);
  EXPECT_EQ(IntAt(report, "ranks[1].steps"), 1);
  EXPECT_EQ(IntAt(report, "ranks[0].steps"), 2);
  auto md = RunFencescope("fleet report " + Quote(dir / "fleet") + " -o " + Quote(dir / "f.md"));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(ReadFile(dir / "f.md")
                .find("1 step was left out for ending after the last record "
                      "of its trace (the capture ended inside, so what "
                      "happened until the step's end is not in it): run 1 "
                      "step 2."),
            std::string::npos)
      << ReadFile(dir / "f.md");
}

TEST(FleetCli, TwoTracesOfOneRankAreAnErrorNamingBoth) {
  ScratchDir dir;
  ASSERT_EQ(Generate(dir, "--ranks 2 --steps 2", false).type(), Json::Type::kObject);
  fs::copy_file(dir / "gen/ranks/worker_1.pt.trace.json", dir / "gen/ranks/copy_of_1.json");
  auto r = RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " + Quote(dir / "f"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto report = RunFencescope("fleet report " + Quote(dir / "f"));
  test_support::ExpectFailure(report, 1, "are both rank 1");
  EXPECT_NE(report.err.find("copy_of_1.json"), std::string::npos) << report.err;
  EXPECT_NE(report.err.find("worker_1.pt.trace.json"), std::string::npos) << report.err;
}

// Runs of a CI whose traces all say they are rank 0: refused by default (naming both files and
// the way out), numbered by their place in the (sorted) input list with --ranks-from order, on
// `fleet report` or recorded by `fleet import`, or by the number in their names. The stragglers
// are the generator's, each under its new number.
TEST(FleetCli, RunsThatAllSayRankZeroAreNumberedByOrderOrByName) {
  ScratchDir dir;
  const Json truth = Generate(dir, "--ranks 3 --steps 4 --keep-ms 4 --slow 0:1:1.6 --slow 2:3:1.5",
                              /*real_base=*/false);
  ASSERT_EQ(truth.type(), Json::Type::kObject);
  // Generated rank r is renamed so that sorted names, name numbers and ranks all differ.
  const std::vector<std::string> names = {"run_c_7.json", "run_a_5.json", "run_b_9.json"};
  const std::vector<int64_t> order_of = {2, 0, 1};  // place of generated rank r in sorted names
  const std::vector<int64_t> number_of = {7, 5, 9};
  fs::create_directories(dir / "runs");
  for (size_t r = 0; r < 3; ++r) {
    std::string text = ReadFile(dir / ("gen/ranks/worker_" + std::to_string(r) + ".pt.trace.json"));
    const std::string said = "\"rank\": " + std::to_string(r) + ",";
    const size_t at = text.find(said);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, said.size(), "\"rank\": 0,");
    std::ofstream(dir / "runs" / names[r]) << text;
  }
  const fs::path fleet = dir / "fleet";
  auto imported = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(fleet));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(ReadFile(fleet / "fleet-options.txt"), "ranks-from metadata\ntraces-are ranks\n");
  auto refused = RunFencescope("fleet report " + Quote(fleet));
  test_support::ExpectFailure(refused, 1, "are both rank 0");
  EXPECT_NE(refused.err.find("--traces-are runs"), std::string::npos) << refused.err;

  const auto& steps = truth.Find("steps")->items();
  auto check = [&](const Json& report, const std::string& from, const std::vector<int64_t>& rank_of,
                   const std::string& source) {
    EXPECT_EQ(report.Find("ranks_from")->String(), from);
    ASSERT_EQ(IntAt(report, "ranks_count"), 3);
    for (size_t r = 0; r < 3; ++r) {
      bool found = false;
      for (const Json& row : report.Find("ranks")->items()) {
        if (fs::path(row.Find("input")->String()).filename() != names[r]) continue;
        found = true;
        EXPECT_EQ(row.Find("rank")->Int(), rank_of[r]) << names[r];
        EXPECT_EQ(row.Find("rank_source")->String(), source);
      }
      EXPECT_TRUE(found) << names[r];
    }
    const auto& got = report.Find("steps")->items();
    ASSERT_EQ(got.size(), steps.size());
    for (size_t k = 0; k < steps.size(); ++k) {
      const int64_t generated = steps[k].Find("straggler")->Int();
      EXPECT_EQ(got[k].Find("straggler")->Find("rank")->Int(), rank_of[generated]) << "step " << k;
    }
  };
  check(test_support::RunFencescopeJson("fleet report " + Quote(fleet) +
                                        " --ranks-from order --format json"),
        "order", order_of, "order");
  check(test_support::RunFencescopeJson("fleet report " + Quote(fleet) +
                                        " --ranks-from name --format json"),
        "name", number_of, "file name");

  // Recorded by the import: the report (and the window) number them so without being told.
  imported = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(fleet) +
                           " --ranks-from order");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(ReadFile(fleet / "fleet-options.txt"), "ranks-from order\ntraces-are ranks\n");
  check(FleetReportJson(fleet), "order", order_of, "order");
  auto md = RunFencescope("fleet report " + Quote(fleet) + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("numbered by their place in the input list"), std::string::npos) << md.out;

  test_support::ExpectFailure(RunFencescope("fleet import " + Quote(dir / "runs") + " -o " +
                                            Quote(fleet) + " --ranks-from rank"),
                              105, "--ranks-from");
  std::ofstream(fleet / "fleet-options.txt") << "ranks-from rank\n";
  test_support::ExpectFailure(RunFencescope("fleet report " + Quote(fleet)), 1,
                              "fleet-options.txt: line 1");
}

// Runs of a CI (--traces-are runs, numbered by order): rank 0 of three generated jobs, slow at
// different steps, all saying "rank 0". Each step's straggler is the run whose ProfilerStep
// slice lasted longest, late by its excess over the next longest, nobody waiting; the
// expectation is computed by Python from the raw JSON files.
TEST(FleetCli, RunsAreComparedByHowLongEachStepTook) {
  ScratchDir dir;
  const std::vector<std::string> jobs = {"--slow 0:1:1.6 --seed 3", "--slow 1:3:1.4 --seed 4",
                                         "--seed 5"};
  fs::create_directories(dir / "runs");
  for (size_t j = 0; j < jobs.size(); ++j) {
    ScratchDir job;
    ASSERT_EQ(
        Generate(job, "--ranks 2 --steps 5 --keep-ms 4 " + jobs[j], /*real_base=*/false).type(),
        Json::Type::kObject);
    fs::copy_file(job / "gen/ranks/worker_0.pt.trace.json",
                  dir / "runs" / ("run_" + std::string(1, static_cast<char>('a' + j)) + ".json"));
  }
  const fs::path fleet = dir / "fleet";
  auto imported = RunFencescope("fleet import " + Quote(dir / "runs") + " -o " + Quote(fleet) +
                                " --traces-are runs");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(ReadFile(fleet / "fleet-options.txt"), "ranks-from order\ntraces-are runs\n");
  auto status = RunFencescope("fleet status " + Quote(fleet));
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("read as: traces-are runs, ranks-from order"), std::string::npos)
      << status.out;
  // The report says what it wrote in the traces' own word.
  const size_t run_files = static_cast<size_t>(
      std::distance(fs::directory_iterator(dir / "runs"), fs::directory_iterator()));
  auto wrote = RunFencescope("fleet report " + Quote(fleet) + " -o " + Quote(dir / "runs.md"));
  ASSERT_EQ(wrote.exit_code, 0) << wrote.err;
  EXPECT_NE((wrote.out + wrote.err).find(fmt::format("fleet md report, {} runs, ", run_files)),
            std::string::npos)
      << wrote.out << wrote.err;
  // Per step id: (the longest step's run, its excess over the next longest in ns), runs by
  // their place in the sorted file list, ties to the lower.
  const std::string script = R"(
import decimal, json, os, sys
d = sys.argv[1]
names = sorted(os.listdir(d))
steps = {}
for run, name in enumerate(names):
    seen = set()
    for e in json.load(open(os.path.join(d, name)))["traceEvents"]:
        n = e.get("name", "")
        if e.get("ph") == "X" and n.startswith("ProfilerStep#") and n not in seen:
            seen.add(n)
            ns = int(decimal.Decimal(str(e["dur"])) * 1000)
            steps.setdefault(int(n[13:]), []).append((run, ns))
for step in sorted(steps):
    by_run = steps[step]
    if len(by_run) != len(names): continue
    best = max(by_run, key=lambda x: (x[1], -x[0]))
    rest = max(ns for run, ns in by_run if run != best[0])
    print(step, best[0], best[1] - rest)
)";
  std::ofstream(dir / "longest.py") << script;
  auto expected = RunCommand("python3 " + Quote(dir / "longest.py") + " " + Quote(dir / "runs"));
  ASSERT_EQ(expected.exit_code, 0) << expected.err;
  const Json report = FleetReportJson(fleet);
  EXPECT_EQ(report.Find("traces_are")->String(), "runs");
  EXPECT_EQ(report.Find("ranks_from")->String(), "order");
  const auto& steps = report.Find("steps")->items();
  std::istringstream lines(expected.out);
  size_t k = 0;
  for (int64_t step, run, excess; lines >> step >> run >> excess; ++k) {
    ASSERT_LT(k, steps.size());
    const Json& s = steps[k];
    EXPECT_EQ(s.Find("step")->Int(), step);
    EXPECT_EQ(s.Find("straggler")->Find("rank")->Int(), run) << "step " << step;
    EXPECT_EQ(s.Find("straggler")->Find("lateness_ns")->Int(), excess) << "step " << step;
    EXPECT_EQ(s.Find("straggler")->Find("others_waited_ns")->Int(), 0);
    EXPECT_EQ(s.Find("straggler")->Find("at")->String(), "step time");
  }
  EXPECT_EQ(k, steps.size());
  EXPECT_GE(k, 5u);
  for (const Json& rank : report.Find("ranks")->items()) {
    EXPECT_EQ(rank.Find("collective_wait_ns")->Int(), 0);
  }
  // Each run was the longest at some step: the comparison is not a constant answer.
  std::set<int64_t> stragglers;
  for (const Json& s : steps) stragglers.insert(s.Find("straggler")->Find("rank")->Int());
  EXPECT_EQ(stragglers.size(), 3u);
  auto md = RunFencescope("fleet report " + Quote(fleet) + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("3 runs, "), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("the run whose step took longest"), std::string::npos) << md.out;
  // As ranks of one job (this report only), they are refused: all say rank 0.
  test_support::ExpectFailure(
      RunFencescope("fleet report " + Quote(fleet) + " --traces-are ranks --ranks-from metadata"),
      1, "are both rank 0");
}

TEST(FleetCli, BadArgumentsAreClearErrors) {
  ScratchDir dir;
  test_support::ExpectFailure(
      RunFencescope("fleet import " + Quote(dir / "missing.json") + " -o " + Quote(dir / "f")), 1,
      "missing.json: no such file or directory");
  test_support::ExpectFailure(
      RunFencescope("fleet import " + Quote(dir.path()) + "/'*.nothing' -o " + Quote(dir / "f")),
      1, "the pattern matches no file");
  test_support::ExpectFailure(RunFencescope("fleet report " + Quote(dir.path())), 1,
                              "not a fleet directory");
  // A folder of per-rank folders (as torch.profiler writes them): not searched, and said so.
  fs::create_directories(dir / "job/rank0");
  fs::create_directories(dir / "job/rank1");
  std::ofstream(dir / "job/rank0/trace.json") << "{\"traceEvents\": []}";
  auto nested = RunFencescope("fleet import " + Quote(dir / "job") + " -o " + Quote(dir / "f"));
  test_support::ExpectFailure(nested, 1,
                              "job: the directory holds no trace file, only folders (2;");
  EXPECT_NE(nested.err.find("job/*/*.json.gz"), std::string::npos) << nested.err;
  // Inputs inside the fleet's own traces folder would be overwritten: refused, nothing removed.
  fs::create_directories(dir / "g/traces");
  std::ofstream(dir / "g/traces/00000.db") << "not yet";
  test_support::ExpectFailure(
      RunFencescope("fleet import " + Quote(dir / "g/traces") + " -o " + Quote(dir / "g")), 1,
      "an input inside the fleet's own traces folder");
  EXPECT_EQ(ReadFile(dir / "g/traces/00000.db"), "not yet");
  // A rank record that is not an object: that trace fails, named, with the reason.
  fs::create_directories(dir / "in");
  std::ofstream(dir / "in/rank-0.json") << "{\"distributedInfo\": [1], \"traceEvents\": []}";
  auto r = RunFencescope("fleet import " + Quote(dir / "in") + " -o " + Quote(dir / "f"));
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("rank-0.json: top-level \"distributedInfo\" is not a JSON object"),
            std::string::npos)
      << r.err;
}

TEST(FleetCli, SubmitDryRunWritesTheArrayAndTheDependentReduce) {
  ScratchDir dir;
  ASSERT_EQ(Generate(dir, "--ranks 5 --steps 1", false).type(), Json::Type::kObject);
  auto r = RunFencescope("fleet submit --slurm " + Quote(dir / "gen/ranks") + " -o " +
                         Quote(dir / "f") + " --partition debug --array-max 2 --chunk 2 --dry-run" +
                         " --traces-are runs --ranks-from name");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Recorded for the reduce job's `fleet report`.
  EXPECT_EQ(ReadFile(dir / "f/fleet-options.txt"), "ranks-from name\ntraces-are runs\n");
  const std::string map = ReadFile(dir / "f/slurm/map.sbatch");
  EXPECT_NE(map.find("#SBATCH --array=0-2%2"), std::string::npos) << map;  // 5 traces, 2 a task
  EXPECT_NE(map.find("#SBATCH --partition=debug"), std::string::npos) << map;
  EXPECT_NE(map.find("fleet map"), std::string::npos) << map;
  EXPECT_NE(map.find("--first $((SLURM_ARRAY_TASK_ID * 2)) --count 2"), std::string::npos) << map;
  const std::string reduce = ReadFile(dir / "f/slurm/reduce.sbatch");
  EXPECT_NE(reduce.find("fleet report"), std::string::npos) << reduce;
  EXPECT_NE(reduce.find("fleet.html"), std::string::npos) << reduce;
  // The same map step the array runs, run here by hand for the last chunk (inputs 4..5).
  auto map_run = RunFencescope("fleet map " + Quote(dir / "f") + " --first 4 --count 2");
  ASSERT_EQ(map_run.exit_code, 0) << map_run.err;
  auto status = RunFencescope("fleet status " + Quote(dir / "f"));
  EXPECT_NE(status.out.find("5 traces, 1 summarised, 0 failed, 4 pending"), std::string::npos)
      << status.out;
  // A client with a SLURM_CONF that names no file would retry for a minute: refused at once.
  auto bad_conf = RunCommand("SLURM_CONF=" + Quote(dir / "no.conf") + " " +
                             Quote(FENCESCOPE_EXECUTABLE) + " fleet submit --slurm " +
                             Quote(dir / "gen/ranks") + " -o " + Quote(dir / "f2"));
  test_support::ExpectFailure(bad_conf, 1, "no.conf, which does not exist");
}

}  // namespace
