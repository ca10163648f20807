#include "core/report/report_benchmark.h"

#include <chrono>

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
  const uint64_t frames = events / 19 + 1;
  int64_t id = 1;
  for (uint64_t i = 0; i < frames; ++i) {
    const TimeNs t = static_cast<TimeNs>(i) * 1000;
    const uint64_t v = i + 1;
    const int64_t copy_packet = id++, gfx_packet = id++, compute_packet = id++;
    const int64_t copy_signal = id++, gfx_signal = id++, wait = id++, waiter = id++;
    w.Append({t + 0, EventKind::PacketSubmitted, copy, th, 0, 295, copy_packet});
    w.Append({t + 1, EventKind::FenceWaitQueued, gfx, th, upload, v, wait});
    w.Append({t + 2, EventKind::PacketSubmitted, gfx, th, 0, 389, gfx_packet});
    w.Append({t + 3, EventKind::PacketSubmitted, compute, th, 0, 395, compute_packet});
    w.Append({t + 4, EventKind::FenceSignalQueued, copy, th, upload, v, copy_signal});
    w.Append({t + 5, EventKind::PacketStarted, copy, 0, 0, 0, copy_packet});
    w.Append({t + 5, EventKind::PacketStarted, compute, 0, 0, 0, compute_packet});
    w.Append({t + 6, EventKind::FenceSignalQueued, gfx, th, frame, v, gfx_signal});
    w.Append({t + 300, EventKind::PacketCompleted, copy, 0, 0, 0, copy_packet});
    w.Append({t + 301, EventKind::FenceSignalExecuted, copy, 0, upload, v, copy_signal,
              static_cast<int64_t>(v - 1)});
    w.Append({t + 302, EventKind::LogWrite, copy, 0, upload, v, copy_signal,
              static_cast<int64_t>(i % 64), static_cast<int64_t>(i / 64), 0, 1});
    w.Append({t + 310, EventKind::FenceWaitUnblocked, gfx, 0, upload, v, wait, t + 2, copy_signal});
    w.Append({t + 311, EventKind::PacketStarted, gfx, 0, 0, 0, gfx_packet});
    w.Append({t + 320, EventKind::CpuWaitBegin, 0, th, frame, v, waiter});
    w.Append({t + 400, EventKind::PacketCompleted, compute, 0, 0, 0, compute_packet});
    w.Append({t + 700, EventKind::PacketCompleted, gfx, 0, 0, 0, gfx_packet});
    w.Append({t + 701, EventKind::FenceSignalExecuted, gfx, 0, frame, v, gfx_signal,
              static_cast<int64_t>(v - 1)});
    EventRowId irq = w.Append({t + 702, EventKind::Interrupt, gfx, 0, frame, v, gfx_signal, a, 1,
                               1, kInterruptOptimized});
    w.Append({t + 705, EventKind::CpuWaitReleased, 0, th, frame, v, waiter, irq,
              static_cast<int64_t>(v)});
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
  return r;
}

}  // namespace core::report
