#include "core/report/findings.h"

#include <algorithm>

#include <fmt/format.h>

namespace core::report {

std::vector<Finding> CollectFindings(const ReportData& d) {
  using namespace core::analysis;  // NOLINT
  std::vector<Finding> out;
  const TimeNs end = d.recon.end_ns;
  for (const PendingWait& p : d.waits.never_unblocked) {
    std::string who = p.cpu ? fmt::format("CPU wait on thread {}", d.ThreadName(p.thread))
                            : fmt::format("GPU wait on queue {}", d.QueueName(p.queue));
    std::string why =
        p.signal_queued_on != 0
            ? fmt::format("a signal reaching it is queued on {} but never executed",
                          d.QueueName(p.signal_queued_on))
            : std::string("no signal reaching that value was ever queued (never signalled)");
    std::string at_end = p.recorded_pending
                             ? fmt::format(" (pending at end, fence value {})", p.value_at_end)
                             : std::string();
    TimeNs since = p.since != kUnknownTime ? p.since : end;
    out.push_back({"never_unblocked", since, end,
                   fmt::format("{} for {} >= {} never unblocked: {}{}", who, d.FenceName(p.fence),
                               p.value, why, at_end)});
  }
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
