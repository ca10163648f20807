#include "core/replay/whatif_benchmark.h"

#include <algorithm>
#include <chrono>
#include <system_error>

#include "core/replay/derived_program.h"
#include "core/replay/replay_outcome.h"
#include "core/replay/replay_writer.h"
#include "core/replay/trace_packet_slots.h"
#include "core/report/report_data.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/store/memory_trace.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"

namespace core::replay {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

WhatIfBenchmarkResult RunWhatIfBenchmark(const std::filesystem::path& trace,
                                         const std::filesystem::path& scratch) {
  WhatIfBenchmarkResult r;
  auto t = Clock::now();
  const core::store::TraceStore store = core::store::LoadTrace(trace);
  r.load_seconds = SecondsSince(t);
  t = Clock::now();
  const analysis::Reconstruction recon = analysis::Reconstruct(store);
  r.reconstruct_seconds = SecondsSince(t);
  r.packets = recon.packets.size();
  t = Clock::now();
  const DerivedProgram program = DeriveProgram(store, recon);
  r.derive_seconds = SecondsSince(t);
  t = Clock::now();
  {
    core::store::TraceWriter writer(scratch, "replay");
    WriteReplay(store, program, writer);
    writer.Commit();
  }
  r.replay_seconds = SecondsSince(t);
  std::error_code ignored;
  std::filesystem::remove(scratch, ignored);
  t = Clock::now();
  {
    // What the what-if baseline and every opportunity use: the replay built straight into a
    // TraceStore, no SQLite at all.
    core::store::MemoryTrace memory("replay");
    WriteReplay(store, program, memory);
    (void)memory.TakeStore("(replay)");
  }
  r.replay_in_memory_seconds = SecondsSince(t);
  t = Clock::now();
  (void)MeasureUneditedReplay(store, recon, TracePacketSlots(recon), program);
  r.replay_measured_seconds = SecondsSince(t);
  // The report, twice, the faster counted: a first report faults in whatever memory the stages
  // before it did not leave free (more when they need less), so its time alone would move with
  // them; the ratios below are against the report's own cost.
  core::report::ReportData data;
  for (int run = 0; run < 2; ++run) {
    t = Clock::now();
    data = core::report::AnalyseTrace(store, /*full=*/true);
    (void)core::report::ReportJson(data).Dump();
    (void)core::report::ReportHtml(data);
    (void)core::report::ReportMarkdown(data);
    const double seconds = SecondsSince(t);
    r.report_seconds = run == 0 ? seconds : std::min(r.report_seconds, seconds);
  }
  t = Clock::now();
  core::report::ComputeOpportunities(data);
  r.opportunities_seconds = SecondsSince(t);
  return r;
}

}  // namespace core::replay
