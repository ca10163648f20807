// core/fleet on hand-made summaries: step matching, clock alignment from collective ends and
// from step starts, stragglers at a collective and at the step end, rank assignment; the
// summary file's round trip and its errors; ranks from file names.
#include <gtest/gtest.h>

#include <fstream>

#include "core/fleet/fleet_analysis.h"
#include "core/fleet/fleet_inputs.h"
#include "core/fleet/fleet_report.h"
#include "core/fleet/summary_file.h"
#include "tests/support/test_support.h"

namespace {

using core::fleet::AnalyseFleet;
using core::fleet::RankSummary;
using core::fleet::StepSummary;

// A rank whose clock reads true time + offset; steps `ids` each [1000 * id, 1000 * id + len),
// and when `arrival` is given one collective from 1000 * id + arrival to 1000 * id + 900.
RankSummary Rank(int64_t rank, int64_t offset, std::vector<int64_t> ids, int64_t len,
                 int64_t arrival = -1) {
  RankSummary s;
  s.input = "rank" + std::to_string(rank) + ".json";
  s.order = rank;
  s.metadata_rank = rank;
  for (int64_t id : ids) {
    StepSummary step;
    step.id = id;
    step.start_ns = 1000 * id + offset;
    step.end_ns = step.start_ns + len;
    if (arrival >= 0) {
      step.collectives.push_back({"ncclKernel_AllReduce", "GPU 0 stream 20",
                                  1000 * id + arrival + offset, 1000 * id + 900 + offset});
    }
    step.path.push_back({"run", "GPU 0 stream 7", "gemm", len});
    s.steps.push_back(step);
  }
  return s;
}

TEST(FleetAnalysis, CollectiveEndsAlignClocksAndNameTheLatestArrival) {
  std::vector<RankSummary> ranks = {Rank(0, 0, {1, 2}, 950, 500), Rank(1, 70, {1, 2}, 950, 820),
                                    Rank(2, -30, {1, 2}, 950, 600)};
  const auto a = AnalyseFleet(std::move(ranks), {});
  EXPECT_EQ(a.clock_method, "collective_end");
  ASSERT_EQ(a.ranks.size(), 3u);
  EXPECT_EQ(a.ranks[1].offset_ns, 70);
  EXPECT_EQ(a.ranks[2].offset_ns, -30);
  ASSERT_EQ(a.steps.size(), 2u);
  EXPECT_EQ(a.steps[0].straggler.rank, 1);
  EXPECT_EQ(a.steps[0].straggler.lateness_ns, 820 - 600);
  EXPECT_EQ(a.steps[0].straggler.others_waited_ns, (820 - 500) + (820 - 600));
  EXPECT_EQ(a.ranks[0].collective_wait_ns, 2 * (820 - 500));
  EXPECT_EQ(a.ranks[1].straggler_steps, 2u);
  EXPECT_EQ(a.steps[0].straggler.doing.at(0).name, "gemm");
}

TEST(FleetAnalysis, WithoutCollectivesStepStartsAlignAndTheLongestStepIsTheStraggler) {
  std::vector<RankSummary> ranks = {Rank(4, 0, {7, 8, 9}, 500), Rank(5, 1234, {7, 8, 9}, 800),
                                    Rank(6, -5, {8, 9}, 600)};
  const auto a = AnalyseFleet(std::move(ranks), {{"bad.json", "bad.json: byte 3: junk"}});
  EXPECT_EQ(a.clock_method, "step_start");
  EXPECT_EQ(a.reference_rank, 4);
  EXPECT_EQ(a.ranks[1].offset_ns, 1234);
  EXPECT_EQ(a.ranks[2].offset_ns, -5);
  ASSERT_EQ(a.steps.size(), 2u);  // step 7 is not on rank 6
  EXPECT_EQ(a.steps_unmatched, 1u);
  EXPECT_EQ(a.steps[0].step, 8);
  EXPECT_EQ(a.steps[0].straggler.rank, 5);
  EXPECT_EQ(a.steps[0].straggler.lateness_ns, 200);
  EXPECT_EQ(a.steps[0].straggler.at, "step end");
  EXPECT_EQ(a.ranks[0].steps, 3u);
  EXPECT_EQ(a.failed.size(), 1u);
}

TEST(FleetAnalysis, RanksComeFromMetadataThenFileNameThenOrder) {
  RankSummary meta = Rank(3, 0, {1}, 10);
  RankSummary named = Rank(9, 0, {1}, 10);
  named.metadata_rank = -1;
  named.name_rank = 1;
  RankSummary ordered = Rank(9, 0, {1}, 10);
  ordered.metadata_rank = -1;
  ordered.order = 2;
  const auto a = AnalyseFleet({meta, named, ordered}, {});
  ASSERT_EQ(a.ranks.size(), 3u);
  EXPECT_EQ(a.ranks[0].rank, 1);
  EXPECT_EQ(a.ranks[0].rank_source, "file name");
  EXPECT_EQ(a.ranks[1].rank, 2);
  EXPECT_EQ(a.ranks[1].rank_source, "order");
  EXPECT_EQ(a.ranks[2].rank, 3);
  EXPECT_EQ(a.ranks[2].rank_source, "metadata");
  EXPECT_NE(test_support::ErrorOf([&] { AnalyseFleet({meta, meta}, {}); }).find("both rank 3"),
            std::string::npos);
}

TEST(FleetInputs, RankFromFileName) {
  using core::fleet::RankFromFileName;
  EXPECT_EQ(RankFromFileName("rank-3.json"), 3);
  EXPECT_EQ(RankFromFileName("/a/b7/RANK_12.pt.trace.json"), 12);
  EXPECT_EQ(RankFromFileName("rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"), 0);
  EXPECT_EQ(RankFromFileName("worker0.1623143089861.pt.trace.json"), 0);
  EXPECT_EQ(RankFromFileName("trace_ab.json"), -1);
}

TEST(SummaryFile, RoundTripAndErrorsNameTheFile) {
  test_support::ScratchDir dir;
  RankSummary s = Rank(2, 40, {3, 4}, 950, 700);
  s.steps[0].queues.push_back({"GPU 0 stream 7", 10, 20, 30});
  s.queues.push_back({"GPU 0 stream 7", 100, 200, 300});
  s.steps_cut_off = {5};
  core::report::Json report = core::report::Json::Object();
  report.Set("schema_version", 1);
  core::fleet::WriteSummaryFile(dir / "s.summary.json", s, report);
  const RankSummary back = core::fleet::ReadSummaryFile(dir / "s.summary.json");
  EXPECT_EQ(core::fleet::RankSummaryJson(back).Dump(), core::fleet::RankSummaryJson(s).Dump());
  // Without the steps' paths: everything else as written.
  RankSummary without = s;
  for (StepSummary& step : without.steps) step.path.clear();
  const RankSummary lean = core::fleet::ReadSummaryFile(dir / "s.summary.json", false);
  EXPECT_EQ(core::fleet::RankSummaryJson(lean).Dump(),
            core::fleet::RankSummaryJson(without).Dump());
  EXPECT_FALSE(back.steps.at(0).path.empty());
  ASSERT_EQ(back.queues.size(), 1u);
  EXPECT_EQ(back.queues[0].idle_ns, 300);
  EXPECT_TRUE(back.queues_known);
  EXPECT_EQ(back.steps_cut_off, std::vector<int64_t>{5});
  // A summary written before the whole trace's queues were kept reads as unknown, not as zero.
  std::string old_text = test_support::ReadFile(dir / "s.summary.json");
  const size_t queues = old_text.find("\"queues\":[");
  ASSERT_NE(queues, std::string::npos);
  old_text.erase(queues, old_text.find("],", queues) + 2 - queues);
  std::ofstream(dir / "old.summary.json") << old_text;
  const RankSummary old = core::fleet::ReadSummaryFile(dir / "old.summary.json");
  EXPECT_FALSE(old.queues_known);
  EXPECT_TRUE(old.queues.empty());
  EXPECT_EQ(old.steps.at(0).queues.size(), 1u);
  const auto with_old = AnalyseFleet({old}, {});
  EXPECT_EQ(with_old.ranks.at(0).trace_busy_ns, -1);
  EXPECT_EQ(with_old.ranks.at(0).trace_ns, old.end_ns - old.start_ns);
  EXPECT_NE(test_support::ReadFile(dir / "s.summary.json").find("\"schema_version\": 1"),
            std::string::npos);
  std::ofstream(dir / "bad.summary.json") << "{\"fleet\": {\"input\": \"x\"}}\n";
  const std::string error =
      test_support::ErrorOf([&] { core::fleet::ReadSummaryFile(dir / "bad.summary.json"); });
  EXPECT_NE(error.find("bad.summary.json"), std::string::npos) << error;
  EXPECT_NE(error.find("\"order\""), std::string::npos) << error;
  std::ofstream(dir / "report.json") << "{\"schema_version\": 1}\n";
  EXPECT_NE(test_support::ErrorOf([&] { core::fleet::ReadSummaryFile(dir / "report.json"); })
                .find("line 1: not a fleet summary"),
            std::string::npos);
}

// Traces with no step id in common: nothing matched, and each is still described over its whole
// trace (the queues' figures added up, the span, the step ids); the reports say why the
// per-step figures are empty instead of printing zeros.
TEST(FleetAnalysis, TracesWithNoStepInCommonAreComparedOverTheirWholeTraces) {
  RankSummary a = Rank(0, 0, {1009, 1010}, 500);
  a.start_ns = 100, a.end_ns = 5100;
  a.queues = {{"GPU 0 stream 7", 700, 50, 4250}, {"GPU 0 stream 20", 30, 0, 4970}};
  RankSummary b = Rank(1, 0, {3}, 500);
  b.start_ns = 0, b.end_ns = 2000;
  b.queues = {{"GPU 0 stream 7", 1500, 0, 500}};
  b.steps_cut_off = {4, 9};
  RankSummary c = Rank(2, 0, {}, 0);
  c.start_ns = 10, c.end_ns = 20;
  c.steps_from = "none";
  const auto fleet =
      AnalyseFleet({a, b, c}, {}, core::fleet::FleetDetail::kFigures,
                   {core::fleet::RankNumbering::kOrder, core::fleet::TracesAre::kRuns});
  EXPECT_TRUE(fleet.steps.empty());
  EXPECT_EQ(fleet.steps_unmatched, 3u);
  // Lined up by the traces' starts (100, 0, 10), so that they are drawn side by side.
  EXPECT_EQ(fleet.clock_method, "trace_start");
  EXPECT_EQ(fleet.reference_rank, 0);
  ASSERT_EQ(fleet.ranks.size(), 3u);
  EXPECT_EQ(fleet.ranks[0].trace_ns, 5000);
  EXPECT_EQ(fleet.ranks[0].trace_busy_ns, 730);
  EXPECT_EQ(fleet.ranks[0].trace_waiting_ns, 50);
  EXPECT_EQ(fleet.ranks[0].trace_idle_ns, 4250 + 4970);
  EXPECT_EQ(fleet.ranks[0].trace_queues, 2u);
  EXPECT_EQ(fleet.ranks[0].step_id_min, 1009);
  EXPECT_EQ(fleet.ranks[0].step_id_max, 1010);
  EXPECT_EQ(fleet.ranks[1].trace_busy_ns, 1500);
  EXPECT_EQ(fleet.steps_cut_off, 2u);
  EXPECT_EQ(fleet.ranks[1].steps_cut_off, (std::vector<int64_t>{4, 9}));
  EXPECT_EQ(fleet.ranks[2].step_id_min, -1);
  EXPECT_EQ(fleet.ranks[2].trace_busy_ns, 0);
  EXPECT_EQ(fleet.ranks[0].offset_ns, 0);
  EXPECT_EQ(fleet.ranks[1].offset_ns, -100);
  EXPECT_EQ(fleet.ranks[2].offset_ns, -90);

  const std::string md = core::fleet::FleetMarkdown(fleet);
  EXPECT_NE(md.find("No step id is on every run"), std::string::npos) << md;
  // The tables say run for runs.
  EXPECT_NE(md.find("| run | from | mean step |"), std::string::npos) << md;
  EXPECT_NE(md.find("| run | steps | step ids | cut off |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | order | - | - | - | - | - | - | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | 2 | 1009-1010 | - | 5 us | 2 | 730 ns | 50 ns | 9.22 us |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 2 | 0 | - | - | 10 ns | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 | 1 | 3 | 4, 9 | 2 us |"), std::string::npos) << md;
  EXPECT_NE(md.find("2 steps were left out for ending after the last record of their trace"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("run 1 steps 4, 9."), std::string::npos) << md;
  EXPECT_NE(md.find("No step matched on every run."), std::string::npos) << md;
  EXPECT_NE(md.find("no steps on 1, ProfilerStep slices on 2"), std::string::npos) << md;
  const std::string html = core::fleet::FleetHtml(fleet);
  EXPECT_NE(html.find("id=\"whole-traces\""), std::string::npos);
  // Said in the heat map's place and the stragglers' (no empty tables).
  size_t said = 0;
  for (size_t at = html.find("No step matched on every run."); at != std::string::npos;
       at = html.find("No step matched on every run.", at + 1)) {
    ++said;
  }
  EXPECT_EQ(said, 2u) << html;
  EXPECT_EQ(html.find("<td class=\"h\""), std::string::npos);
  const std::string json = core::fleet::FleetJson(fleet).Dump();
  EXPECT_NE(json.find("\"trace_busy_ns\": 730"), std::string::npos) << json;
}

// Runs lined up by their starts are as far apart as their captures: the reports and the window
// say so in days, hours and minutes; ranks aligned by shared events keep exact ns.
TEST(FleetAnalysis, OffsetsOfRunsLinedUpByTheirStartsReadAsTimeBetweenCaptures) {
  constexpr int64_t kS = 1'000'000'000;
  const int64_t starts[] = {0,
                            ((24 + 2) * 60 + 3) * 60 * kS,
                            (5 * 60 + 7) * 60 * kS + 59 * kS,
                            (3 * 60 + 20) * kS,
                            42 * kS + kS / 2,
                            -(3 * 60 + 20) * kS};
  std::vector<RankSummary> runs;
  for (size_t i = 0; i < std::size(starts); ++i) {
    RankSummary r = Rank(static_cast<int64_t>(i), 0, {}, 0);
    r.start_ns = starts[i], r.end_ns = starts[i] + kS;
    runs.push_back(r);
  }
  const auto fleet =
      AnalyseFleet(runs, {}, core::fleet::FleetDetail::kFigures,
                   {core::fleet::RankNumbering::kOrder, core::fleet::TracesAre::kRuns});
  ASSERT_EQ(fleet.clock_method, "trace_start");
  const std::vector<std::string> said = {"+0 ns",       "+1 d 2 h", "+5 h 7 min",
                                         "+3 min 20 s", "+42.5 s",  "-3 min 20 s"};
  ASSERT_EQ(fleet.ranks.size(), said.size());
  const std::string md = core::fleet::FleetMarkdown(fleet);
  const std::string html = core::fleet::FleetHtml(fleet);
  for (size_t i = 0; i < said.size(); ++i) {
    EXPECT_EQ(fleet.ranks[i].offset_ns, starts[i]);
    EXPECT_EQ(core::fleet::OffsetText(fleet, fleet.ranks[i]), said[i]) << i;
    EXPECT_NE(md.find("| " + said[i] + " | rank" + std::to_string(i) + ".json |"),
              std::string::npos)
        << md;
    EXPECT_NE(html.find("<td>" + said[i] + "</td>"), std::string::npos) << said[i];
  }
  // The JSON keeps the ns.
  EXPECT_NE(core::fleet::FleetJson(fleet).Dump().find("\"offset_ns\": 93780000000000"),
            std::string::npos);

  // Aligned by collective ends: exact ns.
  const auto ranks = AnalyseFleet({Rank(0, 0, {1}, 950, 500), Rank(1, 70, {1}, 950, 820)}, {});
  ASSERT_EQ(ranks.clock_method, "collective_end");
  EXPECT_EQ(core::fleet::OffsetText(ranks, ranks.ranks[1]), "70 ns");
  EXPECT_NE(core::fleet::FleetMarkdown(ranks).find("| 70 ns | rank1.json |"), std::string::npos);
}

}  // namespace

// Runs of a CI: every trace says it is rank 0. By order, each is its place in the input list;
// by name, the number in its file name (else its place); the default refuses, saying how.
TEST(FleetAnalysis, RunsThatAllSayRankZeroAreNumberedByOrderOrByName) {
  std::vector<RankSummary> runs = {Rank(0, 0, {1, 2}, 10), Rank(0, 0, {1, 2}, 30),
                                   Rank(0, 0, {1, 2}, 20)};
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i].order = static_cast<int64_t>(i);
    runs[i].input = "run-" + std::to_string(i) + ".json";
  }
  runs[0].name_rank = 17;
  runs[1].name_rank = 4;  // runs[2] has no number in its name

  const std::string refused = test_support::ErrorOf([&] { AnalyseFleet(runs, {}); });
  EXPECT_NE(refused.find("are both rank 0"), std::string::npos) << refused;
  EXPECT_NE(refused.find("--traces-are runs"), std::string::npos) << refused;

  const auto by_order = AnalyseFleet(runs, {}, core::fleet::FleetDetail::kFigures,
                                     {core::fleet::RankNumbering::kOrder});
  EXPECT_EQ(by_order.options.numbering, core::fleet::RankNumbering::kOrder);
  ASSERT_EQ(by_order.ranks.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(by_order.ranks[i].rank, static_cast<int64_t>(i));
    EXPECT_EQ(by_order.ranks[i].rank_source, "order");
    EXPECT_EQ(by_order.ranks[i].input, runs[i].input);
  }
  // The longest step (30 ns, run 1) ends last: it is every step's straggler.
  ASSERT_EQ(by_order.steps.size(), 2u);
  EXPECT_EQ(by_order.steps[0].straggler.rank, 1);

  const auto by_name = AnalyseFleet(runs, {}, core::fleet::FleetDetail::kFigures,
                                    {core::fleet::RankNumbering::kFileName});
  ASSERT_EQ(by_name.ranks.size(), 3u);
  EXPECT_EQ(by_name.ranks[0].rank, 2);  // run 2: no number in its name, its place
  EXPECT_EQ(by_name.ranks[0].rank_source, "order");
  EXPECT_EQ(by_name.ranks[1].rank, 4);
  EXPECT_EQ(by_name.ranks[1].rank_source, "file name");
  EXPECT_EQ(by_name.ranks[2].rank, 17);
  EXPECT_EQ(by_name.steps[0].straggler.rank, 4);
}

// Runs of a CI: their clocks drift apart from step to step (run 2 starts step 2 late by 500 ns
// after starting step 1 with the others), so lined up at the median start the latest step END
// is not the longest step. As runs, each step's straggler is the longest step, late by its
// excess over the next longest, with nobody waiting; their collectives are their own.
TEST(FleetAnalysis, RunsAreComparedStepByStepByHowLongTheStepTook) {
  std::vector<RankSummary> runs = {Rank(0, 0, {1, 2}, 300, 100), Rank(1, 0, {1, 2}, 350, 100),
                                   Rank(2, 0, {1, 2}, 320, 800)};
  runs[2].steps[1].start_ns += 500;
  runs[2].steps[1].end_ns += 500;
  const auto as_ranks = AnalyseFleet(runs, {});
  ASSERT_EQ(as_ranks.steps.size(), 2u);
  EXPECT_EQ(as_ranks.clock_method, "collective_end");
  EXPECT_EQ(as_ranks.steps[1].straggler.rank, 2);  // its collective arrival, 700 ns after
  EXPECT_GT(as_ranks.ranks[0].collective_wait_ns, 0);

  core::fleet::FleetOptions options;
  options.traces_are = core::fleet::TracesAre::kRuns;
  const auto as_runs = AnalyseFleet(runs, {}, core::fleet::FleetDetail::kFigures, options);
  EXPECT_EQ(as_runs.options.traces_are, core::fleet::TracesAre::kRuns);
  EXPECT_EQ(as_runs.clock_method, "step_start");
  ASSERT_EQ(as_runs.steps.size(), 2u);
  for (const auto& step : as_runs.steps) {
    EXPECT_EQ(step.straggler.rank, 1);          // 350 ns, the longest
    EXPECT_EQ(step.straggler.lateness_ns, 30);  // over 320 ns
    EXPECT_EQ(step.straggler.others_waited_ns, 0);
    EXPECT_EQ(step.straggler.at, "step time");
  }
  for (const auto& rank : as_runs.ranks) EXPECT_EQ(rank.collective_wait_ns, 0);
  EXPECT_EQ(as_runs.ranks[1].straggler_steps, 2u);
}

TEST(FleetInputs, FleetOptionsAreRecordedInTheFleetDirectory) {
  test_support::ScratchDir dir;
  const core::fleet::FleetPaths paths{dir.path()};
  core::fleet::FleetOptions read = core::fleet::ReadFleetOptions(paths);  // none recorded
  EXPECT_EQ(read.numbering, core::fleet::RankNumbering::kMetadata);
  EXPECT_EQ(read.traces_are, core::fleet::TracesAre::kRanks);
  for (auto n : {core::fleet::RankNumbering::kOrder, core::fleet::RankNumbering::kFileName,
                 core::fleet::RankNumbering::kMetadata}) {
    for (auto t : {core::fleet::TracesAre::kRuns, core::fleet::TracesAre::kRanks}) {
      core::fleet::WriteFleetOptions(paths, {n, t});
      read = core::fleet::ReadFleetOptions(paths);
      EXPECT_EQ(read.numbering, n);
      EXPECT_EQ(read.traces_are, t);
    }
  }
  EXPECT_EQ(test_support::ReadFile(paths.OptionsFile()), "ranks-from metadata\ntraces-are ranks\n");
  std::ofstream(paths.OptionsFile()) << "ranks-from order\ntraces-are jobs\n";
  const std::string bad = test_support::ErrorOf([&] { core::fleet::ReadFleetOptions(paths); });
  EXPECT_NE(bad.find(paths.OptionsFile().string() + ": line 2"), std::string::npos) << bad;
  EXPECT_NE(bad.find("traces-are jobs"), std::string::npos) << bad;
}
