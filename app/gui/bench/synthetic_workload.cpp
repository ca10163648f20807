#include "app/gui/bench/synthetic_workload.h"

#include <algorithm>
#include <vector>

#include "app/gui/bench/jitter.h"
#include "core/store/trace_writer.h"

namespace app::gui::bench {
namespace {

using namespace core::store;  // NOLINT

constexpr TimeNs kFramePeriod = 1'000'000;
constexpr TimeNs kUs = 1000;

}  // namespace

uint64_t WriteSyntheticWorkload(const std::filesystem::path& path, uint64_t events) {
  TraceWriter w(path, "synthetic-bench");
  AdapterId gpu = w.AddAdapter({"Synthetic GPU", 1, true, true, PreemptionGranularity::kPixel,
                                PreemptionGranularity::kDispatch});
  EngineId e3d = w.AddEngine({gpu, EngineType::k3D, 0, "3D"});
  EngineId ecompute = w.AddEngine({gpu, EngineType::kCompute, 1, "Compute"});
  EngineId ecopy = w.AddEngine({gpu, EngineType::kCopy, 2, "Copy"});
  ProcessId app = w.AddProcess({4242, "game.exe"});
  ProcessId runtime = w.AddProcess({4242, "D3D12 runtime"});
  QueueId q3d = w.AddQueue({e3d, gpu, QueueType::k3D, 0, app, "3D queue", 0});
  QueueId qcompute = w.AddQueue({ecompute, gpu, QueueType::kCompute, 0, app, "Compute queue", 1});
  QueueId qcopy = w.AddQueue({ecopy, gpu, QueueType::kCopy, 0, app, "Copy queue", 2});
  ContextId c3d = w.AddContext({app, q3d, 1, "3D context"});
  ContextId ccompute = w.AddContext({app, qcompute, 2, "compute context"});
  ContextId ccopy = w.AddContext({app, qcopy, 3, "copy context"});
  ThreadId render = w.AddThread({app, 100, ThreadKind::kApplication, "render", 0});
  ThreadId bg[2] = {w.AddThread({runtime, 200, ThreadKind::kRuntimeBackground, "PGO worker 0", 0}),
                    w.AddThread({runtime, 201, ThreadKind::kRuntimeBackground, "PGO worker 1", 1})};
  FenceId upload = w.AddFence({"Upload", FenceKind::kNative, false, gpu, 1, 0, 1});
  FenceId frame_fence = w.AddFence({"Frame", FenceKind::kNative, false, gpu, 1, 0, 2});
  PsoId pso = w.AddPso({"lighting PSO", 2});
  StringId names[5] = {w.Intern("upload"), w.Intern("gbuffer"), w.Intern("lighting"),
                       w.Intern("post"), w.Intern("async compute")};

  Jitter jitter;
  std::vector<EventRecord> frame;
  int64_t next_id = 1;
  uint64_t written = 0;
  TimeNs prev_frame_signal = -1;
  int64_t prev_frame_signal_id = 0;
  auto packet = [&](QueueId q, ContextId ctx, StringId name, TimeNs submit, TimeNs start,
                    TimeNs end) {
    int64_t id = next_id++;
    frame.push_back({submit, EventKind::PacketSubmitted, q, render, 0,
                     static_cast<uint64_t>(end - start), id, ctx, name, id, 0});
    frame.push_back({start, EventKind::PacketStarted, q, 0, 0, 0, id});
    frame.push_back({end, EventKind::PacketCompleted, q, 0, 0, 0, id});
  };
  for (int64_t f = 1; written < events; ++f) {
    frame.clear();
    const TimeNs t = f * kFramePeriod;
    // Copy queue: upload, then signal Upload = f.
    TimeNs copy_start = t + 20 * kUs + jitter.Next(10 * kUs);
    TimeNs copy_end = copy_start + 120 * kUs + jitter.Next(60 * kUs);
    packet(qcopy, ccopy, names[0], t, copy_start, copy_end);
    int64_t upload_signal = next_id++;
    frame.push_back({t + 2 * kUs, EventKind::FenceSignalQueued, qcopy, render, upload,
                     static_cast<uint64_t>(f), upload_signal});
    frame.push_back({copy_end + 1 * kUs, EventKind::FenceSignalExecuted, qcopy, 0, upload,
                     static_cast<uint64_t>(f), upload_signal, f - 1});
    // 3D queue waits for the upload, then three passes, then signals Frame = f.
    int64_t wait_id = next_id++;
    TimeNs unblocked = copy_end + 3 * kUs;
    frame.push_back({t + 4 * kUs, EventKind::FenceWaitQueued, q3d, render, upload,
                     static_cast<uint64_t>(f), wait_id});
    frame.push_back({unblocked, EventKind::FenceWaitUnblocked, q3d, 0, upload,
                     static_cast<uint64_t>(f), wait_id, t + 30 * kUs, upload_signal, 0, 0});
    TimeNs cursor = unblocked + 2 * kUs;
    for (int pass = 1; pass <= 3; ++pass) {
      TimeNs length = 90 * kUs + jitter.Next(80 * kUs);
      packet(q3d, c3d, names[pass], t + 6 * kUs, cursor, cursor + length);
      cursor += length + 1 * kUs + jitter.Next(5 * kUs);
    }
    int64_t frame_signal = next_id++;
    TimeNs frame_signal_at = cursor + 1 * kUs;
    frame.push_back({t + 8 * kUs, EventKind::FenceSignalQueued, q3d, render, frame_fence,
                     static_cast<uint64_t>(f), frame_signal});
    frame.push_back({frame_signal_at, EventKind::FenceSignalExecuted, q3d, 0, frame_fence,
                     static_cast<uint64_t>(f), frame_signal, f - 1});
    // Async compute.
    TimeNs compute_start = t + 60 * kUs + jitter.Next(100 * kUs);
    packet(qcompute, ccompute, names[4], t + 7 * kUs, compute_start,
           compute_start + 200 * kUs + jitter.Next(150 * kUs));
    // The render thread waits on the CPU for the previous frame; that signal's interrupt
    // (written with the previous frame) releases it.
    if (prev_frame_signal >= 0) {
      int64_t waiter = next_id++;
      frame.push_back({t + 10 * kUs, EventKind::CpuWaitBegin, 0, render, frame_fence,
                       static_cast<uint64_t>(f - 1), waiter});
      TimeNs release = std::max(prev_frame_signal + 4 * kUs, t + 11 * kUs);
      frame.push_back({release, EventKind::CpuWaitReleased, 0, render, frame_fence,
                       static_cast<uint64_t>(f - 1), waiter, prev_frame_signal_id, f - 1});
    }
    frame.push_back({frame_signal_at + 2 * kUs, EventKind::Interrupt, q3d, 0, frame_fence,
                     static_cast<uint64_t>(f), frame_signal, gpu, 1, 1,
                     core::model::kInterruptOptimized});
    if (f % 16 == 0) {
      frame.push_back({copy_end + 5 * kUs, EventKind::Interrupt, 0, 0, upload,
                       static_cast<uint64_t>(f), upload_signal, gpu, 0, 2,
                       core::model::kInterruptScanAll});
    }
    if (f % 8 == 0) {
      int64_t task = next_id++;
      ThreadId on = bg[(f / 8) % 2];
      frame.push_back({t + 12 * kUs, EventKind::TaskQueued, 0, render, 0, 0, task, pso, f, 0});
      frame.push_back({t + 40 * kUs, EventKind::TaskStarted, 0, on, 0, 0, task});
      frame.push_back({t + 40 * kUs + 2 * kFramePeriod + jitter.Next(kFramePeriod),
                       EventKind::TaskFinished, 0, on, 0, 0, task});
    }
    if (f % 64 == 0) {
      int64_t call = next_id++;
      frame.push_back({t + 15 * kUs, EventKind::ModeChanged, 0, render, 0, 0, call, 0, 1, f,
                       (f / 64) % 4 != 0 ? 1u : 0u});
      frame.push_back({t + 600 * kUs, EventKind::CommitCompleted, 0, 0, 0, 0, f, 1, call});
    }
    std::stable_sort(frame.begin(), frame.end(),
                     [](const EventRecord& a, const EventRecord& b) { return a.ts < b.ts; });
    for (const auto& record : frame) {
      EventRowId row = w.Append(record);
      if (record.kind == EventKind::Interrupt && record.op == frame_signal) {
        prev_frame_signal = record.ts;
        prev_frame_signal_id = row;
      }
    }
    written += frame.size();
  }
  w.SetMeta("scenario", "synthetic-bench");
  w.Commit();
  return written;
}

}  // namespace app::gui::bench
