#include "core/replay/trace_packet_slots.h"

#include <algorithm>
#include <limits>

namespace core::replay {

TracePacketSlots::TracePacketSlots(const analysis::Reconstruction& trace_recon)
    : m_slots(trace_recon.packets.size()) {
  if (m_slots == 0) return;
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  for (uint32_t i = 0; i < m_slots; ++i) {
    const int64_t id = trace_recon.packets.Get<&analysis::Packet::packet_id>(i);
    lo = std::min(lo, id);
    hi = std::max(hi, id);
  }
  // Ids an importer or the simulator numbers from 1 are dense: a table by offset, up to four
  // entries a packet; others (ids spread over a 64-bit range) by hash.
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  m_dense = range < 4 * static_cast<uint64_t>(m_slots) + 1024;
  if (m_dense) {
    m_first_id = lo;
    m_by_offset.assign(range + 1, kNone);
  } else {
    m_by_id.reserve(m_slots);
  }
  const auto& packets = trace_recon.packets;
  for (uint32_t i = 0; i < m_slots; ++i) {
    const int64_t id = packets.Get<&analysis::Packet::packet_id>(i);
    uint32_t slot = i;  // the first packet of its id, found before any later one
    if (m_dense) {
      uint32_t& first = m_by_offset[static_cast<uint64_t>(id) - static_cast<uint64_t>(lo)];
      if (first == kNone) first = i;
      slot = first;
    } else {
      slot = m_by_id.try_emplace(id, i).first->second;
    }
    if (packets.Get<&analysis::Packet::start>(i) != analysis::kUnknownTime &&
        packets.Get<&analysis::Packet::end>(i) != analysis::kUnknownTime) {
      m_timed.push_back(slot);
    }
  }
}

}  // namespace core::replay
