// seed 004: what preemption cost in a trace: requests, completions, mid-packet preemptions,
// TDRs, and the request -> preemption-point (+ context save) latency, overall and per
// granularity in force at the request. Read from the reconstruction's preemption markers.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/percentiles.h"
#include "core/analysis/reconstruction.h"
#include "core/store/trace_store.h"

namespace core::analysis {

struct GranularityLatency {
  PreemptionGranularity granularity = PreemptionGranularity::kNone;
  uint64_t requests = 0;
  Percentiles latency;  // over the completed requests
};

struct PreemptionStats {
  uint64_t requests = 0;
  uint64_t completed = 0;
  // Packets stopped mid-packet at least once (packet_preempted records), whether or not the
  // trace has the preemption request (an ETW capture has only the preempted DMA packets).
  uint64_t packets_preempted = 0;
  uint64_t preemptions = 0;  // packet_preempted records (a packet may be preempted twice)
  uint64_t tdrs = 0;
  Percentiles latency;             // over the completed requests
  // The granularities of the first adapter as run (none without an adapter).
  PreemptionGranularity granularity_graphics = PreemptionGranularity::kNone;
  PreemptionGranularity granularity_compute = PreemptionGranularity::kNone;
  std::vector<GranularityLatency> per_granularity;  // by granularity value, only those seen
};

PreemptionStats ComputePreemptionStats(const core::store::TraceStore& store,
                                       const Reconstruction& recon);

}  // namespace core::analysis
