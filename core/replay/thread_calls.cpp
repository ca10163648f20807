#include "core/replay/thread_calls.h"

#include <algorithm>

#include "core/model/event_types.h"
#include "core/replay/string_flags.h"

namespace core::replay {

using analysis::kNoIndex;
using analysis::kUnknownTime;
namespace events = core::model::events;

bool IsStepMarker(std::string_view name) { return name.rfind("ProfilerStep#", 0) == 0; }

ThreadCalls CollectThreadCalls(const core::store::TraceStore& store,
                               const analysis::Reconstruction& recon) {
  ThreadCalls out;
  out.by_thread.resize(store.threads.size() + 1);
  out.by_queue.resize(store.queues.size() + 1);
  // A record with a thread of the trace goes to it; one without, to its queue's stand-in.
  auto place = [&](core::model::ThreadId thread, core::model::QueueId queue, ThreadCall call) {
    if (thread != 0 && thread < out.by_thread.size()) {
      out.by_thread[thread].push_back(call);
    } else if (queue != 0 && queue < out.by_queue.size()) {
      out.by_queue[queue].push_back(call);
    }
  };
  for (uint32_t i = 0; i < recon.packets.size(); ++i) {
    const analysis::Packet p = recon.packets[i];
    const TimeNs at = p.submit != kUnknownTime ? p.submit : p.start;
    if (at == kUnknownTime) continue;
    place(p.thread, p.queue, {at, 1, p.submit_event, StepOrigin::kPacket, i});
  }
  for (uint32_t i = 0; i < recon.signals.size(); ++i) {
    const analysis::SignalBox s = recon.signals[i];
    if (s.cpu) {
      if (s.executed != kUnknownTime) {
        place(s.thread, 0, {s.executed, 1, s.executed_event, StepOrigin::kCpuSignal, i});
      }
    } else if (s.queued != kUnknownTime) {
      place(s.thread, s.queue, {s.queued, 1, s.queued_event, StepOrigin::kGpuSignal, i});
    }
  }
  for (uint32_t i = 0; i < recon.waits.size(); ++i) {
    const analysis::WaitBox w = recon.waits[i];
    if (w.queued != kUnknownTime) {
      place(w.thread, w.queue, {w.queued, 1, w.queued_event, StepOrigin::kGpuWait, i});
    }
  }
  // CPU waits: one call per wait group (WaitForMultipleObjects), made by its first member.
  for (uint32_t i = 0; i < recon.cpu_waits.size(); ++i) {
    const analysis::CpuWait w = recon.cpu_waits[i];
    if (w.begin == kUnknownTime) continue;
    if (w.group != 0 && i > 0) {
      const analysis::CpuWait before = recon.cpu_waits[i - 1];
      if (before.group == w.group && before.thread == w.thread && before.begin == w.begin) continue;
    }
    place(w.thread, 0, {w.begin, 1, w.begin_event, StepOrigin::kCpuWait, i});
  }
  // Step markers: their begin and end, as calls of their thread.
  const std::vector<bool> step_name = FlagStrings(store, IsStepMarker);
  store.events.kind.ForEachEqual(core::model::EventKind::CpuSlice, [&](size_t e) {
    const auto name = events::CpuSlice::name_sid_at(store.events, e);
    if (name >= step_name.size() || !step_name[name]) return;
    const auto slice = events::CpuSlice::At(store.events, e);
    const uint32_t index = static_cast<uint32_t>(e);
    place(slice.thread_id, 0, {slice.ts_ns, 1, index, StepOrigin::kSliceBegin, index});
    place(slice.thread_id, 0,
          {slice.ts_ns + slice.duration_ns, 0, index, StepOrigin::kSliceEnd, index});
  });
  // Markers: a Present call's on its thread, a vsync (no thread) on the display's stand-in.
  store.events.kind.ForEachEqual(core::model::EventKind::Marker, [&](size_t e) {
    const auto marker = events::Marker::At(store.events, e);
    const uint32_t index = static_cast<uint32_t>(e);
    const ThreadCall call{marker.ts_ns, 1, index, StepOrigin::kMarker, index};
    if (marker.thread_id != 0 && marker.thread_id < out.by_thread.size()) {
      out.by_thread[marker.thread_id].push_back(call);
    } else {
      out.display.push_back(call);
    }
  });
  std::sort(out.display.begin(), out.display.end());
  for (auto& calls : out.by_thread) std::sort(calls.begin(), calls.end());
  for (auto& calls : out.by_queue) std::sort(calls.begin(), calls.end());
  return out;
}

}  // namespace core::replay
