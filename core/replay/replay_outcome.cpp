#include "core/replay/replay_outcome.h"

#include <unordered_map>
#include <vector>

#include "core/fleet/step_marks.h"
#include "core/model/event_types.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/replay_writer.h"
#include "core/replay/replayed_trace.h"
#include "core/store/forwarding_sink.h"
#include "core/store/memory_trace.h"

namespace core::replay {
namespace {

using core::model::EventKind;
using core::model::EventRecord;
using core::model::EventRowId;
using core::model::StringId;
namespace events = core::model::events;

// The kept trace, a base so that it is built before the ForwardingSink that hands on to it.
struct KeptTrace {
  core::store::MemoryTrace m_kept{"replay"};
};

// The simulator's output reduced to what the measures read. Topology, strings and meta go to a
// MemoryTrace with the step slices (ProfilerStep#N) and markers, so that FindStepMarks reads
// them as it reads a whole replay; each packet's start, end and flags are kept by id.
class OutcomeSink final : private KeptTrace, public core::store::ForwardingSink {
 public:
  explicit OutcomeSink(const TracePacketSlots& slots)
      : ForwardingSink(m_kept), m_slots(slots), m_by_slot(slots.size()) {}

  StringId Intern(std::string_view text) override {
    const StringId id = m_kept.Intern(text);
    // The simulator interns a name at each use: a name is read for a step number once, when it
    // is new (ids are handed out in order).
    if (id >= m_step_name.size()) {
      m_step_name.resize(id + 1, false);
      m_step_name[id] = core::fleet::StepNumberOf(text) >= 0;
    }
    return id;
  }
  using TraceSink::Append;
  EventRowId Append(const EventRecord& e) override {
    ++m_rows;
    switch (e.kind) {
      case EventKind::PacketSubmitted: {
        const auto s = events::PacketSubmitted::Of(e);
        Times& t = At(s.packet_id);
        if (t.submitted++) m_exact = false;
        t.flags = s.packet_flags;
        t.submit = s.ts_ns;
        break;
      }
      case EventKind::PacketStarted: {
        const auto s = events::PacketStarted::Of(e);
        Times& t = At(s.packet_id);
        if (t.start != analysis::kUnknownTime) m_exact = false;
        t.start = s.ts_ns;
        break;
      }
      case EventKind::PacketCompleted: {
        const auto c = events::PacketCompleted::Of(e);
        Times& t = At(c.packet_id);
        if (t.end != analysis::kUnknownTime) m_exact = false;
        t.end = c.ts_ns;
        break;
      }
      case EventKind::CpuSlice: {
        const StringId name = events::CpuSlice::Of(e).name_sid;
        if (name < m_step_name.size() && m_step_name[name]) m_kept.Append(e);
        break;
      }
      case EventKind::Marker:
        m_kept.Append(e);
        break;
      default:
        break;
    }
    return m_rows;
  }
  // MemoryTrace keeps no event arguments either.
  void AddEventArg(EventRowId, std::string_view, int64_t) override {}
  uint64_t events_written() const override { return m_rows; }

  bool exact() const { return m_exact; }

  ReplayOutcome Measure(const analysis::Reconstruction& trace_recon) {
    return ReplayOutcome{SpanOfTrace(trace_recon), StepLengths(TakeStepMarks())};
  }

  // MeasureFidelity's figures, from the same times and step marks.
  MeasuredReplay MeasureWithFidelity(const core::store::TraceStore& trace,
                                     const analysis::Reconstruction& trace_recon,
                                     const DerivedProgram& program) {
    MeasuredReplay out;
    out.outcome.span_of_trace_work = SpanOfTrace(trace_recon);
    const std::vector<core::fleet::StepMark> marks = TakeStepMarks();
    out.outcome.steps = StepLengths(marks);
    auto replayed = [this](int64_t packet_id) {
      const uint32_t slot = m_slots.Find(packet_id);
      if (slot == TracePacketSlots::kNone) return ReplayedTimes{};
      return ReplayedTimes{m_by_slot[slot].start, m_by_slot[slot].end};
    };
    out.fidelity = MeasureFidelity(trace, trace_recon, replayed, marks, program);
    return out;
  }

 private:
  DurationNs SpanOfTrace(const analysis::Reconstruction& trace_recon) const {
    std::vector<TimeNs> ends(m_by_slot.size(), analysis::kUnknownTime);
    for (size_t slot = 0; slot < m_by_slot.size(); ++slot) {
      const Times& t = m_by_slot[slot];
      if (t.start != analysis::kUnknownTime && t.end != analysis::kUnknownTime) ends[slot] = t.end;
    }
    return SpanOfTraceWork(trace_recon, m_slots, ends);
  }
  // The replay's step marks, as FindStepMarks finds them in a whole replay; once, for the kept
  // trace is handed over.
  std::vector<core::fleet::StepMark> TakeStepMarks() {
    std::vector<TimeNs> present_ends;
    std::vector<core::fleet::LaunchedWork> work;
    work.reserve(m_by_slot.size());
    auto note = [&present_ends, &work](const Times& t) {
      if (t.end == analysis::kUnknownTime) return;
      if (t.flags & core::model::kPacketPresent) present_ends.push_back(t.end);
      if (t.submitted) work.push_back({t.submit, t.end});
    };
    for (const Times& t : m_by_slot) note(t);
    for (const auto& [id, t] : m_not_in_trace) note(t);
    // FindStepMarks sorts the present ends itself.
    const core::store::TraceStore kept = m_kept.TakeStore("(replay outcome)");
    std::string from;
    return core::fleet::FindStepMarks(kept, kept.start_ns(), std::move(present_ends), work, &from);
  }

  struct Times {
    TimeNs submit = analysis::kUnknownTime;
    TimeNs start = analysis::kUnknownTime;
    TimeNs end = analysis::kUnknownTime;
    uint32_t flags = 0;
    uint32_t submitted = 0;
  };
  Times& At(int64_t packet_id) {
    if (packet_id == 0) m_exact = false;
    const uint32_t slot = m_slots.Find(packet_id);
    return slot != TracePacketSlots::kNone ? m_by_slot[slot] : m_not_in_trace[packet_id];
  }

  std::vector<bool> m_step_name;  // per StringId: a ProfilerStep#N name
  const TracePacketSlots& m_slots;
  std::vector<Times> m_by_slot;                       // the trace's packet ids
  std::unordered_map<int64_t, Times> m_not_in_trace;  // ids the trace has not
  uint64_t m_rows = 0;
  bool m_exact = true;
};

}  // namespace

std::optional<ReplayOutcome> MeasureReplay(const core::store::TraceStore& trace,
                                           const analysis::Reconstruction& trace_recon,
                                           const DerivedProgram& program,
                                           const std::string& edits) {
  return MeasureReplay(trace, trace_recon, TracePacketSlots(trace_recon), program, edits);
}

std::optional<ReplayOutcome> MeasureReplay(const core::store::TraceStore& trace,
                                           const analysis::Reconstruction& trace_recon,
                                           const TracePacketSlots& slots,
                                           const DerivedProgram& program, const std::string& edits,
                                           const core::sim::StepDurations* step_durations) {
  OutcomeSink sink(slots);
  ReplayRun run;
  run.edits = edits;
  run.step_durations = step_durations;
  WriteReplay(trace, program, sink, run);
  if (!sink.exact()) return std::nullopt;
  return sink.Measure(trace_recon);
}

std::optional<MeasuredReplay> MeasureUneditedReplay(const core::store::TraceStore& trace,
                                                    const analysis::Reconstruction& trace_recon,
                                                    const TracePacketSlots& slots,
                                                    const DerivedProgram& program,
                                                    const std::function<void(double)>& progress) {
  OutcomeSink sink(slots);
  ReplayRun run;
  run.progress = progress;
  WriteReplay(trace, program, sink, run);
  if (!sink.exact()) return std::nullopt;
  return sink.MeasureWithFidelity(trace, trace_recon, program);
}

}  // namespace core::replay
