#include "core/analysis/critical_path.h"

#include <algorithm>
#include <map>

#include "core/analysis/packet_completions.h"

namespace core::analysis {

const char* PathStepKindName(PathStepKind kind) {
  switch (kind) {
    case PathStepKind::kRun: return "run";
    case PathStepKind::kGpuWait: return "gpu_wait";
    case PathStepKind::kSubmit: return "submit";
    case PathStepKind::kQueueGap: return "queue_gap";
    case PathStepKind::kCpuRun: return "cpu_run";
    case PathStepKind::kCpuWait: return "cpu_wait";
  }
  return "unknown";
}

namespace {

using Position = PathPosition;

bool ByTime(const std::pair<TimeNs, uint32_t>& a, const std::pair<TimeNs, uint32_t>& b) {
  return a.first < b.first;
}

class Walker {
 public:
  Walker(const Reconstruction& r, const PathIndex& index)
      : m_r(r),
        m_unblocks(index.unblocks),
        m_releases(index.releases),
        m_segment_start(index.segment_start),
        m_segment_end(index.segment_end) {}

  CriticalPath Walk(Position pos, TimeNs stop_at) {
    CriticalPath path;
    path.end = pos.t;
    size_t budget = 4 * (m_r.packets.size() + m_r.waits.size() + m_r.cpu_waits.size()) + 16;
    bool moving = true;
    // Each step ends where the one after it (in time) starts, and a jump goes to a signal that
    // executed no later than the unblock or release it explains: pos.t never grows.
    while (moving && budget-- > 0 && pos.t > stop_at) {
      moving = pos.on_thread ? StepThread(pos) : StepQueue(pos);
    }
    std::reverse(m_steps.begin(), m_steps.end());
    path.start = m_steps.empty() ? path.end : m_steps.front().start;
    path.steps = std::move(m_steps);
    Shares(path);
    return path;
  }

 private:
  void Add(PathStepKind kind, const Position& at, TimeNs start, TimeNs end,
           uint32_t packet = kNoIndex, uint32_t wait = kNoIndex, uint32_t signal = kNoIndex) {
    if (end < start) start = end;
    PathStep s;
    s.kind = kind;
    (at.on_thread ? s.thread : s.queue) = at.track;
    s.start = start;
    s.end = end;
    s.packet = packet;
    s.wait = wait;
    s.signal = signal;
    m_steps.push_back(s);
  }

  // Jumps to the signal's queue (or thread for a CPU signal) at its execution time; the last
  // step (the wait it released) is marked as a jump.
  bool JumpToSignal(uint32_t signal, Position& pos) {
    const SignalBox& s = m_r.signals[signal];
    if (s.cpu) {
      if (s.thread == 0) return false;
      pos = {true, s.thread, s.executed};
    } else {
      if (s.queue == 0 || s.queue >= m_r.queues.size()) return false;
      pos = {false, s.queue, s.executed};
    }
    m_steps.back().jumped = true;
    return true;
  }

  bool StepQueue(Position& pos) {
    if (pos.track >= m_r.queues.size()) return false;
    const QueueTrack& q = m_r.queues[pos.track];
    const TimeNs t = pos.t;
    // the last segment starting before t
    const std::vector<TimeNs>& starts = m_segment_start[pos.track];
    const std::vector<TimeNs>& ends = m_segment_end[pos.track];
    const size_t it = std::lower_bound(starts.begin(), starts.end(), t) - starts.begin();
    uint32_t packet = kNoIndex;
    bool first_segment = false;
    TimeNs at = t;  // the time whose cause we look for
    size_t prev_end_limit = it;
    if (it != 0 && ends[it - 1] >= t) {
      const RunSegment& seg = q.segments[it - 1];
      Add(PathStepKind::kRun, pos, seg.start, t, seg.packet);
      packet = seg.packet;
      first_segment = !seg.resumed;
      at = seg.start;
      prev_end_limit = it - 1;
    }
    // candidate 1: the previous segment's end at or before `at` (segments of one queue rarely
    // overlap, so a short look back finds it)
    TimeNs prev_end = kUnknownTime;
    for (int look = 0; prev_end_limit != 0 && look < 64; ++look) {
      TimeNs end = ends[--prev_end_limit];
      if (end <= at && (prev_end == kUnknownTime || end > prev_end)) prev_end = end;
    }
    // candidate 2: the latest wait unblock at or before `at`; of several waits unblocked at
    // that same time, the one whose signal executed last is the one that held the queue
    uint32_t wait = LatestBinding(m_unblocks, pos.track, at, [&](uint32_t w) {
      uint32_t s = m_r.waits[w].signal;
      return s != kNoIndex ? m_r.signals[s].executed : kUnknownTime;
    });
    TimeNs unblocked = wait != kNoIndex ? m_r.waits[wait].unblocked : kUnknownTime;
    // candidate 3: the submission of the packet
    TimeNs submit = kUnknownTime;
    if (packet != kNoIndex && first_segment) submit = m_r.packets[packet].submit;
    if (submit != kUnknownTime && submit > at) submit = at;

    TimeNs best = std::max({prev_end, unblocked, submit});
    if (best == kUnknownTime) return false;
    pos.t = at;
    if (unblocked != kUnknownTime && unblocked == best &&
        (prev_end == kUnknownTime || unblocked > prev_end)) {
      const WaitBox& box = m_r.waits[wait];
      uint32_t signal = box.signal;
      TimeNs executed = signal != kNoIndex ? m_r.signals[signal].executed : kUnknownTime;
      TimeNs reached = std::max(box.Begin(), prev_end);  // when the queue reached the wait
      if (at > unblocked) Add(PathStepKind::kQueueGap, pos, unblocked, at);
      if (executed != kUnknownTime && executed > reached) {
        Add(PathStepKind::kGpuWait, pos, std::min(executed, unblocked), unblocked, kNoIndex, wait,
            signal);
        return JumpToSignal(signal, pos);
      }
      // already satisfied when the queue reached it (or no signal known): the hold is the
      // OS / GPU path alone, and the queue's own earlier work is the cause.
      TimeNs from = prev_end != kUnknownTime ? prev_end : reached;
      Add(PathStepKind::kGpuWait, pos, std::min(from, unblocked), unblocked, kNoIndex, wait,
          signal);
      if (prev_end == kUnknownTime) return false;
      pos.t = prev_end;
      return true;
    }
    if (submit != kUnknownTime && submit == best &&
        (prev_end == kUnknownTime || submit > prev_end)) {
      ThreadId thread = m_r.packets[packet].thread;
      if (thread != 0 && thread < m_r.threads.size()) {
        Add(PathStepKind::kSubmit, pos, submit, at, packet);
        m_steps.back().jumped = true;
        pos = {true, thread, submit};
        return true;
      }
      // no submitting thread recorded (imports): the queue's own earlier work is the only
      // cause left to follow
      if (submit < at) Add(PathStepKind::kSubmit, pos, submit, at, packet);
      if (prev_end == kUnknownTime) return false;
      if (prev_end < submit) Add(PathStepKind::kQueueGap, pos, prev_end, submit);
      pos.t = prev_end;
      return true;
    }
    if (prev_end < at) Add(PathStepKind::kQueueGap, pos, prev_end, at);
    pos.t = prev_end;
    return true;
  }

  bool StepThread(Position& pos) {
    if (pos.track >= m_r.threads.size()) return false;
    // after an already-satisfied wait the thread continues from that wait's begin: only waits
    // released strictly before it can be earlier causes
    TimeNs search = m_strictly_before ? pos.t - 1 : pos.t;
    m_strictly_before = false;
    uint32_t wait = LatestBinding(m_releases, pos.track, search, [&](uint32_t w) {
      uint32_t s = m_r.cpu_waits[w].signal;
      return s != kNoIndex ? m_r.signals[s].executed : kUnknownTime;
    });
    if (wait == kNoIndex) {
      // No earlier CPU wait on the thread: nothing held it back, so it ran (and was the cause)
      // from the start of the trace up to here. Without this step a trace whose threads never
      // wait (a Kineto capture of a training loop) would show a path of the last few kernels.
      if (m_r.start_ns < pos.t) Add(PathStepKind::kCpuRun, pos, m_r.start_ns, pos.t);
      return false;
    }
    const CpuWait& box = m_r.cpu_waits[wait];
    if (box.released < pos.t) Add(PathStepKind::kCpuRun, pos, box.released, pos.t);
    uint32_t signal = box.signal;
    TimeNs executed = signal != kNoIndex ? m_r.signals[signal].executed : kUnknownTime;
    TimeNs begin = box.Begin();
    if (executed != kUnknownTime && executed > begin) {
      Add(PathStepKind::kCpuWait, pos, std::min(executed, box.released), box.released, kNoIndex,
          wait, signal);
      return JumpToSignal(signal, pos);
    }
    Add(PathStepKind::kCpuWait, pos, std::min(begin, box.released), box.released, kNoIndex, wait,
        signal);
    pos.t = std::min(begin, box.released);
    m_strictly_before = true;
    return true;
  }

  void Shares(CriticalPath& path) const {
    // (0 queue / 1 thread, id) -> (time on the path, of it running)
    std::map<std::pair<int, uint32_t>, std::pair<DurationNs, DurationNs>> by_track;
    for (const PathStep& s : path.steps) {
      auto& [ns, running] = by_track[{s.thread != 0 ? 1 : 0, s.thread != 0 ? s.thread : s.queue}];
      ns += s.end - s.start;
      if (s.kind == PathStepKind::kRun || s.kind == PathStepKind::kCpuRun) {
        running += s.end - s.start;
      }
    }
    DurationNs length = std::max<DurationNs>(1, path.Length());
    for (const auto& [key, times] : by_track) {
      PathShare share;
      (key.first == 0 ? share.queue : share.thread) = key.second;
      share.ns = times.first;
      share.running_ns = times.second;
      share.share = static_cast<double>(share.ns) / static_cast<double>(length);
      path.shares.push_back(share);
    }
  }

  using TimedWaits = PathIndex::TimedWaits;
  // The wait of `track` with the latest time at or before `t`; among waits sharing that time,
  // the one with the greatest `signal_time`. kNoIndex when none.
  template <typename SignalTime>
  static uint32_t LatestBinding(const TimedWaits& waits, uint32_t track, TimeNs t,
                                SignalTime signal_time) {
    if (track >= waits.size()) return kNoIndex;
    const auto& list = waits[track];
    auto it = std::upper_bound(list.begin(), list.end(), std::make_pair(t, kNoIndex), ByTime);
    if (it == list.begin()) return kNoIndex;
    --it;
    uint32_t best = it->second;
    for (TimeNs time = it->first; it->first == time; --it) {
      if (signal_time(it->second) > signal_time(best)) best = it->second;
      if (it == list.begin()) break;
    }
    return best;
  }

  const Reconstruction& m_r;
  const TimedWaits& m_unblocks;
  const TimedWaits& m_releases;
  const std::vector<std::vector<TimeNs>>& m_segment_start;
  const std::vector<std::vector<TimeNs>>& m_segment_end;
  bool m_strictly_before = false;
  std::vector<PathStep> m_steps;
};

// The latest run segment end in the trace (clipped to `until` unless kUnknownTime); of equal
// ends, the lower queue id. `packet`: the segment's packet.
bool LatestRunEnd(const Reconstruction& r, TimeNs until, PathPosition& pos,
                  uint32_t* packet = nullptr) {
  bool found = false;
  for (const QueueTrack& q : r.queues) {
    for (const RunSegment& s : q.segments) {
      TimeNs end = until == kUnknownTime ? s.end : std::min(s.end, until);
      if (s.start >= end && until != kUnknownTime) continue;
      if (!found || end > pos.t) {
        pos = {false, q.id, end};
        if (packet) *packet = s.packet;
        found = true;
      }
    }
  }
  return found;
}

// [track id] -> (time, box) for the boxes of each track (`boxes_of(track)`) whose time is
// known, by time.
template <typename Tracks, typename BoxesOf, typename TimeOf>
PathIndex::TimedWaits ByTrackAndTime(const Tracks& tracks, BoxesOf boxes_of, TimeOf time_of) {
  PathIndex::TimedWaits out(tracks.size());
  for (const auto& track : tracks) {
    auto& list = out[track.id];
    for (uint32_t box : boxes_of(track)) {
      const TimeNs t = time_of(box);
      if (t != kUnknownTime) list.push_back({t, box});
    }
    std::stable_sort(list.begin(), list.end(), ByTime);
  }
  return out;
}

}  // namespace

PathIndex IndexForPaths(const Reconstruction& r) {
  PathIndex index;
  // Every step searches a queue's segment starts and scans 64 segment ends: plain copies of
  // those two columns (16 bytes a segment).
  index.segment_start.resize(r.queues.size());
  index.segment_end.resize(r.queues.size());
  for (const QueueTrack& q : r.queues) {
    index.segment_start[q.id].resize(q.segments.size());
    q.segments.Column<&RunSegment::start>().Decode(0, q.segments.size(),
                                                   index.segment_start[q.id].data());
    index.segment_end[q.id].resize(q.segments.size());
    q.segments.Column<&RunSegment::end>().Decode(0, q.segments.size(),
                                                 index.segment_end[q.id].data());
  }
  index.unblocks = ByTrackAndTime(
      r.queues, [](const QueueTrack& q) -> const IndexList& { return q.waits; },
      [&](uint32_t w) { return r.waits.Get<&WaitBox::unblocked>(w); });
  index.releases = ByTrackAndTime(
      r.threads, [](const ThreadTrack& t) -> const IndexList& { return t.cpu_waits; },
      [&](uint32_t w) { return r.cpu_waits.Get<&CpuWait::released>(w); });
  index.completions = IndexPacketCompletions(r);
  return index;
}

CriticalPath WalkBackFrom(const Reconstruction& r, const PathIndex& index, const PathPosition& from,
                          TimeNs stop_at) {
  CriticalPath path = Walker(r, index).Walk(from, stop_at);
  // Name the work behind each wait.
  for (PathStep& s : path.steps) {
    if (s.signal == kNoIndex || r.signals[s.signal].cpu) continue;
    s.released_by_packet = PacketBeforeSignal(r, index.completions, s.signal);
  }
  return path;
}

size_t JumpCount(const CriticalPath& path) {
  return static_cast<size_t>(std::count_if(path.steps.begin(), path.steps.end(),
                                           [](const PathStep& s) { return s.jumped; }));
}

CriticalPath ComputeCriticalPath(const Reconstruction& r, TimeNs until) {
  PathPosition end;
  if (!LatestRunEnd(r, until, end)) return {};
  return WalkBackFrom(r, IndexForPaths(r), end);
}

uint32_t CriticalPathEndPacket(const Reconstruction& r) {
  PathPosition end;
  uint32_t packet = kNoIndex;
  return LatestRunEnd(r, kUnknownTime, end, &packet) ? packet : kNoIndex;
}

}  // namespace core::analysis
