#include "core/report/findings.h"

#include <algorithm>

#include <fmt/format.h>

namespace core::report {

using namespace core::analysis;  // NOLINT

namespace {

std::string Waiter(const core::store::TraceStore& store, bool cpu, QueueId queue, ThreadId thread) {
  return cpu ? fmt::format("CPU wait on {}",
                           core::model::ThreadTrackName(ThreadName(store, thread)))
             : fmt::format("GPU wait on queue {}", QueueName(store, queue));
}

std::string WhyNeverUnblocked(const core::store::TraceStore& store, const PendingWait& p) {
  const BlockingWait& b = p.blocker;
  switch (p.reason) {
    case StuckReason::kSignalBlocked:
      return fmt::format(
          "a signal reaching it is queued on {} but never executes: {} is stuck at its wait for "
          "{} >= {} ahead of that signal",
          QueueName(store, p.signal_queued_on), QueueName(store, p.signal_queued_on),
          FenceName(store, b.fence), b.value);
    case StuckReason::kBehindStuckWait:
      return fmt::format("it is queued behind the wait of {} for {} >= {}, which never passes",
                         QueueName(store, b.queue), FenceName(store, b.fence), b.value);
    case StuckReason::kLostInTdr:
      return p.signal_queued_on != 0
                 ? fmt::format(
                       "the signal reaching it was queued on {}, whose work was lost in "
                       "a TDR",
                       QueueName(store, p.signal_queued_on))
                 : std::string("its queue's work was lost in a TDR");
    case StuckReason::kNeverSignalled:
    case StuckReason::kNone:
      break;
  }
  return "no signal reaching that value was ever queued (never signalled)";
}

}  // namespace

std::string OpenWaitMessage(const core::store::TraceStore& store, const PendingWait& p) {
  const std::string who = Waiter(store, p.cpu, p.queue, p.thread);
  const std::string fence = FenceName(store, p.fence);
  switch (p.category) {
    case OpenWaitCategory::kStuckAfterRewind:
      // seed 001: a rewound fence compares waits against its new, lower value.
      return fmt::format(
          "{} for {} >= {} stuck after a rewind: {} reached {} at {} ns, then was rewound to {} "
          "at {} ns by {}, and no signal raises it again ({} at the end)",
          who, fence, p.value, fence, p.reached_value, p.reached_at, p.rewound_to, p.rewound_at,
          p.rewound_by_queue != 0 ? QueueName(store, p.rewound_by_queue) : "a CPU signal",
          p.value_at_end);
    case OpenWaitCategory::kSignalNotInCapture: {
      const ReachEvidence& e = p.evidence;
      std::string evidence =
          e.later_value != 0
              ? fmt::format("{} waited for {} >= {}, then began a wait for {} >= {} at {} ns",
                            core::model::ThreadTrackName(ThreadName(store, e.thread)), fence,
                            e.value, fence, e.later_value, e.at)
              : fmt::format("a {} for {} >= {} was released at {} ns",
                            Waiter(store, e.cpu, e.queue, e.thread), fence, e.value, e.at);
      std::string known = p.fence_written
                              ? fmt::format("{} was {} at the end by the signals in the trace",
                                            fence, p.value_at_end)
                              : fmt::format("no signal of {} is in the trace", fence);
      return fmt::format(
          "{} for {} >= {}: signal not in the capture ({}, but {}, so the value was reached)",
          who, fence, p.value, known, evidence);
    }
    default:
      break;
  }
  std::string at_end = p.fence_written
                           ? fmt::format("{} was {} at the end", fence, p.value_at_end)
                           : fmt::format("no signal of {} is in the trace ({} at the end)", fence,
                                         p.value_at_end);
  return fmt::format("{} for {} >= {} never unblocked: {}; {}", who, fence, p.value,
                     WhyNeverUnblocked(store, p), at_end);
}

std::vector<Finding> CollectFindings(const ReportData& d) {
  std::vector<Finding> out;
  const TimeNs end = d.recon.end_ns;
  auto add_waits = [&](const std::vector<PendingWait>& waits, const char* kind) {
    for (const PendingWait& p : waits) {
      TimeNs since = p.since != kUnknownTime ? p.since : end;
      out.push_back({kind, since, end, OpenWaitMessage(*d.store, p)});
    }
  };
  add_waits(d.waits.never_unblocked, "never_unblocked");
  add_waits(d.waits.stuck_after_rewind, "stuck_after_rewind");
  add_waits(d.waits.signal_not_in_capture, "signal_not_in_capture");
  for (const WaitCycle& c : d.waits.cycles) {
    std::string text = "wait cycle (deadlock): ";
    TimeNs first = end;
    for (size_t i = 0; i < c.steps.size(); ++i) {
      const CycleStep& s = c.steps[i];
      if (i) text += "; ";
      text += fmt::format("{} waits {} >= {}, signalled only by {}", d.QueueName(s.queue),
                          d.FenceName(s.fence), s.value, d.QueueName(s.signaller));
      for (const PendingWait& p : d.waits.never_unblocked) {
        if (!p.cpu && p.wait_id == s.wait_id && p.since != kUnknownTime) first = std::min(first, p.since);
      }
    }
    out.push_back({"wait_cycle", first, end, text});
  }
  for (const MissingWindow& w : d.overruns.windows) {
    out.push_back({"overrun", w.start, w.end,
                   fmt::format("{} log of {} overran: {} entries lost, data missing for {} ns",
                               w.log == LogType::kWait ? "wait" : "signal", d.QueueName(w.queue),
                               w.entries_lost, w.end - w.start)});
  }
  for (const ResourceHazard& h : d.hazards.list) {
    const auto* res = d.store->resources.size() >= h.resource && h.resource > 0
                          ? &d.store->resources[h.resource - 1]
                          : nullptr;
    out.push_back({"hazard", h.first_ts, h.second_ts,
                   fmt::format("{} hazard on {} bytes [{}, {}): {} and {} with no fence between "
                               "them",
                               HazardKindName(h.kind), res ? res->name : "resource",
                               h.offset, h.offset + h.length, d.QueueName(h.first_queue),
                               d.QueueName(h.second_queue))});
  }
  for (const FenceRewind& r : d.rewinds) {
    out.push_back({"rewind", r.ts, r.ts,
                   fmt::format("{} rewound from {} to {}{}", d.FenceName(r.fence), r.from, r.to,
                               r.queue ? " by " + d.QueueName(r.queue) : std::string())});
  }
  // seed 004: a packet that reached no preemption point within the timeout makes the OS reset
  // the engine (Timeout Detection and Recovery); the work on it is lost.
  for (const TdrMarker& t : d.recon.tdrs) {
    std::string packet = "the running packet";
    if (t.preemption != kNoIndex) {
      const uint32_t p = d.recon.preemptions[t.preemption].packet;
      if (p != kNoIndex) {
        const Packet hung = d.recon.packets[p];
        const std::string name = d.store->String(hung.name);
        packet = fmt::format("packet {}{}", hung.packet_id, name.empty() ? "" : " (" + name + ")");
      }
    }
    const auto* engine = d.store->FindEngine(t.engine);
    out.push_back({"tdr", t.ts, t.ts,
                   fmt::format("TDR on {}{}: {} reached no preemption point in time; the engine "
                               "was reset, {} packets and {} contexts lost",
                               d.QueueName(t.queue), engine ? " (" + engine->name + ")" : "",
                               packet, t.packets_lost, t.contexts_lost)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.ts < b.ts; });
  return out;
}

}  // namespace core::report
