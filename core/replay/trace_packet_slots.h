// The trace's packets by id, for measuring many replays of one trace: a replayed packet keeps
// its trace packet's id, and its slot is the index of the trace's first packet with that id.
// Built once and shared by every candidate of the opportunities, so that a measure keeps its
// packets' times in a vector by slot instead of a hash map node per packet (36,000 allocations
// a candidate on the PyTorch capture).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::replay {

class TracePacketSlots {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit TracePacketSlots(const analysis::Reconstruction& trace_recon);

  // The slot of a packet id: the index in trace_recon.packets of its first packet; kNone for
  // an id the trace has not.
  uint32_t Find(int64_t packet_id) const {
    if (m_dense) {
      const uint64_t at = static_cast<uint64_t>(packet_id) - static_cast<uint64_t>(m_first_id);
      return at < m_by_offset.size() ? m_by_offset[at] : kNone;
    }
    auto it = m_by_id.find(packet_id);
    return it == m_by_id.end() ? kNone : it->second;
  }
  size_t size() const { return m_slots; }
  // The slot of each trace packet that started and completed, in the reconstruction's order:
  // what a replay's span of the trace's work is measured over (SpanOfTraceWork), read once
  // here instead of from the packed columns by every candidate.
  const std::vector<uint32_t>& timed() const { return m_timed; }

 private:
  size_t m_slots = 0;
  std::vector<uint32_t> m_timed;
  bool m_dense = false;
  int64_t m_first_id = 0;
  std::vector<uint32_t> m_by_offset;              // [id - m_first_id] when ids are dense
  std::unordered_map<int64_t, uint32_t> m_by_id;  // otherwise
};

}  // namespace core::replay
