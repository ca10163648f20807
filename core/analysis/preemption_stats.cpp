#include "core/analysis/preemption_stats.h"

#include <map>

namespace core::analysis {

PreemptionStats ComputePreemptionStats(const core::store::TraceStore& store,
                                       const Reconstruction& recon) {
  PreemptionStats out;
  if (!store.adapters.empty()) {
    out.granularity_graphics = store.adapters.front().preemption_graphics;
    out.granularity_compute = store.adapters.front().preemption_compute;
  }
  std::vector<DurationNs> all;
  std::map<uint8_t, std::pair<uint64_t, std::vector<DurationNs>>> by_granularity;
  for (const PreemptionMarker& m : recon.preemptions) {
    auto& [requests, samples] = by_granularity[static_cast<uint8_t>(m.granularity)];
    if (m.requested != kUnknownTime) {
      ++out.requests;
      ++requests;
    }
    if (m.completed == kUnknownTime) continue;
    ++out.completed;
    all.push_back(m.latency_ns);
    samples.push_back(m.latency_ns);
  }
  for (const Packet& p : recon.packets) {
    if (p.preemptions == 0) continue;
    ++out.packets_preempted;
    out.preemptions += p.preemptions;
  }
  out.tdrs = recon.tdrs.size();
  out.latency = Summarise(all);
  for (auto& [granularity, entry] : by_granularity) {
    GranularityLatency g;
    g.granularity = static_cast<PreemptionGranularity>(granularity);
    g.requests = entry.first;
    g.latency = Summarise(entry.second);
    out.per_granularity.push_back(g);
  }
  return out;
}

}  // namespace core::analysis
