#include "core/report/report_benchmark.h"

#include <chrono>

#include "core/cache/cached_trace.h"
#include "core/report/report_data.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/store/trace_writer.h"

namespace core::report {

void WriteReportBenchmarkTrace(const std::filesystem::path& path, uint64_t events,
                               const std::function<void(double)>& progress) {
  using namespace core::store;  // NOLINT
  TraceWriter w(path, "benchmark");
  AdapterId a = w.AddAdapter({"GPU", 1, true, true, PreemptionGranularity::kPixel,
                              PreemptionGranularity::kDispatch});
  ProcessId p = w.AddProcess({1, "bench.exe"});
  EngineId e3d = w.AddEngine({a, EngineType::k3D, 0, "3D"});
  EngineId ecopy = w.AddEngine({a, EngineType::kCopy, 1, "Copy"});
  EngineId ecompute = w.AddEngine({a, EngineType::kCompute, 2, "Compute"});
  QueueId copy = w.AddQueue({ecopy, a, QueueType::kCopy, 0, p, "copy", 0});
  QueueId gfx = w.AddQueue({e3d, a, QueueType::k3D, 0, p, "3d", 1});
  QueueId compute = w.AddQueue({ecompute, a, QueueType::kCompute, 0, p, "compute", 2});
  ThreadId th = w.AddThread({p, 1, ThreadKind::kApplication, "render", 0});
  FenceId upload = w.AddFence({"upload", FenceKind::kNative});
  FenceId frame = w.AddFence({"frame", FenceKind::kNative});
  using namespace core::model::events;  // NOLINT
  // The records each frame repeats per queue, by what they say.
  auto submit = [&](TimeNs ts, QueueId queue, int64_t packet, DurationNs planned) {
    w.Append(PacketSubmitted{.ts_ns = ts,
                             .queue_id = queue,
                             .thread_id = th,
                             .packet_id = packet,
                             .planned_duration_ns = planned});
  };
  auto started = [&](TimeNs ts, QueueId queue, int64_t packet) {
    w.Append(PacketStarted{.ts_ns = ts, .queue_id = queue, .packet_id = packet});
  };
  auto completed = [&](TimeNs ts, QueueId queue, int64_t packet) {
    w.Append(PacketCompleted{.ts_ns = ts, .queue_id = queue, .packet_id = packet});
  };
  auto signal_queued = [&](TimeNs ts, QueueId queue, FenceId fence, uint64_t value, int64_t op) {
    w.Append(FenceSignalQueued{.ts_ns = ts,
                               .queue_id = queue,
                               .thread_id = th,
                               .fence_id = fence,
                               .fence_value = value,
                               .signal_id = op});
  };
  auto signal_executed = [&](TimeNs ts, QueueId queue, FenceId fence, uint64_t value, int64_t op) {
    w.Append(FenceSignalExecuted{.ts_ns = ts,
                                 .queue_id = queue,
                                 .fence_id = fence,
                                 .fence_value = value,
                                 .signal_id = op,
                                 .previous_value = value - 1});
  };
  const uint64_t frames = events / 19 + 1;
  int64_t id = 1;
  for (uint64_t i = 0; i < frames; ++i) {
    const TimeNs t = static_cast<TimeNs>(i) * 1000;
    const uint64_t v = i + 1;
    const int64_t copy_packet = id++, gfx_packet = id++, compute_packet = id++;
    const int64_t copy_signal = id++, gfx_signal = id++, wait = id++, waiter = id++;
    const int64_t log_entry = static_cast<int64_t>(i % 64),
                  log_wraps = static_cast<int64_t>(i / 64);
    submit(t + 0, copy, copy_packet, 295);
    w.Append(FenceWaitQueued{.ts_ns = t + 1,
                             .queue_id = gfx,
                             .thread_id = th,
                             .fence_id = upload,
                             .fence_value = v,
                             .wait_id = wait});
    submit(t + 2, gfx, gfx_packet, 389);
    submit(t + 3, compute, compute_packet, 395);
    signal_queued(t + 4, copy, upload, v, copy_signal);
    started(t + 5, copy, copy_packet);
    started(t + 5, compute, compute_packet);
    signal_queued(t + 6, gfx, frame, v, gfx_signal);
    completed(t + 300, copy, copy_packet);
    signal_executed(t + 301, copy, upload, v, copy_signal);
    w.Append(LogWrite{.ts_ns = t + 302,
                      .queue_id = copy,
                      .fence_id = upload,
                      .fence_value = v,
                      .op_id = copy_signal,
                      .entry_index = log_entry,
                      .wraparound_count = log_wraps,
                      .log_type = 1});
    w.Append(FenceWaitUnblocked{.ts_ns = t + 310,
                                .queue_id = gfx,
                                .fence_id = upload,
                                .fence_value = v,
                                .wait_id = wait,
                                .observed_ns = t + 2,
                                .released_by_signal_id = copy_signal});
    started(t + 311, gfx, gfx_packet);
    w.Append(CpuWaitBegin{.ts_ns = t + 320,
                          .thread_id = th,
                          .fence_id = frame,
                          .fence_value = v,
                          .waiter_id = waiter});
    completed(t + 400, compute, compute_packet);
    completed(t + 700, gfx, gfx_packet);
    signal_executed(t + 701, gfx, frame, v, gfx_signal);
    EventRowId irq = w.Append(Interrupt{.ts_ns = t + 702,
                                        .queue_id = gfx,
                                        .fence_id = frame,
                                        .fence_value = v,
                                        .signal_id = gfx_signal,
                                        .adapter_id = a,
                                        .waiters_released = 1,
                                        .fences_evaluated = 1,
                                        .interrupt_flags = kInterruptOptimized});
    w.Append(CpuWaitReleased{.ts_ns = t + 705,
                             .thread_id = th,
                             .fence_id = frame,
                             .fence_value = v,
                             .waiter_id = waiter,
                             .interrupt_event = irq,
                             .observed_value = v});
    if (progress && i % 4096 == 0) progress(static_cast<double>(i) / frames);
  }
  w.Commit();
  if (progress) progress(1.0);
}

ReportBenchmarkResult RunReportBenchmark(const std::filesystem::path& trace) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  ReportBenchmarkResult r;
  auto t0 = Clock::now();
  core::store::TraceStore store = core::store::LoadTrace(trace);
  auto t1 = Clock::now();
  ReportData data = AnalyseTrace(store, /*full=*/true);
  auto t2 = Clock::now();
  std::string json = ReportJson(data).Dump();
  std::string html = ReportHtml(data);
  std::string md = ReportMarkdown(data);
  auto t3 = Clock::now();
  r.events = store.events.size();
  r.load_seconds = seconds(t0, t1);
  r.analyse_seconds = seconds(t1, t2);
  r.render_seconds = seconds(t2, t3);
  r.html_bytes = html.size();
  r.json_bytes = json.size();
  r.markdown_bytes = md.size();
  // Through the packed cache, as `fencescope report` runs: from the rows writing the cache (a
  // cache left by an earlier run is dropped first), then from the cache.
  cache::DropCache(trace);
  auto through_cache = [&] {
    auto t = Clock::now();
    cache::CachedTrace cached(trace);
    const bool analysed = cached.HasAnalysis(cache::AnalysisKind::kFull);
    auto s = cached.LoadStore(analysed ? cache::EventColumnsNeeded::kKept
                                       : cache::EventColumnsNeeded::kAll);
    ReportData d = cached.Analyse(s, cache::AnalysisKind::kFull);
    auto write = cached.FlushInBackground();
    const size_t rendered = ReportJson(d).Dump().size() + ReportHtml(d).size() +
                            ReportMarkdown(d).size();
    const double elapsed = seconds(t, Clock::now());  // the cache write goes on after the output
    write.get();
    return rendered > 0 ? elapsed : 0.0;
  };
  r.first_cached_seconds = through_cache();
  r.cached_seconds = through_cache();
  return r;
}

}  // namespace core::report
