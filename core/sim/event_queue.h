// The scheduler's time-ordered queue of pending simulation events. Ties on time are broken by
// insertion order, which keeps every run of the same scenario and seed identical.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/model/types.h"

namespace core::sim {

enum class SimEventType : uint8_t {
  kThreadStep,    // a = thread index: the CPU thread runs its next step
  kPacketDone,    // a = engine index, b = engine generation when the packet was started
  kInterrupt,     // b = index into InterruptState::pending: the OS handles a raised interrupt
  kWaitRelease,   // b = index into FenceTable::releases: a held / propagated GPU wait is let go
  kLogRead,       // a = adapter index: the OS reads every log of the adapter
  kTaskDone,      // a = background thread index, b = task index: a background task finishes
  kPreemption,    // a = engine index, b = preemption id: preemption point reached / context saved
  kTdrTimeout,    // a = engine index, b = preemption id: the TDR timeout of a request expired
  kQueueWake,     // a = queue index: its head packet may start, or its pause ended (derived programs)
};

struct SimEvent {
  core::model::TimeNs t = 0;
  uint64_t seq = 0;
  SimEventType type = SimEventType::kThreadStep;
  uint32_t a = 0;
  uint64_t b = 0;
};

class EventQueue {
 public:
  void Push(core::model::TimeNs t, SimEventType type, uint32_t a = 0, uint64_t b = 0) {
    m_heap.push_back(SimEvent{t, m_next_seq++, type, a, b});
    ++m_count[static_cast<int>(type)];
    std::push_heap(m_heap.begin(), m_heap.end(), Later);
  }
  bool Empty() const { return m_heap.empty(); }
  size_t Size() const { return m_heap.size(); }
  size_t Count(SimEventType type) const { return m_count[static_cast<int>(type)]; }
  const SimEvent& Top() const { return m_heap.front(); }
  SimEvent Pop() {
    std::pop_heap(m_heap.begin(), m_heap.end(), Later);
    SimEvent e = m_heap.back();
    m_heap.pop_back();
    --m_count[static_cast<int>(e.type)];
    return e;
  }

 private:
  static bool Later(const SimEvent& x, const SimEvent& y) {
    return x.t != y.t ? x.t > y.t : x.seq > y.seq;
  }
  std::vector<SimEvent> m_heap;
  size_t m_count[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  uint64_t m_next_seq = 0;
};

}  // namespace core::sim
