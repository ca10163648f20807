// Which CPU call launched each packet, where the trace says so.
//
// A Kineto / CUDA trace links each kernel, memcpy and memset to the runtime call that launched
// it (cudaLaunchKernel, cudaMemcpyAsync, ...) with an `ac2g` flow; the Chrome JSON importer
// stores it as a flows row of kind cpu_launch from the call's cpu_slice record to the packet's
// packet_started record (importers/chrome_json/chrome_trace_builder.cpp). This is the one place
// that reads those rows; the idle-gap attribution, the launch delay and the queue length all
// take their launch times from here.
//
//   CPU thread   [== cudaLaunchKernel ==]            call: start .. end (cpu_slice ts, duration)
//   GPU stream                                [== kernel ==]
//                ^ launch issued          ^ call returned  ^ packet start
//
// A trace without cpu_launch flows (the D3D12 simulator, ETW captures) gives an empty result:
// callers then keep the behaviour they had without launch calls.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct LaunchCall {
  uint32_t event = kNoIndex;  // the cpu_slice record (index into TraceStore::events)
  ThreadId thread = 0;        // the thread that made the call
  StringId name = 0;          // the call's name (cpu_slice.name_sid), e.g. cudaLaunchKernel
  TimeNs start = kUnknownTime;  // the call began: the launch was being issued from here
  TimeNs end = kUnknownTime;    // the call returned (start + cpu_slice.duration)
};

struct LaunchCalls {
  // [packet index] when at least one packet has a launch call; empty otherwise.
  std::vector<LaunchCall> of_packet;
  uint64_t flows = 0;            // cpu_launch flows in the store
  uint64_t packets_linked = 0;   // packets given a launch call
  // cpu_launch flows whose ends are not a cpu_slice record and a started packet's
  // packet_started record (dropped, not guessed)
  uint64_t flows_unmatched = 0;

  bool any() const { return !of_packet.empty(); }
  // The packet's launch call, or nullptr when the trace does not say which call launched it.
  const LaunchCall* Of(uint32_t packet) const {
    if (packet >= of_packet.size() || of_packet[packet].event == kNoIndex) return nullptr;
    return &of_packet[packet];
  }
};

// Reads the cpu_launch flows of `store` (which must still hold its bulk event columns). When
// several flows lead to one packet, the earliest call is kept (the importer's submit time).
LaunchCalls FindLaunchCalls(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
