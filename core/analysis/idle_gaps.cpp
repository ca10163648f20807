#include "core/analysis/idle_gaps.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "core/analysis/intervals.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/wait_cover.h"
#include "core/model/event_types.h"

namespace core::analysis {

namespace {

// The name of value `index` of an enum, from its names in value order; "unknown" past the end.
template <size_t N>
const char* NameIn(const std::array<const char*, N>& names, size_t index) {
  return index < N ? names[index] : "unknown";
}

}  // namespace

const char* GapCauseName(GapCause cause) {
  static constexpr std::array<const char*, kGapCauses> kNames = {
      "waiting_on_fence",      "preempted",    "nothing_submitted",
      "submitted_not_running", "launch_bound", "synchronised"};
  return NameIn(kNames, static_cast<size_t>(cause));
}

const char* IdleClassName(IdleClass c) {
  static constexpr std::array<const char*, kIdleClasses> kNames = {"host_wait", "kernel_wait",
                                                                   "other", "unlinked"};
  return NameIn(kNames, static_cast<size_t>(c));
}

const char* OtherReasonName(OtherReason reason) {
  static constexpr std::array<const char*, kOtherReasons> kNames = {"cross_stream", "host_sync",
                                                                    "preempted", "unexplained"};
  return NameIn(kNames, static_cast<size_t>(reason));
}

namespace {

using FenceKey = std::tuple<FenceId, QueueId, bool>;
using SyncKey = std::tuple<ThreadId, StringId, FenceId>;

// The totals of a (thread, call, fence) -> ns map, in key order.
template <typename Total, typename Key>
std::vector<Total> TotalsOf(const std::map<Key, DurationNs>& by_key) {
  std::vector<Total> out;
  for (const auto& [key, ns] : by_key) {
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), ns});
  }
  return out;
}

// Earliest submit among the queue's packets that never started (the work left at the end).
TimeNs EarliestUnstartedSubmit(const Reconstruction& r, const QueueTrack& q) {
  TimeNs earliest = kUnknownTime;
  for (uint32_t p : q.packets) {
    const Packet& packet = r.packets[p];
    if (packet.start != kUnknownTime || packet.submit == kUnknownTime) continue;
    if (earliest == kUnknownTime || packet.submit < earliest) earliest = packet.submit;
  }
  return earliest;
}

FenceKey FenceKeyOf(const Reconstruction& r, uint32_t wait) {
  const uint32_t s = r.waits[wait].signal;
  const bool cpu = s != kNoIndex && r.signals[s].cpu;
  return {r.waits[wait].fence, SignallingQueue(r, wait), cpu};
}

// Time per (fence, signalling queue, CPU signal) of the GPU waits that held a queue, and how
// much of it came from waits whose releasing signal the importer inferred.
class FenceTotals {
 public:
  void Add(const Reconstruction& r, uint32_t wait, DurationNs ns) {
    auto& [total, inferred] = m_by_key[FenceKeyOf(r, wait)];
    total += ns;
    if (r.waits.Get<&WaitBox::link_inferred>(wait)) inferred += ns;
  }
  std::vector<FenceGapTotal> Totals() const {
    std::vector<FenceGapTotal> out;
    for (const auto& [key, ns] : m_by_key) {
      out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), ns.first, ns.second});
    }
    return out;
  }

 private:
  std::map<FenceKey, std::pair<DurationNs, DurationNs>> m_by_key;
};

// What a CPU wait's thread was blocked in: the innermost cpu_slice around the wait's begin on
// that thread. The slices of a thread are gathered on first use, so traces without
// synchronised time never pay for the pass over the records.
class SyncNames {
 public:
  SyncNames(const core::store::TraceStore& store, const Reconstruction& r) : m_store(store), m_r(r) {}

  SyncKey KeyOf(uint32_t cpu_wait) {
    const CpuWait& w = m_r.cpu_waits[cpu_wait];
    return {w.thread, CallAround(w.thread, w.Begin()), w.fence};
  }

 private:
  StringId CallAround(ThreadId thread, TimeNs ts) {
    const auto& ev = m_store.events;
    if (m_slices.empty()) {
      m_slices.resize(m_store.threads.size() + 1);
      for (uint32_t e = 0; e < ev.size(); ++e) {
        if (ev.kind[e] != EventKind::CpuSlice) continue;
        if (ThreadId t = ev.thread[e]; t < m_slices.size()) m_slices[t].push_back(e);
      }
    }
    if (thread >= m_slices.size()) return 0;
    const std::vector<uint32_t>& slices = m_slices[thread];  // by start
    auto it = std::upper_bound(slices.begin(), slices.end(), ts,
                               [&](TimeNs t, uint32_t e) { return t < ev.ts[e]; });
    // Slices nest, so the latest-starting slice that still runs at `ts` is the innermost.
    while (it != slices.begin()) {
      const auto slice = events::CpuSlice::At(ev, *--it);
      if (slice.ts_ns + slice.duration_ns > ts) return slice.name_sid;
    }
    return 0;
  }

  const core::store::TraceStore& m_store;
  const Reconstruction& m_r;
  std::vector<std::vector<uint32_t>> m_slices;  // [thread id] cpu_slice event indices
};

// The walk over one queue's gaps: fills the time split's pieces, then classifies each gap.
struct QueueWalk {
  const core::store::TraceStore& store;
  const Reconstruction& r;
  const LaunchCalls& launches;
  const std::vector<std::vector<Interval>>& busy_of;
  std::map<ThreadId, std::vector<WaitPiece>>& cpu_cover_of;
  SyncNames& sync_names;
  const core::store::Queue& queue;
  QueueGaps totals;
  std::vector<GapPiece> pieces;
  FenceTotals per_fence;
  std::map<SyncKey, DurationNs> per_sync;

  void Add(TimeNs start, TimeNs end, GapCause cause, uint32_t wait = kNoIndex) {
    if (end > start) pieces.push_back({queue.id, start, end, cause, wait});
  }

  // The queue of the same engine that ran longest in [start, end), or 0.
  QueueId EngineBusyWith(TimeNs start, TimeNs end) {
    QueueId best = 0;
    DurationNs best_ns = 0, total = 0;
    if (queue.engine == 0) return best;
    for (const auto& other : store.queues) {
      if (other.id == queue.id || other.engine != queue.engine) continue;
      DurationNs ns = TotalLength(Intersect(busy_of[other.id], {{start, end}}));
      total += ns;
      if (ns > best_ns) {
        best_ns = ns;
        best = other.id;
      }
    }
    totals.engine_busy_ns += std::min<DurationNs>(total, end - start);
    return best;
  }

  void AddSubmittedNotRunning(TimeNs start, TimeNs end) {
    if (end <= start) return;
    Add(start, end, GapCause::kSubmittedNotRunning);
    pieces.back().engine_busy_with = EngineBusyWith(start, end);
  }

  // [start, end): the launching thread had not returned from the launch call. Where it was
  // blocked in a CPU wait the queue was synchronised, elsewhere launch-bound.
  void AddHostPhase(TimeNs start, TimeNs end, ThreadId thread) {
    if (end <= start) return;
    auto cover = cpu_cover_of.find(thread);
    if (cover == cpu_cover_of.end()) cover = cpu_cover_of.emplace(thread, CpuWaitCover(r, thread)).first;
    std::vector<Interval> blocked;
    for (const WaitPiece& wp : cover->second) {
      for (const Interval& held : Intersect({{start, end}}, {{wp.start, wp.end}})) {
        Add(held.start, held.end, GapCause::kSynchronised, wp.wait);
        per_sync[sync_names.KeyOf(wp.wait)] += held.Length();
        blocked.push_back(held);
      }
    }
    for (const Interval& free : Subtract({{start, end}}, UnionOf(blocked))) {
      Add(free.start, free.end, GapCause::kLaunchBound);
    }
  }

  void SplitTime(const std::vector<Interval>& gaps) {
    const QueueTrack& track = r.queues[queue.id];
    std::vector<Interval> waited;
    for (const WaitPiece& wp : WaitCover(r, queue.id)) {
      for (const Interval& held : Intersect(gaps, {{wp.start, wp.end}})) {
        Add(held.start, held.end, GapCause::kWaitingOnFence, wp.wait);
        waited.push_back(held);
        per_fence.Add(r, wp.wait, held.Length());
      }
    }
    const TimeNs unstarted_submit = EarliestUnstartedSubmit(r, track);
    for (const Interval& rest : Subtract(gaps, UnionOf(waited))) {
      // the run segment that ends this gap, if any
      const size_t next = track.segments.Column<&RunSegment::start>().LowerBound(rest.end);
      TimeNs submitted = unstarted_submit;
      if (next != track.segments.size()) {
        const RunSegment& segment = track.segments[next];
        if (segment.resumed) {
          Add(rest.start, rest.end, GapCause::kPreempted);
          continue;
        }
        if (const LaunchCall* call = launches.Of(segment.packet)) {
          const TimeNs returned = std::clamp(call->end, rest.start, rest.end);
          AddHostPhase(rest.start, returned, call->thread);
          AddSubmittedNotRunning(returned, rest.end);
          continue;
        }
        submitted = r.packets[segment.packet].submit;
      }
      if (submitted == kUnknownTime) submitted = rest.end;  // no record: count as not submitted
      const TimeNs split = std::clamp(submitted, rest.start, rest.end);
      Add(rest.start, split, GapCause::kNothingSubmitted);
      AddSubmittedNotRunning(split, rest.end);
    }
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const GapPiece& a, const GapPiece& b) { return a.start < b.start; });
    for (const GapPiece& piece : pieces) {
      totals.by_cause[static_cast<size_t>(piece.cause)] += piece.end - piece.start;
    }
    totals.per_fence = per_fence.Totals();
    totals.per_sync = TotalsOf<SyncGapTotal>(per_sync);
  }

  // Why an `other` gap was long: the GPU wait, else the CPU wait, that held most of it.
  OtherReason Explain(const GapPiece* first, const GapPiece* last, uint32_t* wait,
                      SyncKey* sync) {
    const GapPiece* longest_wait = nullptr;
    const GapPiece* longest_sync = nullptr;
    for (const GapPiece* p = first; p != last; ++p) {
      const DurationNs ns = p->end - p->start;
      if (p->cause == GapCause::kWaitingOnFence &&
          (!longest_wait || ns > longest_wait->end - longest_wait->start)) {
        longest_wait = p;
      }
      if (p->cause == GapCause::kSynchronised &&
          (!longest_sync || ns > longest_sync->end - longest_sync->start)) {
        longest_sync = p;
      }
    }
    if (longest_wait) {
      *wait = longest_wait->wait;
      return OtherReason::kCrossStream;
    }
    if (longest_sync) {
      *sync = sync_names.KeyOf(longest_sync->wait);
      return OtherReason::kHostSync;
    }
    return OtherReason::kUnexplained;
  }

  QueueIdleSplit Classify(const std::vector<Interval>& gaps) {
    const QueueTrack& track = r.queues[queue.id];
    QueueIdleSplit split;
    split.queue = queue.id;
    FenceTotals other_on_fence;
    std::map<SyncKey, DurationNs> other_on_sync;
    size_t piece = 0;
    for (const Interval& gap : gaps) {
      // the pieces of this gap (both lists are in time order, every piece lies in a gap)
      while (piece < pieces.size() && pieces[piece].start < gap.start) ++piece;
      size_t piece_end = piece;
      while (piece_end < pieces.size() && pieces[piece_end].start < gap.end) ++piece_end;
      const GapPiece* first = pieces.data() + piece;
      const GapPiece* last = pieces.data() + piece_end;
      piece = piece_end;
      // Gaps are the span minus the busy time: one that starts after the span's start follows
      // a run, one that ends before the span's end is followed by one.
      const size_t next = track.segments.Column<&RunSegment::start>().LowerBound(gap.end);
      if (gap.start <= r.start_ns || gap.end >= r.end_ns || next == track.segments.size()) {
        split.outside_ns += gap.Length();
        continue;
      }
      IdleClass c = IdleClass::kUnlinked;
      OtherReason reason = OtherReason::kUnexplained;
      uint32_t wait = kNoIndex;
      SyncKey sync{};
      const RunSegment segment = track.segments[next];
      const LaunchCall* call = launches.Of(segment.packet);
      if (segment.resumed) {
        c = IdleClass::kOther;
        reason = OtherReason::kPreempted;
      } else if (!call) {
        c = IdleClass::kUnlinked;
      } else if (call->start > gap.start) {
        c = IdleClass::kHostWait;
      } else if (gap.Length() < kKernelWaitMaxNs) {
        c = IdleClass::kKernelWait;
      } else {
        c = IdleClass::kOther;
        reason = Explain(first, last, &wait, &sync);
      }
      ++split.gaps[static_cast<size_t>(c)];
      split.ns[static_cast<size_t>(c)] += gap.Length();
      if (c != IdleClass::kOther) continue;
      split.other_ns[static_cast<size_t>(reason)] += gap.Length();
      if (reason == OtherReason::kCrossStream) other_on_fence.Add(r, wait, gap.Length());
      if (reason == OtherReason::kHostSync) other_on_sync[sync] += gap.Length();
    }
    split.other_on_fence = other_on_fence.Totals();
    split.other_on_sync = TotalsOf<SyncGapTotal>(other_on_sync);
    return split;
  }
};

}  // namespace

IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r) {
  return AttributeIdleGaps(store, r, FindLaunchCalls(store, r));
}

IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r,
                           const LaunchCalls& launches) {
  IdleGaps out;
  std::vector<std::vector<Interval>> busy_of(store.queues.size() + 1);
  for (const auto& queue : store.queues) busy_of[queue.id] = BusyIntervals(r, queue.id);
  std::map<ThreadId, std::vector<WaitPiece>> cpu_cover_of;
  SyncNames sync_names(store, r);
  for (const auto& queue : store.queues) {
    QueueWalk walk{store, r, launches, busy_of, cpu_cover_of, sync_names, queue, {}, {}, {}, {}};
    walk.totals.queue = queue.id;
    if (queue.id >= r.queues.size()) {
      out.per_queue.push_back(walk.totals);
      out.split.push_back({});
      out.split.back().queue = queue.id;
      continue;
    }
    const std::vector<Interval> gaps = Subtract({{r.start_ns, r.end_ns}}, busy_of[queue.id]);
    walk.SplitTime(gaps);
    out.split.push_back(walk.Classify(gaps));
    out.pieces.insert(out.pieces.end(), walk.pieces.begin(), walk.pieces.end());
    out.per_queue.push_back(std::move(walk.totals));
  }
  return out;
}

}  // namespace core::analysis
