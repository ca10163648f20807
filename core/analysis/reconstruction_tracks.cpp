// BuildTrackLists: the per-track index lists of a reconstruction (reconstruction_tables.h).
#include <algorithm>
#include <utility>
#include <vector>

#include "core/analysis/reconstruction_tables.h"

namespace core::analysis {
namespace {

// Orders `list` by key(element), stably. Each key is read once (the boxes it reads lie anywhere
// in large tables) and the sort moves (key, position) pairs that sit side by side; a list already
// in order, the usual case (records come in time order), costs one pass.
template <typename Key>
void SortBy(std::vector<uint32_t>& list, Key key) {
  using KeyType = decltype(key(uint32_t{}));
  std::vector<std::pair<KeyType, uint32_t>> keyed(list.size());
  bool sorted = true;
  for (uint32_t i = 0; i < list.size(); ++i) {
    keyed[i] = {key(list[i]), i};
    sorted = sorted && (i == 0 || !(keyed[i].first < keyed[i - 1].first));
  }
  if (sorted) return;
  // Pairs compare by key, then by position: the order std::stable_sort gives.
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint32_t> ordered(list.size());
  for (size_t i = 0; i < keyed.size(); ++i) ordered[i] = list[keyed[i].second];
  list.swap(ordered);
}

}  // namespace

void BuildTrackLists(const core::store::TraceStore& store, Boxes& boxes,
                     const std::vector<RunSegment>& segments,
                     const std::vector<MissingWindow>& missing,
                     std::vector<PlainQueueTrack>& queues, std::vector<PlainThreadTrack>& threads,
                     ProblemCounter& problems) {
  size_t queue_count = store.queues.size() + 1;
  size_t thread_count = store.threads.size() + 1;
  auto queue_slot = [&](QueueId q) -> PlainQueueTrack& {
    if (q >= queues.size()) {
      problems.Count("unknown_queue_id", "a record names a queue id not in `queues`", 0);
      return queues[0];
    }
    return queues[q];
  };
  auto thread_slot = [&](ThreadId t) -> PlainThreadTrack& {
    if (t >= threads.size()) {
      problems.Count("unknown_thread_id", "a record names a thread id not in `threads`", 0);
      return threads[0];
    }
    return threads[t];
  };
  queues.resize(queue_count);
  threads.resize(thread_count);

  auto& packets = boxes.packets;
  for (uint32_t p = 0; p < packets.size(); ++p) {
    queue_slot(packets[p].queue).packets.push_back(p);
    if (packets[p].submit != kUnknownTime) thread_slot(packets[p].thread).submissions.push_back(p);
  }
  for (const RunSegment& s : segments) queue_slot(packets[s.packet].queue).segments.push_back(s);
  for (uint32_t s = 0; s < boxes.signals.size(); ++s) {
    const SignalBox& box = boxes.signals[s];
    if (box.cpu) thread_slot(box.thread).cpu_signals.push_back(s);
    else queue_slot(box.queue).signals.push_back(s);
  }
  for (uint32_t w = 0; w < boxes.waits.size(); ++w) {
    queue_slot(boxes.waits[w].queue).waits.push_back(w);
  }
  for (uint32_t w = 0; w < boxes.cpu_waits.size(); ++w) {
    thread_slot(boxes.cpu_waits[w].thread).cpu_waits.push_back(w);
  }
  for (uint32_t x = 0; x < boxes.interrupts.size(); ++x) {
    queue_slot(boxes.interrupts[x].queue).interrupts.push_back(x);
  }
  for (const MissingWindow& w : missing) queue_slot(w.queue).missing.push_back(w);
  for (uint32_t x = 0; x < boxes.preemptions.size(); ++x) {
    queue_slot(boxes.preemptions[x].queue).preemptions.push_back(x);
  }
  for (uint32_t x = 0; x < boxes.tdrs.size(); ++x) {
    queue_slot(boxes.tdrs[x].queue).tdrs.push_back(x);
  }
  std::stable_sort(boxes.tasks.begin(), boxes.tasks.end(),
                   [](const BackgroundTask& a, const BackgroundTask& b) {
                     return FirstKnown(a.queued, a.started, a.ended) <
                            FirstKnown(b.queued, b.started, b.ended);
                   });
  for (uint32_t t = 0; t < boxes.tasks.size(); ++t) {
    if (boxes.tasks[t].thread != 0) thread_slot(boxes.tasks[t].thread).tasks.push_back(t);
  }

  for (PlainQueueTrack& q : queues) {
    SortBy(q.packets, [&](uint32_t p) {
      return FirstKnown(packets[p].start, packets[p].submit, packets[p].end);
    });
    std::stable_sort(q.segments.begin(), q.segments.end(),
                     [](const RunSegment& a, const RunSegment& b) { return a.start < b.start; });
    for (uint32_t s = 0; s < q.segments.size(); ++s) {
      Packet& p = packets[q.segments[s].packet];
      if (p.segments++ == 0) p.first_segment = s;
    }
    SortBy(q.signals, [&](uint32_t s) {
      return FirstKnown(boxes.signals[s].queued, boxes.signals[s].executed);
    });
    SortBy(q.waits, [&](uint32_t w) { return boxes.waits[w].Begin(); });
    SortBy(q.preemptions, [&](uint32_t x) { return boxes.preemptions[x].Begin(); });
    std::stable_sort(q.missing.begin(), q.missing.end(),
                     [](const MissingWindow& a, const MissingWindow& b) {
                       return a.start < b.start;
                     });
  }
  for (PlainThreadTrack& t : threads) {
    SortBy(t.cpu_waits, [&](uint32_t w) { return boxes.cpu_waits[w].Begin(); });
    SortBy(t.submissions, [&](uint32_t p) { return packets[p].submit; });
    SortBy(t.tasks, [&](uint32_t k) { return boxes.tasks[k].started; });
  }
}

}  // namespace core::analysis
