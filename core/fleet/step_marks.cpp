#include "core/fleet/step_marks.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include "core/model/event_types.h"

namespace core::fleet {

using core::analysis::Reconstruction;
using core::model::EventKind;
using core::model::TimeNs;

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr uint32_t kMarkerVsync = 1;    // marker_type (schemas/event_kinds.sql)
constexpr uint32_t kMarkerPresent = 2;

// The completions of the packets flagged present (packet_flags 16).
std::vector<TimeNs> PresentPacketEnds(const Reconstruction& r) {
  std::vector<TimeNs> ends;
  for (size_t i = 0; i < r.packets.size(); ++i) {
    const core::analysis::Packet p = r.packets[i];
    if ((p.flags & core::model::kPacketPresent) && p.end != core::analysis::kUnknownTime) {
      ends.push_back(p.end);
    }
  }
  return ends;
}

// The completed packets with a known submission.
std::vector<LaunchedWork> LaunchedWorkOf(const Reconstruction& r) {
  std::vector<LaunchedWork> work;
  work.reserve(r.packets.size());
  for (size_t i = 0; i < r.packets.size(); ++i) {
    const TimeNs submit = r.packets.Get<&core::analysis::Packet::submit>(i);
    const TimeNs end = r.packets.Get<&core::analysis::Packet::end>(i);
    if (submit != core::analysis::kUnknownTime && end != core::analysis::kUnknownTime) {
      work.push_back({submit, end});
    }
  }
  return work;
}

}  // namespace

int64_t StepNumberOf(std::string_view name) {
  int64_t n = -1;
  if (name.starts_with(kStepPrefix)) {
    const char* first = name.data() + kStepPrefix.size();
    auto [p, ec] = std::from_chars(first, name.data() + name.size(), n);
    if (ec != std::errc() || p != name.data() + name.size()) n = -1;
  }
  return n;
}

std::vector<StepMark> FindSteps(const core::store::TraceStore& store) {
  namespace events = core::model::events;
  std::map<int64_t, StepMark> by_id;
  std::vector<int8_t> is_step(store.strings.size(), -1);  // per StringId: -1 unknown
  std::vector<int64_t> step_of(store.strings.size(), 0);
  const auto& ev = store.events;
  // The slices a block of kinds at a time, each slice's name alone first: most slices of a
  // PyTorch trace are not steps, and decoding every field of each was most of this scan.
  ev.kind.ForEachEqual(EventKind::CpuSlice, [&](size_t e) {
    const core::model::StringId sid = events::CpuSlice::name_sid_at(ev, e);
    if (sid >= is_step.size()) return;
    if (is_step[sid] < 0) {
      const int64_t n = StepNumberOf(store.String(sid));
      is_step[sid] = n >= 0 ? 1 : 0;
      step_of[sid] = n;
    }
    if (!is_step[sid]) return;
    const auto slice = events::CpuSlice::At(ev, e);
    by_id.try_emplace(step_of[sid], StepMark{step_of[sid], slice.ts_ns,
                                             slice.ts_ns + slice.duration_ns});
  });
  std::vector<StepMark> steps;
  for (const auto& [id, mark] : by_id) steps.push_back(mark);
  std::sort(steps.begin(), steps.end(),
            [](const StepMark& a, const StepMark& b) { return std::tie(a.start, a.id) <
                                                              std::tie(b.start, b.id); });
  return steps;
}

// The frames of a graphics trace, for a trace without ProfilerStep slices. A frame ends at a
// present: frame N is [present N-1, present N] with present 0 the trace's start, so a trace
// with P presents has P frames, numbered 1..P (the simulator's frame i when each frame presents
// once). Frame N of every trace is matched across the fleet as step N. The presents are, the
// first of these the trace has:
//   present_marker  marker records of marker_type present (2): the Present / vkQueuePresentKHR
//                   call (ETW captures, Vulkan captures)
//   present_packet  the completion of the packets flagged present (packet_flags 16): the flip,
//                   where the timeline draws a present packet's bar (simulated traces)
//   vsync_marker    marker records of marker_type vsync (1), the display's refresh, when nothing
//                   in the trace says present
// Presents at the same instant count once (a frame has a length).
std::vector<StepMark> FindFrames(const core::store::TraceStore& store, const Reconstruction& r,
                                 std::string* source) {
  return FindFrames(store, r.start_ns, PresentPacketEnds(r), source);
}

std::vector<StepMark> FindFrames(const core::store::TraceStore& store, TimeNs start_ns,
                                 std::vector<TimeNs> packets, std::string* source) {
  namespace events = core::model::events;
  std::vector<TimeNs> presents, vsyncs;
  const auto& ev = store.events;
  ev.kind.ForEachEqual(EventKind::Marker, [&](size_t e) {
    const uint32_t type = events::Marker::At(ev, e).marker_type;
    if (type == kMarkerPresent) presents.push_back(ev.ts[e]);
    if (type == kMarkerVsync) vsyncs.push_back(ev.ts[e]);
  });
  std::vector<TimeNs>* ends = &presents;
  *source = "present_marker";
  if (ends->empty()) ends = &packets, *source = "present_packet";
  if (ends->empty()) ends = &vsyncs, *source = "vsync_marker";
  if (ends->empty()) *source = "none";
  std::sort(ends->begin(), ends->end());
  ends->erase(std::unique(ends->begin(), ends->end()), ends->end());
  std::vector<StepMark> frames;
  TimeNs start = std::min(start_ns, ends->empty() ? start_ns : ends->front());
  for (size_t n = 0; n < ends->size(); ++n) {
    frames.push_back({static_cast<int64_t>(n + 1), start, (*ends)[n]});
    start = (*ends)[n];
  }
  return frames;
}

void ExtendStepsToTheirWork(std::vector<StepMark>& steps, const std::vector<LaunchedWork>& work) {
  if (steps.empty()) return;
  std::vector<TimeNs> done(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) done[i] = steps[i].end;
  for (const LaunchedWork& w : work) {
    // The last step starting at or before the submission, if its slice holds it.
    auto after = std::upper_bound(steps.begin(), steps.end(), w.submitted,
                                  [](TimeNs t, const StepMark& s) { return t < s.start; });
    if (after == steps.begin()) continue;
    const size_t i = static_cast<size_t>(after - steps.begin()) - 1;
    if (w.submitted < steps[i].end) done[i] = std::max(done[i], w.end);
  }
  TimeNs previous_done = steps.front().start;
  for (size_t i = 0; i < steps.size(); ++i) {
    steps[i].start = std::max(steps[i].start, previous_done);
    steps[i].end = std::max(steps[i].start, done[i]);
    previous_done = steps[i].end;
  }
}

std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store, const Reconstruction& r,
                                    std::string* steps_from) {
  std::vector<StepMark> marks = FindSteps(store);
  *steps_from = "profiler_step";
  if (marks.empty()) return FindFrames(store, r, steps_from);
  ExtendStepsToTheirWork(marks, LaunchedWorkOf(r));
  return marks;
}

std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store, TimeNs start_ns,
                                    std::vector<TimeNs> present_packet_ends,
                                    const std::vector<LaunchedWork>& work,
                                    std::string* steps_from) {
  std::vector<StepMark> marks = FindSteps(store);
  *steps_from = "profiler_step";
  if (marks.empty()) {
    return FindFrames(store, start_ns, std::move(present_packet_ends), steps_from);
  }
  ExtendStepsToTheirWork(marks, work);
  return marks;
}

}  // namespace core::fleet
