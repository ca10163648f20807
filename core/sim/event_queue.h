// The scheduler's time-ordered queue of pending simulation events. Ties on time are broken by
// insertion order, which keeps every run of the same scenario and seed identical.
#pragma once

#include <cstddef>
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
  SimEventType type = SimEventType::kThreadStep;
  uint32_t a = 0;
  uint64_t b = 0;
};

// Kept as a run sorted by time, events of one time in the order they were pushed (the run's own
// order, no sequence number kept), taken from its front. A new event goes after every event not
// later than it: found from the back, where nearly every new event lands (the simulator
// schedules what comes next, rarely what comes before everything pending). Few events are
// pending at once (a replay of a 36,000-packet capture: 5 at most, 3 on average), so this costs
// less than a binary heap, whose pop was a tenth of a replay's time on its unpredictable
// comparisons; the order taken is the same.
class EventQueue {
 public:
  void Push(core::model::TimeNs t, SimEventType type, uint32_t a = 0, uint64_t b = 0) {
    const SimEvent e{t, type, a, b};
    size_t at = m_events.size();
    m_events.push_back(e);
    for (; at > m_head && m_events[at - 1].t > t; --at) m_events[at] = m_events[at - 1];
    m_events[at] = e;
    ++m_count[static_cast<int>(type)];
  }
  bool Empty() const { return m_head == m_events.size(); }
  size_t Size() const { return m_events.size() - m_head; }
  size_t Count(SimEventType type) const { return m_count[static_cast<int>(type)]; }
  const SimEvent& Top() const { return m_events[m_head]; }
  SimEvent Pop() {
    const SimEvent e = m_events[m_head++];
    --m_count[static_cast<int>(e.type)];
    if (m_head == m_events.size()) {
      m_events.clear();
      m_head = 0;
    } else if (m_head >= kCompactAfter && m_head * 2 >= m_events.size()) {
      // The taken events are at most half: dropping them moves no more than was taken.
      m_events.erase(m_events.begin(), m_events.begin() + static_cast<ptrdiff_t>(m_head));
      m_head = 0;
    }
    return e;
  }

 private:
  static constexpr size_t kCompactAfter = 64;
  std::vector<SimEvent> m_events;  // [m_head, end): pending, by time, then as pushed
  size_t m_head = 0;
  size_t m_count[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
};

}  // namespace core::sim
