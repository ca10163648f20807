// [SECTION] What the trace says about each fence at the end (FenceFacts)
// [SECTION] Evidence that a value was reached without a signal in the trace
// [SECTION] The continuation: queues run on in their queue order (Continuation)
// [SECTION] Classifying each open wait, and the cycles
#include "core/analysis/wait_findings.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace core::analysis {
namespace {

constexpr uint8_t kCpuWaitAny = 1;  // CpuWait::mode of a wait-any (WaitForMultipleObjects) member

// ---- [SECTION] FenceFacts ----

// Execution order of executed writes: the executed record's position, else its time.
bool ExecutedBefore(const SignalBox& a, const SignalBox& b) {
  if (a.executed_event != kNoIndex && b.executed_event != kNoIndex) {
    return a.executed_event < b.executed_event;
  }
  return a.executed < b.executed;
}

struct FenceWrite {
  FenceValue value = 0;
  TimeNs at = kUnknownTime;
  uint32_t signal = kNoIndex;
};

struct FenceFact {
  bool written = false;
  SignalBox last;              // last executed write
  FenceValue max_written = 0;  // highest value an executed write gave it
  bool recorded = false;       // a wait_pending_at_end record gave CurrentValue at the end
  FenceValue recorded_value = 0;
  // Executed writes in execution order with the suffix maximum of their values; kept only for
  // fences whose value at the end is below max_written (they were lowered: rewinds).
  std::vector<FenceWrite> writes;
  std::vector<FenceValue> suffix_max;
  // The highest value the waits show the fence reached (see ReachEvidence).
  bool reached_any = false;
  ReachEvidence reached;

  FenceValue AtEnd() const {
    if (recorded) return recorded_value;
    return written ? last.value : 0;
  }
};

class FenceFacts {
 public:
  explicit FenceFacts(const Reconstruction& r) {
    for (uint32_t s = 0; s < r.signals.size(); ++s) {
      const SignalBox box = r.signals[s];
      if (box.executed == kUnknownTime) continue;
      FenceFact& f = m_facts[box.fence];
      if (!f.written || ExecutedBefore(f.last, box)) f.last = box;
      f.max_written = f.written ? std::max(f.max_written, box.value) : box.value;
      f.written = true;
    }
    for (const WaitBox& w : r.waits) {
      if (w.pending_at_end) Record(w.fence, w.value_at_end);
      if (w.unblocked != kUnknownTime) Reached(w.fence, {w.value, w.unblocked, 0, false, w.queue});
    }
    for (const CpuWait& w : r.cpu_waits) {
      if (w.pending_at_end) Record(w.fence, w.value_at_end);
      if (w.released != kUnknownTime) {
        Reached(w.fence, {w.value, w.released, 0, true, 0, w.thread});
      }
    }
    ReachedBeforeLaterWaits(r);
    KeepLoweredHistories(r);
  }

  const FenceFact& Get(FenceId fence) const {
    auto it = m_facts.find(fence);
    return it == m_facts.end() ? m_none : it->second;
  }

 private:
  void Record(FenceId fence, FenceValue value) {
    FenceFact& f = m_facts[fence];
    f.recorded = true;
    f.recorded_value = value;
  }

  void Reached(FenceId fence, const ReachEvidence& e) {
    FenceFact& f = m_facts[fence];
    if (f.reached_any && f.reached.value >= e.value) return;
    f.reached_any = true;
    f.reached = e;
  }

  // A thread blocked in a wait begins no other: when a thread waits on a fence and later
  // begins a wait on it for a higher value, the fence had reached the first value by then.
  // Not for members of a wait-any group: another member may have ended that wait.
  void ReachedBeforeLaterWaits(const Reconstruction& r) {
    std::map<std::pair<ThreadId, FenceId>, std::vector<uint32_t>> lists;
    for (uint32_t w = 0; w < r.cpu_waits.size(); ++w) {
      const CpuWait box = r.cpu_waits[w];
      if (box.begin != kUnknownTime) lists[{box.thread, box.fence}].push_back(w);
    }
    auto may_prove = [](const CpuWait& w) {
      return w.mode != kCpuWaitAny && w.withdrawn == kUnknownTime;
    };
    for (auto& [key, list] : lists) {
      std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
        return r.cpu_waits[a].begin < r.cpu_waits[b].begin;
      });
      // walk back, keeping the highest later wait (the earliest of equal ones)
      bool later_any = false;
      CpuWait later;
      for (size_t i = list.size(); i-- > 0;) {
        const CpuWait box = r.cpu_waits[list[i]];
        if (later_any && later.value > box.value && later.begin > box.begin && may_prove(box)) {
          Reached(box.fence, {box.value, later.begin, later.value, true, 0, box.thread});
        }
        if (!later_any || box.value >= later.value) later = box;
        later_any = true;
      }
    }
  }

  void KeepLoweredHistories(const Reconstruction& r) {
    bool any = false;
    for (auto& [fence, f] : m_facts) any |= f.written && f.AtEnd() < f.max_written;
    if (!any) return;
    std::unordered_map<FenceId, std::vector<uint32_t>> order;
    for (uint32_t s = 0; s < r.signals.size(); ++s) {
      const SignalBox box = r.signals[s];
      if (box.executed == kUnknownTime) continue;
      const FenceFact& f = m_facts[box.fence];
      if (f.AtEnd() < f.max_written) order[box.fence].push_back(s);
    }
    for (auto& [fence, list] : order) {
      std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
        return ExecutedBefore(r.signals[a], r.signals[b]);
      });
      FenceFact& f = m_facts[fence];
      for (uint32_t s : list) f.writes.push_back({r.signals[s].value, r.signals[s].executed, s});
      f.suffix_max.resize(f.writes.size());
      FenceValue m = 0;
      for (size_t i = f.writes.size(); i-- > 0;) {
        f.suffix_max[i] = m = std::max(m, f.writes[i].value);
      }
    }
  }

  std::unordered_map<FenceId, FenceFact> m_facts;
  FenceFact m_none;
};

// ---- [SECTION] Evidence ----

// signal_not_in_capture: fills p.evidence and returns true when the trace shows the value was
// reached although no executed signal in it reaches the value.
bool ReachedWithoutSignal(const FenceFact& f, PendingWait& p) {
  if (f.written && f.max_written >= p.value) return false;
  if (!f.reached_any || f.reached.value < p.value) return false;
  p.evidence = f.reached;
  return true;
}

// stuck_after_rewind: fills p's rewind fields when the fence had reached the value and a later
// write lowered it below (seed 001: a fence may be rewound).
bool LoweredAfterReaching(const Reconstruction& r, const FenceFact& f, PendingWait& p) {
  if (f.writes.empty() || f.suffix_max.front() < p.value) return false;
  // suffix_max is non-increasing: the last write reaching the value is the last i with
  // suffix_max[i] >= value, and every write after it is below the value.
  auto past = std::partition_point(f.suffix_max.begin(), f.suffix_max.end(),
                                   [&](FenceValue m) { return m >= p.value; });
  size_t k = static_cast<size_t>(past - f.suffix_max.begin()) - 1;
  if (k + 1 >= f.writes.size()) return false;
  const FenceWrite& lowered = f.writes[k + 1];
  p.reached_value = f.writes[k].value;
  p.reached_at = f.writes[k].at;
  p.rewound_to = lowered.value;
  p.rewound_at = lowered.at;
  p.rewound_by_queue = r.signals[lowered.signal].queue;
  return true;
}

// ---- [SECTION] Continuation ----

struct QueueItem {
  TimeNs at = 0;
  uint32_t event = kNoIndex;
  uint32_t index = kNoIndex;  // into signals or waits
  bool wait = false;
};

// What happens after the end if every queue runs on (see the header). `passable[w]` says a wait
// passes whatever the fence's value (known satisfied: unprocessed or signal_not_in_capture).
class Continuation {
 public:
  Continuation(const Reconstruction& r, const FenceFacts& facts,
               const std::vector<uint8_t>& passable)
      : m_r(r), m_passable(passable) {
    m_pos.assign(r.queues.size(), 0);
    m_items.resize(r.queues.size());
    m_lost.assign(r.queues.size(), false);
    for (QueueId q = 1; q < r.queues.size(); ++q) {
      const QueueTrack& track = r.queues[q];
      // seed 004: a TDR loses the queue's context with its work; nothing open on it runs.
      m_lost[q] = track.tdrs.size() > 0;
      std::vector<QueueItem>& items = m_items[q];
      for (uint32_t s : track.signals) {
        const SignalBox box = r.signals[s];
        if (box.cpu || box.executed != kUnknownTime) continue;
        items.push_back({box.queued, box.queued_event, s, false});
      }
      for (uint32_t w : track.waits) {
        const WaitBox box = r.waits[w];
        if (box.unblocked != kUnknownTime) continue;
        // a wait known only from its pending record goes last
        const bool known = box.queued != kUnknownTime;
        items.push_back(
            {known ? box.queued : r.end_ns, known ? box.queued_event : kNoIndex, w, true});
      }
      std::stable_sort(items.begin(), items.end(), [](const QueueItem& a, const QueueItem& b) {
        return a.at != b.at ? a.at < b.at : a.event < b.event;
      });
      for (const QueueItem& item : items) {
        FenceId fence = item.wait ? r.waits[item.index].fence : r.signals[item.index].fence;
        if (!m_value.count(fence)) m_value[fence] = {facts.Get(fence).AtEnd(), 0};
      }
    }
    Run();
  }

  bool Lost(QueueId q) const { return q < m_lost.size() && m_lost[q]; }
  // A wait the continuation passes; the queue whose signal set the value it passed on (0: the
  // value at the end).
  bool Passed(uint32_t wait, QueueId* by) const {
    auto it = m_passed.find(wait);
    if (it == m_passed.end()) return false;
    *by = it->second;
    return true;
  }
  // The first signal the continuation executes on `fence` reaching `value`, or kNoIndex.
  uint32_t Reaching(FenceId fence, FenceValue value) const {
    auto it = m_executed.find(fence);
    if (it == m_executed.end()) return kNoIndex;
    for (uint32_t s : it->second) {
      if (m_r.signals[s].value >= value) return s;
    }
    return kNoIndex;
  }
  // The wait queue q is stuck at, or kNoIndex when it ran dry.
  uint32_t Head(QueueId q) const {
    if (q >= m_items.size() || m_lost[q] || m_pos[q] >= m_items[q].size()) return kNoIndex;
    return m_items[q][m_pos[q]].index;
  }
  // Open signals that never execute, per fence: held behind a stuck head, or lost in a TDR.
  void NeverExecuted(std::map<FenceId, std::vector<uint32_t>>& held,
                     std::map<FenceId, std::vector<uint32_t>>& lost) const {
    for (QueueId q = 1; q < m_items.size(); ++q) {
      for (size_t i = m_lost[q] ? 0 : m_pos[q]; i < m_items[q].size(); ++i) {
        const QueueItem& item = m_items[q][i];
        if (item.wait) continue;
        (m_lost[q] ? lost : held)[m_r.signals[item.index].fence].push_back(item.index);
      }
    }
  }

 private:
  struct Value {
    FenceValue value = 0;
    QueueId by = 0;
  };

  void Run() {
    std::vector<QueueId> ready;
    for (QueueId q = 1; q < m_items.size(); ++q) {
      if (!m_lost[q] && !m_items[q].empty()) ready.push_back(q);
    }
    std::unordered_map<FenceId, std::vector<QueueId>> waiting;
    while (!ready.empty()) {
      const QueueId q = ready.back();
      ready.pop_back();
      const std::vector<QueueItem>& items = m_items[q];
      size_t& pos = m_pos[q];
      for (; pos < items.size(); ++pos) {
        const QueueItem& item = items[pos];
        if (!item.wait) {
          const SignalBox s = m_r.signals[item.index];
          m_value[s.fence] = {s.value, q};
          m_executed[s.fence].push_back(item.index);
          auto it = waiting.find(s.fence);
          if (it != waiting.end()) {
            ready.insert(ready.end(), it->second.begin(), it->second.end());
            waiting.erase(it);
          }
          continue;
        }
        const WaitBox w = m_r.waits[item.index];
        const Value& v = m_value[w.fence];
        if (m_passable[item.index] || v.value >= w.value) {
          m_passed[item.index] = v.value >= w.value ? v.by : 0;
          continue;
        }
        waiting[w.fence].push_back(q);
        break;
      }
    }
  }

  const Reconstruction& m_r;
  const std::vector<uint8_t>& m_passable;
  std::vector<std::vector<QueueItem>> m_items;  // [queue]: open signals and waits, queue order
  std::vector<size_t> m_pos;                    // [queue]: first item not run
  std::vector<bool> m_lost;                     // [queue]: had a TDR
  std::unordered_map<FenceId, Value> m_value;   // CurrentValue as the continuation goes
  std::unordered_map<FenceId, std::vector<uint32_t>> m_executed;  // signals run, in order
  std::unordered_map<uint32_t, QueueId> m_passed;
};

// ---- [SECTION] Classification ----

PendingWait Pending(WaitRef wait, int64_t wait_id, TimeNs since, bool recorded_pending) {
  PendingWait p;
  static_cast<WaitRef&>(p) = wait;
  p.wait_id = wait_id;
  p.since = since;
  p.recorded_pending = recorded_pending;
  return p;
}

BlockingWait BlockerAt(const Reconstruction& r, uint32_t wait) {
  const WaitBox box = r.waits[wait];
  return {box.wait_id, box.queue, box.fence, box.value};
}

// The first signal of `list` reaching `value`, or kNoIndex.
uint32_t FirstReaching(const Reconstruction& r,
                       const std::map<FenceId, std::vector<uint32_t>>& by_fence, FenceId fence,
                       FenceValue value) {
  auto it = by_fence.find(fence);
  if (it == by_fence.end()) return kNoIndex;
  for (uint32_t s : it->second) {
    if (r.signals[s].value >= value) return s;
  }
  return kNoIndex;
}

struct Edge {
  QueueId to = 0;
  uint32_t wait = kNoIndex;
  uint32_t signal = kNoIndex;
};

// Depth-first search from every queue; a back edge to a queue on the current path closes a
// cycle. Cycles are deduplicated by their set of queues.
std::vector<WaitCycle> FindCycles(const Reconstruction& r,
                                  const std::map<QueueId, std::vector<Edge>>& graph) {
  std::vector<WaitCycle> out;
  std::set<std::vector<QueueId>> seen;
  std::vector<const Edge*> path_edges;
  std::vector<QueueId> path;
  std::set<QueueId> done;
  std::function<void(QueueId)> visit = [&](QueueId q) {
    path.push_back(q);
    auto edges_of = graph.find(q);
    if (edges_of != graph.end()) {
      for (const Edge& e : edges_of->second) {
        auto on_path = std::find(path.begin(), path.end(), e.to);
        path_edges.push_back(&e);
        if (on_path != path.end()) {
          size_t first = static_cast<size_t>(on_path - path.begin());
          std::vector<const Edge*> edges(path_edges.begin() + first, path_edges.end());
          std::vector<QueueId> nodes(path.begin() + first, path.end());
          std::vector<QueueId> key = nodes;
          std::sort(key.begin(), key.end());
          if (seen.insert(key).second) {
            auto start = std::min_element(nodes.begin(), nodes.end()) - nodes.begin();
            std::rotate(edges.begin(), edges.begin() + start, edges.end());
            std::rotate(nodes.begin(), nodes.begin() + start, nodes.end());
            WaitCycle cycle;
            for (size_t i = 0; i < edges.size(); ++i) {
              const WaitBox w = r.waits[edges[i]->wait];
              cycle.steps.push_back({nodes[i], w.wait_id, w.fence, w.value, edges[i]->to,
                                     r.signals[edges[i]->signal].signal_id});
            }
            out.push_back(std::move(cycle));
          }
        } else if (!done.count(e.to)) {
          visit(e.to);
        }
        path_edges.pop_back();
      }
    }
    path.pop_back();
    done.insert(q);
  };
  for (const auto& [q, edges] : graph) {
    if (!done.count(q)) visit(q);
  }
  return out;
}

}  // namespace

WaitFindings FindWaitProblems(const Reconstruction& r) {
  WaitFindings out;
  const FenceFacts facts(r);

  // Open waits and the categories that do not need the continuation.
  std::vector<PendingWait> open;
  std::vector<bool> decided;  // category known before the continuation
  std::vector<uint8_t> passable(r.waits.size(), 0);
  auto first_checks = [&](PendingWait p, bool lost) {
    const FenceFact& f = facts.Get(p.fence);
    p.value_at_end = f.AtEnd();
    p.fence_written = f.written;
    bool known = true;
    if (p.value_at_end >= p.value) {
      p.category = OpenWaitCategory::kUnprocessedAtEnd;
    } else if (lost) {
      p.reason = StuckReason::kLostInTdr;
    } else if (ReachedWithoutSignal(f, p)) {
      p.category = OpenWaitCategory::kSignalNotInCapture;
    } else {
      known = false;
    }
    if (!p.cpu && p.category != OpenWaitCategory::kNeverUnblocked) passable[p.index] = 1;
    open.push_back(p);
    decided.push_back(known);
  };
  for (uint32_t w = 0; w < r.waits.size(); ++w) {
    const WaitBox box = r.waits[w];
    if (box.unblocked != kUnknownTime) continue;
    const bool lost = box.queue < r.queues.size() && r.queues[box.queue].tdrs.size() > 0;
    first_checks(Pending(WaitRef::Gpu(w, box), box.wait_id, box.Begin(), box.pending_at_end), lost);
  }
  for (uint32_t w = 0; w < r.cpu_waits.size(); ++w) {
    const CpuWait box = r.cpu_waits[w];
    if (box.released != kUnknownTime || box.withdrawn != kUnknownTime) continue;
    first_checks(Pending(WaitRef::Cpu(w, box), box.waiter_id, box.begin, box.pending_at_end),
                 false);
  }

  const Continuation cont(r, facts, passable);
  std::map<FenceId, std::vector<uint32_t>> held, lost_signals;
  cont.NeverExecuted(held, lost_signals);
  std::map<QueueId, std::vector<Edge>> graph;
  for (size_t i = 0; i < open.size(); ++i) {
    if (decided[i]) continue;
    PendingWait& p = open[i];
    // pending_at_end: the continuation releases it
    QueueId by = 0;
    const bool in_queue = !p.cpu && p.queue != 0 && p.queue < r.queues.size();
    if (in_queue && cont.Passed(p.index, &by)) {
      p.signal_queued_on = by;
      p.category = OpenWaitCategory::kPendingAtEnd;
      continue;
    }
    if (!in_queue) {
      uint32_t s = cont.Reaching(p.fence, p.value);
      if (s != kNoIndex) {
        p.signal_queued_on = r.signals[s].queue;
        p.category = OpenWaitCategory::kPendingAtEnd;
        continue;
      }
    }
    const uint32_t head = in_queue ? cont.Head(p.queue) : kNoIndex;
    if (head != kNoIndex && head != p.index) {
      p.reason = StuckReason::kBehindStuckWait;
      p.blocker = BlockerAt(r, head);
      continue;
    }
    const uint32_t s = FirstReaching(r, held, p.fence, p.value);
    if (s != kNoIndex) {
      p.reason = StuckReason::kSignalBlocked;
      p.signal_queued_on = r.signals[s].queue;
      p.blocker = BlockerAt(r, cont.Head(p.signal_queued_on));
      if (head == p.index) {
        for (uint32_t t : held.at(p.fence)) {
          if (r.signals[t].value < p.value) continue;
          graph[p.queue].push_back({r.signals[t].queue, p.index, t});
        }
      }
      continue;
    }
    if (LoweredAfterReaching(r, facts.Get(p.fence), p)) {
      p.category = OpenWaitCategory::kStuckAfterRewind;
      continue;
    }
    const uint32_t lost = FirstReaching(r, lost_signals, p.fence, p.value);
    if (lost != kNoIndex) {
      p.reason = StuckReason::kLostInTdr;
      p.signal_queued_on = r.signals[lost].queue;
    } else {
      p.reason = StuckReason::kNeverSignalled;
    }
  }

  // in the order of OpenWaitCategory
  std::vector<PendingWait>* lists[] = {&out.never_unblocked, &out.unprocessed_at_end,
                                       &out.pending_at_end, &out.signal_not_in_capture,
                                       &out.stuck_after_rewind};
  for (const PendingWait& p : open) lists[static_cast<size_t>(p.category)]->push_back(p);
  auto by_since = [](const PendingWait& a, const PendingWait& b) { return a.since < b.since; };
  for (auto* list : lists) std::stable_sort(list->begin(), list->end(), by_since);
  out.cycles = FindCycles(r, graph);
  return out;
}

}  // namespace core::analysis
