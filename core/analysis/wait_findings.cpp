#include "core/analysis/wait_findings.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace core::analysis {
namespace {

struct Edge {
  QueueId to = 0;
  uint32_t wait = kNoIndex;
  uint32_t signal = kNoIndex;
};

// The first queued-never-executed signal on `fence` reaching `value`, or kNoIndex.
uint32_t QueuedSignalFor(const Reconstruction& r,
                         const std::map<FenceId, std::vector<uint32_t>>& unexecuted,
                         FenceId fence, FenceValue value) {
  auto it = unexecuted.find(fence);
  if (it == unexecuted.end()) return kNoIndex;
  for (uint32_t s : it->second) {
    if (r.signals[s].value >= value) return s;
  }
  return kNoIndex;
}

// Highest value an executed signal (GPU or CPU) wrote to each fence.
std::map<FenceId, FenceValue> HighestExecutedValues(const Reconstruction& r) {
  std::map<FenceId, FenceValue> highest;
  for (const SignalBox& box : r.signals) {
    if (box.executed == kUnknownTime) continue;
    FenceValue& v = highest[box.fence];
    v = std::max(v, box.value);
  }
  return highest;
}

// Whether a pending wait's value had been reached by the end: the recorded CurrentValue at the
// end when the trace has it, else the highest value any executed signal wrote.
bool ValueReached(const PendingWait& p, bool recorded_value_at_end,
                  const std::map<FenceId, FenceValue>& highest) {
  if (recorded_value_at_end) return p.value_at_end >= p.value;
  auto it = highest.find(p.fence);
  return it != highest.end() && it->second >= p.value;
}

}  // namespace

WaitFindings FindWaitProblems(const Reconstruction& r) {
  WaitFindings out;
  const auto highest = HighestExecutedValues(r);
  std::map<FenceId, std::vector<uint32_t>> unexecuted;
  for (uint32_t s = 0; s < r.signals.size(); ++s) {
    const SignalBox& box = r.signals[s];
    if (!box.cpu && box.executed == kUnknownTime && box.queue != 0) {
      unexecuted[box.fence].push_back(s);
    }
  }
  std::map<QueueId, std::vector<Edge>> graph;
  for (uint32_t w = 0; w < r.waits.size(); ++w) {
    const WaitBox& box = r.waits[w];
    if (box.unblocked != kUnknownTime) continue;
    PendingWait p;
    p.index = w;
    p.wait_id = box.wait_id;
    p.queue = box.queue;
    p.fence = box.fence;
    p.value = box.value;
    p.since = box.Begin();
    p.recorded_pending = box.pending_at_end;
    if (ValueReached(p, /*recorded_value_at_end=*/false, highest)) {
      out.unprocessed_at_end.push_back(p);
      continue;
    }
    uint32_t s = QueuedSignalFor(r, unexecuted, box.fence, box.value);
    if (s != kNoIndex) {
      p.signal_queued_on = r.signals[s].queue;
      graph[box.queue].push_back({r.signals[s].queue, w, s});
    }
    out.never_unblocked.push_back(p);
  }
  for (uint32_t w = 0; w < r.cpu_waits.size(); ++w) {
    const CpuWait& box = r.cpu_waits[w];
    if (box.released != kUnknownTime || box.withdrawn != kUnknownTime) continue;
    PendingWait p;
    p.cpu = true;
    p.index = w;
    p.wait_id = box.waiter_id;
    p.thread = box.thread;
    p.fence = box.fence;
    p.value = box.value;
    p.since = box.begin;
    p.recorded_pending = box.pending_at_end;
    if (ValueReached(p, /*recorded_value_at_end=*/false, highest)) {
      out.unprocessed_at_end.push_back(p);
      continue;
    }
    uint32_t s = QueuedSignalFor(r, unexecuted, box.fence, box.value);
    if (s != kNoIndex) p.signal_queued_on = r.signals[s].queue;
    out.never_unblocked.push_back(p);
  }
  auto by_since = [](const PendingWait& a, const PendingWait& b) { return a.since < b.since; };
  std::stable_sort(out.never_unblocked.begin(), out.never_unblocked.end(), by_since);
  std::stable_sort(out.unprocessed_at_end.begin(), out.unprocessed_at_end.end(), by_since);

  // Cycles: depth-first search from every queue; a back edge to a queue on the current path
  // closes a cycle. Cycles are deduplicated by their set of queues.
  std::set<std::vector<QueueId>> seen;
  std::vector<const Edge*> path_edges;
  std::vector<QueueId> path;
  std::set<QueueId> done;
  std::function<void(QueueId)> visit = [&](QueueId q) {
    path.push_back(q);
    for (const Edge& e : graph[q]) {
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
            const WaitBox& w = r.waits[edges[i]->wait];
            cycle.steps.push_back({nodes[i], w.wait_id, w.fence, w.value, edges[i]->to,
                                   r.signals[edges[i]->signal].signal_id});
          }
          out.cycles.push_back(std::move(cycle));
        }
      } else if (!done.count(e.to)) {
        visit(e.to);
      }
      path_edges.pop_back();
    }
    path.pop_back();
    done.insert(q);
  };
  std::vector<QueueId> roots;
  for (const auto& [q, edges] : graph) roots.push_back(q);
  for (QueueId q : roots) {
    if (!done.count(q)) visit(q);
  }
  return out;
}

}  // namespace core::analysis
