#include "core/analysis/launch_calls.h"

#include <algorithm>
#include <utility>

#include "core/model/event_types.h"

namespace core::analysis {

LaunchCalls FindLaunchCalls(const core::store::TraceStore& store, const Reconstruction& r) {
  LaunchCalls out;
  for (const auto& flow : store.flows) out.flows += flow.kind == FlowKind::kCpuLaunch;
  if (out.flows == 0) return out;
  // packet_started event index -> packet, to resolve a flow's destination
  std::vector<std::pair<uint32_t, uint32_t>> packet_of_start;
  packet_of_start.reserve(r.packets.size());
  for (uint32_t p = 0; p < r.packets.size(); ++p) {
    const uint32_t start_event = r.packets.Get<&Packet::start_event>(p);
    if (start_event != kNoIndex) packet_of_start.emplace_back(start_event, p);
  }
  std::sort(packet_of_start.begin(), packet_of_start.end());
  const auto& ev = store.events;
  std::vector<LaunchCall> of_packet(r.packets.size());
  for (const auto& flow : store.flows) {
    if (flow.kind != FlowKind::kCpuLaunch) continue;
    const size_t from = store.IndexOfRowId(flow.from);
    const size_t to = store.IndexOfRowId(flow.to);
    auto it = to == SIZE_MAX ? packet_of_start.end()
                             : std::lower_bound(packet_of_start.begin(), packet_of_start.end(),
                                                std::pair<uint32_t, uint32_t>(to, 0));
    if (from == SIZE_MAX || ev.kind[from] != EventKind::CpuSlice ||
        it == packet_of_start.end() || it->first != to) {
      ++out.flows_unmatched;
      continue;
    }
    const auto slice = events::CpuSlice::At(ev, from);
    LaunchCall call;
    call.event = static_cast<uint32_t>(from);
    call.thread = slice.thread_id;
    call.name = slice.name_sid;
    call.start = slice.ts_ns;
    call.end = call.start + slice.duration_ns;
    LaunchCall& slot = of_packet[it->second];
    if (slot.event == kNoIndex) {
      ++out.packets_linked;
      slot = call;
    } else if (call.start < slot.start) {
      slot = call;
    }
  }
  if (out.packets_linked > 0) out.of_packet = std::move(of_packet);
  return out;
}

}  // namespace core::analysis
