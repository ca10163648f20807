#include "app/gui/bench/dense_wait_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "app/gui/bench/jitter.h"
#include "core/model/event_types.h"
#include "core/store/trace_writer.h"

namespace app::gui::bench {
namespace {

using namespace core::store;  // NOLINT
namespace ev = core::model::events;

constexpr TimeNs kUs = 1000;
constexpr TimeNs kStepPeriod = 400 * kUs;

}  // namespace

uint64_t WriteDenseWaitWorkload(const std::filesystem::path& path, const DenseWaitWorkload& w) {
  const uint32_t streams = std::max<uint32_t>(w.streams, 2);
  TraceWriter writer(path, "synthetic-dense-waits");
  AdapterId gpu =
      writer.AddAdapter({"Synthetic GPU", 1, true, true, PreemptionGranularity::kDispatch,
                         PreemptionGranularity::kDispatch});
  EngineId engine = writer.AddEngine({gpu, EngineType::kCompute, 0, "Compute"});
  ProcessId process = writer.AddProcess({7000, "train.py"});
  ThreadId host = writer.AddThread({process, 7001, ThreadKind::kApplication, "host", 0});
  StringId kernel = writer.Intern("step kernel");
  std::vector<QueueId> queue(streams);
  std::vector<ContextId> context(streams);
  std::vector<FenceId> fence(streams);
  for (uint32_t q = 0; q < streams; ++q) {
    queue[q] = writer.AddQueue({engine, gpu, QueueType::kCompute, 0, process,
                                fmt::format("stream {}", q + 1), static_cast<int32_t>(q)});
    context[q] = writer.AddContext({process, queue[q], q + 1, fmt::format("stream {}", q + 1)});
    fence[q] = writer.AddFence(
        {fmt::format("event {}", q + 1), FenceKind::kNative, false, gpu, 1, 0, q + 1});
  }

  Jitter jitter{0x2545F4914F6CDD1Dull};
  std::vector<core::model::EventRecord> step;
  std::vector<int64_t> signal_id(streams, 0);  // of the previous step, per stream
  std::vector<int64_t> next_signal_id(streams, 0);
  int64_t next_id = 1;
  uint64_t written = 0;
  for (uint64_t s = 1; s <= w.steps; ++s) {
    step.clear();
    const TimeNs t = static_cast<TimeNs>(s) * kStepPeriod;
    for (uint32_t q = 0; q < streams; ++q) {
      const uint32_t from = (q + streams - 1) % streams;
      TimeNs cursor = t + 6 * kUs;
      if (s > 1) {
        // Released by the neighbour's signal of the previous step, executed before t.
        const int64_t wait = next_id++;
        step.push_back(ev::FenceWaitQueued{.ts_ns = t + 1 * kUs,
                                           .queue_id = queue[q],
                                           .thread_id = host,
                                           .fence_id = fence[from],
                                           .fence_value = s - 1,
                                           .wait_id = wait}
                           .Record());
        step.push_back(ev::FenceWaitUnblocked{.ts_ns = t + 4 * kUs,
                                              .queue_id = queue[q],
                                              .fence_id = fence[from],
                                              .fence_value = s - 1,
                                              .wait_id = wait,
                                              .observed_ns = t + 2 * kUs,
                                              .released_by_signal_id = signal_id[from]}
                           .Record());
      }
      const int64_t packet = next_id++;
      const TimeNs start = cursor + jitter.Next(20 * kUs);
      const TimeNs end = start + 150 * kUs + jitter.Next(150 * kUs);
      step.push_back(ev::PacketSubmitted{.ts_ns = t,
                                         .queue_id = queue[q],
                                         .thread_id = host,
                                         .packet_id = packet,
                                         .planned_duration_ns = end - start,
                                         .context_id = context[q],
                                         .name_sid = kernel}
                         .Record());
      step.push_back(
          ev::PacketStarted{.ts_ns = start, .queue_id = queue[q], .packet_id = packet}.Record());
      step.push_back(
          ev::PacketCompleted{.ts_ns = end, .queue_id = queue[q], .packet_id = packet}.Record());
      const int64_t signal = next_id++;
      step.push_back(ev::FenceSignalQueued{.ts_ns = t + 2 * kUs,
                                           .queue_id = queue[q],
                                           .thread_id = host,
                                           .fence_id = fence[q],
                                           .fence_value = s,
                                           .signal_id = signal}
                         .Record());
      step.push_back(ev::FenceSignalExecuted{.ts_ns = end + 1 * kUs,
                                             .queue_id = queue[q],
                                             .fence_id = fence[q],
                                             .fence_value = s,
                                             .signal_id = signal,
                                             .previous_value = s - 1}
                         .Record());
      next_signal_id[q] = signal;
    }
    signal_id = next_signal_id;
    std::stable_sort(step.begin(), step.end(),
                     [](const auto& a, const auto& b) { return a.ts < b.ts; });
    for (const auto& record : step) writer.Append(record);
    written += step.size();
  }
  writer.SetMeta("scenario", "synthetic-dense-waits");
  writer.Commit();
  return written;
}

}  // namespace app::gui::bench
