#include "app/gui/timeline/timeline_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "app/gui/timeline/lod.h"
#include "core/analysis/launch_calls.h"
#include "core/analysis/queue_length.h"
#include "core/model/event_types.h"
#include "core/report/queue_streams.h"

namespace app::gui::timeline {
namespace {

using core::analysis::kNoIndex;
using core::analysis::kUnknownTime;
using core::analysis::Reconstruction;
using core::store::TraceStore;

TimeNs Known(TimeNs preferred, TimeNs fallback) {
  return preferred != kUnknownTime ? preferred : fallback;
}

// Spreads `items` (any order) over as few non-overlapping lanes as it can, first fit in order
// of start: lane k takes an item when its last span ended at or before the item's start.
template <typename Items>
std::vector<Lane> SpreadOverLanes(LaneKind kind, uint32_t queue, const Items& items,
                                  const TraceStore& store, const Reconstruction& r,
                                  TimeNs trace_end) {
  std::vector<ResolvedSpan> spans(items.size());
  for (size_t k = 0; k < items.size(); ++k) {
    spans[k] = ResolveSpan(kind, queue, items[k], store, r, trace_end);
  }
  std::vector<uint32_t> order(items.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return spans[a].start < spans[b].start; });
  struct Building {
    std::vector<uint32_t> items, names;
    std::vector<TimeNs> start, end;
  };
  std::vector<Building> lanes;
  std::vector<TimeNs> lane_end;
  for (uint32_t k : order) {
    size_t lane = 0;
    while (lane < lanes.size() && lane_end[lane] > spans[k].start) ++lane;
    if (lane == lanes.size()) {
      lanes.emplace_back();
      lane_end.push_back(spans[k].end);
    }
    const uint32_t item = items[k];
    lanes[lane].items.push_back(item);
    lanes[lane].start.push_back(spans[k].start);
    lanes[lane].end.push_back(spans[k].end);
    if (kind == LaneKind::kCpuSlices) {
      lanes[lane].names.push_back(core::model::events::CpuSlice::At(store.events, item).name_sid);
    }
    lane_end[lane] = std::max(lane_end[lane], spans[k].end);
  }
  std::vector<Lane> out;
  out.reserve(lanes.size());
  for (auto& lane : lanes) {
    out.push_back(MakeLane(kind, queue, lane.items, lane.start, lane.end, lane.names));
    lane = {};
  }
  return out;
}

template <typename Items>
MarkLane MakeMarks(MarkKind kind, uint32_t queue, const Items& items, const Reconstruction& r,
                   const TraceStore& store) {
  std::vector<uint32_t> item_list(items.begin(), items.end());
  std::vector<TimeNs> ts;
  ts.reserve(item_list.size());
  for (uint32_t item : item_list) ts.push_back(ResolveMark(kind, queue, item, store, r));
  MarkLane marks;
  marks.kind = kind;
  marks.queue = queue;
  marks.items.Assign(item_list);
  marks.ts.Assign(ts);
  if (kind == MarkKind::kMarkers) {
    // marker_type (0 text, 1 vsync, 2 present); instants are text
    std::vector<uint8_t> marker_type;
    marker_type.reserve(item_list.size());
    for (uint32_t e : item_list) {
      marker_type.push_back(
          store.events.kind[e] == core::model::EventKind::Marker
              ? static_cast<uint8_t>(std::min<uint32_t>(
                    core::model::events::Marker::At(store.events, e).marker_type, 255))
              : kMarkerText);
    }
    marks.marker_type.Assign(marker_type);
  }
  return marks;
}

void AppendLanes(Track& track, std::vector<Lane> lanes) {
  for (size_t k = 0; k < lanes.size(); ++k) {
    lanes[k].rank = static_cast<uint32_t>(k);
    track.lanes.push_back(std::move(lanes[k]));
  }
}

struct Builder {
  const TraceStore& store;
  const Reconstruction& r;
  TimelineModel model;
  std::vector<int> track_of_queue;
  std::vector<int> track_of_thread;
  std::vector<std::vector<uint32_t>> markers_of_queue;   // [queue id]
  std::vector<std::vector<uint32_t>> markers_of_thread;  // [thread id]
  std::vector<std::vector<uint32_t>> slices_of_thread;   // [thread id]
  // [queue id] queue length steps of queues whose packets have launch calls
  std::vector<std::vector<core::analysis::QueueLengthStep>> queue_length_of;

  int AddGroup(std::string label, int parent) {
    int depth = parent < 0 ? 0 : model.groups[parent].depth + 1;
    model.groups.push_back({std::move(label), parent, depth});
    return static_cast<int>(model.groups.size()) - 1;
  }

  void AddQueueTrack(const core::store::Queue& queue, int group) {
    if (queue.id >= r.queues.size()) return;
    const auto& q = r.queues[queue.id];
    Track track;
    track.kind = TrackKind::kQueue;
    track.id = queue.id;
    track.group = group;
    track.label = queue.name.empty() ? fmt::format("queue {}", queue.id) : queue.name;
    // A hardware queue that carried several streams (rocprofv3) says which, on hover.
    if (std::string streams = core::report::QueueStreams(store, queue.name); !streams.empty()) {
      track.full_name = track.label + "\nstreams carried (packets): " + streams;
    }
    const TimeNs end = model.end;
    std::vector<uint32_t> segments(q.segments.size());
    std::iota(segments.begin(), segments.end(), 0u);
    // Run segments of one queue never overlap: this yields exactly one lane.
    AppendLanes(track, SpreadOverLanes(LaneKind::kRunSegments, queue.id, segments, store, r, end));
    if (track.lanes.empty()) track.lanes.push_back(MakeLane(LaneKind::kRunSegments, queue.id, {}, {}, {}));
    AppendLanes(track, SpreadOverLanes(LaneKind::kSignals, queue.id, q.signals, store, r, end));
    AppendLanes(track, SpreadOverLanes(LaneKind::kWaits, queue.id, q.waits, store, r, end));
    std::vector<uint32_t> missing(q.missing.size());
    std::iota(missing.begin(), missing.end(), 0u);
    AppendLanes(track, SpreadOverLanes(LaneKind::kMissing, queue.id, missing, store, r, end));
    std::vector<uint32_t> preempted;
    for (uint32_t i = 0; i < q.segments.size(); ++i) {
      if (q.segments[i].preempted) preempted.push_back(i);
    }
    if (!preempted.empty()) {
      track.marks.push_back(
          MakeMarks(MarkKind::kPreemptions, queue.id, preempted, r, store));
    }
    if (!q.tdrs.empty()) {
      // seed 004: the engine was reset because the running packet missed the TDR timeout.
      track.marks.push_back(MakeMarks(MarkKind::kTdrs, queue.id, q.tdrs, r, store));
    }
    if (queue.id < markers_of_queue.size() && !markers_of_queue[queue.id].empty()) {
      track.marks.push_back(
          MakeMarks(MarkKind::kMarkers, 0, markers_of_queue[queue.id], r, store));
    }
    if (queue.id < queue_length_of.size() && !queue_length_of[queue.id].empty()) {
      std::vector<TimeNs> ts;
      std::vector<uint32_t> values;
      for (const auto& step : queue_length_of[queue.id]) {
        ts.push_back(step.ts);
        values.push_back(step.length);
      }
      track.counter = MakeCounterRow("queue length", ts, values);
      queue_length_of[queue.id] = {};
    }
    track_of_queue[queue.id] = static_cast<int>(model.tracks.size());
    model.tracks.push_back(std::move(track));
  }

  // Queue lengths for the counter rows, only where packets have launch calls (CUDA streams):
  // a D3D12 trace keeps the memory it had.
  void CollectQueueLengths() {
    const core::analysis::LaunchCalls launches = core::analysis::FindLaunchCalls(store, r);
    queue_length_of.assign(store.queues.size() + 1, {});
    if (!launches.any()) return;
    auto lengths = core::analysis::ComputeQueueLengths(store, r, launches, 1);
    for (auto& q : lengths.per_queue) {
      if (q.queue < queue_length_of.size()) queue_length_of[q.queue] = std::move(q.steps);
    }
  }

  bool AddThreadTrack(const core::store::Thread& thread, int group) {
    Track track;
    track.kind = TrackKind::kThread;
    track.id = thread.id;
    track.group = group;
    track.label = thread.name.empty() ? fmt::format("thread {}", thread.tid)
                                      : fmt::format("{} ({})", thread.name, thread.tid);
    const TimeNs end = model.end;
    if (thread.id < r.threads.size()) {
      const auto& t = r.threads[thread.id];
      AppendLanes(track, SpreadOverLanes(LaneKind::kTasks, 0, t.tasks, store, r, end));
      AppendLanes(track, SpreadOverLanes(LaneKind::kCpuWaits, 0, t.cpu_waits, store, r, end));
      if (!t.cpu_signals.empty()) {
        track.marks.push_back(MakeMarks(MarkKind::kCpuSignals, 0, t.cpu_signals, r, store));
      }
      std::vector<uint32_t> submissions;
      for (uint32_t p : t.submissions) {
        if (r.packets[p].submit != kUnknownTime) submissions.push_back(p);
      }
      if (!submissions.empty()) {
        track.marks.push_back(
            MakeMarks(MarkKind::kSubmissions, 0, submissions, r, store));
      }
    }
    if (thread.id < slices_of_thread.size()) {
      AppendLanes(track, SpreadOverLanes(LaneKind::kCpuSlices, 0, slices_of_thread[thread.id],
                                         store, r, end));
      slices_of_thread[thread.id] = {};
    }
    if (thread.id < markers_of_thread.size() && !markers_of_thread[thread.id].empty()) {
      track.marks.push_back(
          MakeMarks(MarkKind::kMarkers, 0, markers_of_thread[thread.id], r, store));
    }
    if (track.lanes.empty() && track.marks.empty()) return false;
    track_of_thread[thread.id] = static_cast<int>(model.tracks.size());
    model.tracks.push_back(std::move(track));
    return true;
  }

  void AddQueues() {
    std::vector<const core::store::Queue*> queues;
    for (const auto& q : store.queues) queues.push_back(&q);
    std::stable_sort(queues.begin(), queues.end(), [](auto* a, auto* b) {
      return std::tie(a->adapter, a->engine, a->sort_index, a->id) <
             std::tie(b->adapter, b->engine, b->sort_index, b->id);
    });
    uint32_t current_adapter = UINT32_MAX, current_engine = UINT32_MAX;
    int adapter_group = -1, engine_group = -1;
    for (const auto* q : queues) {
      // A process's own queues (ETW contexts) go under the process, with its threads.
      if (q->type == core::model::QueueType::kSoftware && q->process != 0) {
        queues_of_process[q->process].push_back(q);
        continue;
      }
      if (q->adapter != current_adapter) {
        current_adapter = q->adapter;
        const auto* adapter = store.FindAdapter(q->adapter);
        adapter_group = AddGroup(
            adapter ? fmt::format("Adapter {}", adapter->name) : std::string("Queues"), -1);
        current_engine = UINT32_MAX;
      }
      if (q->engine != current_engine) {
        current_engine = q->engine;
        const auto* engine = store.FindEngine(q->engine);
        engine_group =
            engine ? AddGroup(engine->name.empty() ? fmt::format("engine {}", engine->ordinal)
                                                   : engine->name,
                              adapter_group)
                   : adapter_group;
      }
      AddQueueTrack(*q, engine_group);
    }
  }

  void AddThreads(bool background) {
    std::vector<const core::store::Thread*> threads;
    for (const auto& t : store.threads) {
      if ((t.kind == core::model::ThreadKind::kRuntimeBackground) == background) {
        threads.push_back(&t);
      }
    }
    std::stable_sort(threads.begin(), threads.end(), [](auto* a, auto* b) {
      return std::tie(a->process, a->sort_index, a->id) <
             std::tie(b->process, b->sort_index, b->id);
    });
    int group = -1;
    uint32_t current_process = UINT32_MAX;
    for (const auto* t : threads) {
      if (background) {
        if (group < 0) group = AddBackgroundGroup();
      } else if (t->process != current_process) {
        current_process = t->process;
        group = AddProcessGroup(t->process);
      }
      AddThreadTrack(*t, group);
    }
    if (background) return;
    for (const auto& [process, queues] : queues_of_process) {
      if (queues.empty()) continue;
      AddProcessGroup(process);
    }
  }

  // [process id] its software queues (contexts) not yet placed, in display order.
  std::map<uint32_t, std::vector<const core::store::Queue*>> queues_of_process;

  // The process's header (ProcessGroupLabel); its contexts come first under it.
  int AddProcessGroup(uint32_t id) {
    const auto* process = store.FindProcess(id);
    std::string label = process ? ProcessGroupLabel(*process) : "Threads";
    const int group = AddGroup(std::move(label), -1);
    auto it = queues_of_process.find(id);
    if (it != queues_of_process.end()) {
      for (const auto* q : it->second) {
        const size_t before = model.tracks.size();
        AddQueueTrack(*q, group);
        if (model.tracks.size() == before) continue;
        // Under its process a context's row need not repeat the process: "pid 15524: node 0
        // context 0x..." reads "node 0 context 0x...", its whole name on hover.
        Track& track = model.tracks.back();
        const size_t colon = track.label.find(": ");
        if (process && colon != std::string::npos &&
            track.label.substr(0, colon).find(fmt::format("pid {}", process->pid)) !=
                std::string::npos) {
          if (track.full_name.empty()) track.full_name = track.label;
          track.label.erase(0, colon + 2);
        }
      }
      it->second.clear();
    }
    return group;
  }

  int m_background_group = -1;
  int AddBackgroundGroup() {
    if (m_background_group >= 0) return m_background_group;
    m_background_group = AddGroup("Background runtime threads", -1);
    std::vector<uint32_t> variants;
    for (uint32_t e = 0; e < store.events.size(); ++e) {
      if (store.events.kind[e] == core::model::EventKind::VariantApplied) variants.push_back(e);
    }
    if (!r.mode_changes.empty() || !variants.empty()) {
      Track pgo;
      pgo.kind = TrackKind::kPgo;
      pgo.group = m_background_group;
      pgo.label = "PGO: modes, commits, variants";
      std::vector<uint32_t> modes;
      std::vector<uint32_t> by_commit;
      for (uint32_t i = 0; i < r.mode_changes.size(); ++i) {
        modes.push_back(i);
        if (r.mode_changes[i].commit_completed != kUnknownTime) by_commit.push_back(i);
      }
      std::stable_sort(by_commit.begin(), by_commit.end(), [&](uint32_t a, uint32_t b) {
        return r.mode_changes[a].commit_completed < r.mode_changes[b].commit_completed;
      });
      if (!modes.empty()) {
        pgo.marks.push_back(MakeMarks(MarkKind::kModeChanges, 0, modes, r, store));
      }
      if (!variants.empty()) {
        pgo.marks.push_back(MakeMarks(MarkKind::kVariants, 0, variants, r, store));
      }
      if (!by_commit.empty()) {
        pgo.marks.push_back(MakeMarks(MarkKind::kCommits, 0, by_commit, r, store));
      }
      model.tracks.push_back(std::move(pgo));
    }
    return m_background_group;
  }

  // A track of `adapter` in `group`, labelled "<adapter name> <what>" (`unnamed` when the
  // adapter is not in the trace).
  Track AdapterTrack(uint32_t adapter, int group, const char* what, const char* unnamed) {
    Track track;
    track.kind = TrackKind::kInterrupts;
    track.id = adapter;
    track.group = group;
    const auto* a = store.FindAdapter(adapter);
    track.label = a ? fmt::format("{} {}", a->name, what) : std::string(unnamed);
    return track;
  }

  void AddInterrupts() {
    if (r.interrupts.empty()) return;
    int group = AddGroup("Interrupts", -1);
    std::vector<uint32_t> adapters;
    for (const auto& i : r.interrupts) adapters.push_back(i.adapter);
    std::sort(adapters.begin(), adapters.end());
    adapters.erase(std::unique(adapters.begin(), adapters.end()), adapters.end());
    for (uint32_t adapter : adapters) {
      Track track = AdapterTrack(adapter, group, "interrupts", "interrupts");
      track.rate_curve = true;
      std::vector<uint32_t> ticks;
      for (uint32_t i = 0; i < r.interrupts.size(); ++i) {
        if (r.interrupts[i].adapter == adapter) ticks.push_back(i);
      }
      track.marks.push_back(MakeMarks(MarkKind::kInterrupts, 0, ticks, r, store));
      model.tracks.push_back(std::move(track));
    }
  }

  // Marker and instant records per queue and per thread, and cpu_slice records per thread
  // (indices into TraceStore::events, in time order), from one pass over the kinds.
  void CollectRecordsDrawnAsIs() {
    const auto& ev = store.events;
    markers_of_queue.assign(store.queues.size() + 1, {});
    markers_of_thread.assign(store.threads.size() + 1, {});
    slices_of_thread.assign(store.threads.size() + 1, {});
    for (uint32_t e = 0; e < ev.size(); ++e) {
      auto kind = ev.kind[e];
      if (kind == core::model::EventKind::CpuSlice) {
        if (core::model::ThreadId t = ev.thread[e]; t != 0 && t < slices_of_thread.size()) {
          slices_of_thread[t].push_back(e);
        }
      } else if (kind == core::model::EventKind::Marker ||
                 kind == core::model::EventKind::Instant) {
        if (core::model::QueueId q = ev.queue[e]; q != 0 && q < markers_of_queue.size()) {
          markers_of_queue[q].push_back(e);
        }
        if (core::model::ThreadId t = ev.thread[e]; t != 0 && t < markers_of_thread.size()) {
          markers_of_thread[t].push_back(e);
        }
      }
    }
  }

  // Markers that belong to no queue or thread: VSync and other display markers, one track per
  // adapter (marker.adapter_id) in a "Display" group.
  void AddDisplayMarkers() {
    std::map<uint32_t, std::vector<uint32_t>> by_adapter;
    const auto& ev = store.events;
    for (uint32_t e = 0; e < ev.size(); ++e) {
      if (ev.kind[e] != core::model::EventKind::Marker || ev.queue[e] != 0 || ev.thread[e] != 0) {
        continue;
      }
      by_adapter[core::model::events::Marker::At(ev, e).adapter_id].push_back(e);
    }
    if (by_adapter.empty()) return;
    int group = AddGroup("Display", -1);
    for (auto& [adapter, events] : by_adapter) {
      Track track = AdapterTrack(adapter, group, "VSync / markers", "markers");
      track.marks.push_back(MakeMarks(MarkKind::kMarkers, 0, events, r, store));
      model.tracks.push_back(std::move(track));
    }
  }

  int TrackOfSignal(const core::analysis::SignalBox& s) const {
    if (s.queue != 0 && s.queue < track_of_queue.size()) return track_of_queue[s.queue];
    if (s.thread != 0 && s.thread < track_of_thread.size()) return track_of_thread[s.thread];
    return -1;
  }

  // Lane (of its track) that draws each box of `kind`: where an arrow starts or ends.
  std::vector<uint32_t> LaneOfItems(LaneKind kind, size_t items) const {
    std::vector<uint32_t> lane_of(items, 0);
    for (const auto& track : model.tracks) {
      for (size_t l = 0; l < track.lanes.size(); ++l) {
        if (track.lanes[l].kind != kind) continue;
        for (uint32_t item : track.lanes[l].items) lane_of[item] = static_cast<uint32_t>(l);
      }
    }
    return lane_of;
  }

  void AddLinks() {
    const auto signal_lane = LaneOfItems(LaneKind::kSignals, r.signals.size());
    const auto wait_lane = LaneOfItems(LaneKind::kWaits, r.waits.size());
    const auto cpu_wait_lane = LaneOfItems(LaneKind::kCpuWaits, r.cpu_waits.size());
    std::vector<Link> links;
    auto add = [&](TimeNs to_ts, int to_track, uint32_t wait, uint32_t to_lane, uint32_t s,
                   bool cpu) {
      const auto& signal = r.signals[s];
      int from_track = TrackOfSignal(signal);
      if (from_track < 0 || to_track < 0) return;
      // A CPU signal is a tick on its thread's mark row, below the lanes.
      auto from_lane = signal.cpu ? model.tracks[from_track].lanes.size() : signal_lane[s];
      links.push_back({signal.executed, to_ts, from_track, to_track, wait, s,
                             static_cast<uint32_t>(from_lane), to_lane, cpu});
    };
    // One link per linked wait whose both ends were seen; GPU waits end at `unblocked` on their
    // queue's track, CPU waits at `released` on their thread's.
    auto add_waits = [&](const auto& waits, auto end_field, auto owner_field,
                         const auto& track_of_owner, const auto& lanes, bool cpu) {
      for (uint32_t w = 0; w < waits.size(); ++w) {
        const auto& wait = waits[w];
        if (wait.signal == kNoIndex || wait.*end_field == kUnknownTime) continue;
        if (r.signals[wait.signal].executed == kUnknownTime) continue;
        if (wait.*owner_field >= track_of_owner.size()) continue;
        add(wait.*end_field, track_of_owner[wait.*owner_field], w, lanes[w], wait.signal, cpu);
      }
    };
    namespace ca = core::analysis;
    add_waits(r.waits, &ca::WaitBox::unblocked, &ca::WaitBox::queue, track_of_queue, wait_lane,
              false);
    add_waits(r.cpu_waits, &ca::CpuWait::released, &ca::CpuWait::thread, track_of_thread,
              cpu_wait_lane, true);
    std::stable_sort(links.begin(), links.end(),
                     [](const Link& a, const Link& b) { return a.to_ts < b.to_ts; });
    for (const auto& l : links) {
      model.longest_link_ns = std::max(model.longest_link_ns, l.to_ts - l.from_ts);
    }
    model.links.Assign(links);
  }
};

}  // namespace

std::string ProcessGroupLabel(const core::model::Process& process) {
  const std::string pid = fmt::format("pid {}", process.pid);
  const std::string& name = process.name;
  if (name.empty() || name == pid || name == core::model::UnnamedProcessName(process.pid)) {
    return "Process " + pid;
  }
  if (name.find("(" + pid + ")") != std::string::npos) return "Process " + name;
  return fmt::format("Process {} ({})", name, pid);
}

TimelineModel BuildTimelineModel(const TraceStore& store, const Reconstruction& r) {
  Builder b{store, r, {}, {}, {}, {}, {}, {}, {}};
  b.model.start = std::min(r.start_ns, store.start_ns());
  b.model.end = std::max(r.end_ns, store.end_ns());
  b.track_of_queue.assign(store.queues.size() + 1, -1);
  b.track_of_thread.assign(store.threads.size() + 1, -1);
  b.CollectRecordsDrawnAsIs();
  b.CollectQueueLengths();
  b.AddQueues();
  b.AddThreads(false);
  b.AddInterrupts();
  b.AddDisplayMarkers();
  b.AddThreads(true);
  if (!r.mode_changes.empty()) b.AddBackgroundGroup();
  b.AddLinks();
  b.model.link_index = BuildLinkIndex(b.model.links);
  b.model.vsync_lines = BuildVsyncLines(store, b.model.tracks);
  return std::move(b.model);
}

Lane MakeLane(LaneKind kind, uint32_t queue, const std::vector<uint32_t>& items,
              const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
              const std::vector<uint32_t>& names) {
  Lane lane;
  lane.kind = kind;
  lane.queue = queue;
  lane.items.Assign(items);
  lane.start.Assign(start);
  std::vector<TimeNs> length(start.size());
  for (size_t i = 0; i < start.size(); ++i) length[i] = end[i] - start[i];
  lane.length.Assign(length);
  lane.names.Assign(names);
  return lane;
}

CounterRow MakeCounterRow(std::string label, const std::vector<TimeNs>& ts,
                          const std::vector<uint32_t>& values) {
  CounterRow row;
  row.label = std::move(label);
  row.ts.Assign(ts);
  row.values.Assign(values);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i % kCounterBlock == 0) row.block_max.push_back(0);
    row.block_max.back() = std::max(row.block_max.back(), values[i]);
    row.max = std::max(row.max, values[i]);
  }
  return row;
}

uint32_t CounterRow::ValueAt(TimeNs t) const {
  const size_t after = ts.UpperBound(t);
  return after == 0 ? 0 : values[after - 1];
}

uint32_t CounterRow::MaxIn(TimeNs t0, TimeNs t1) const {
  // the step in force at t0, and every step that begins inside (t0, t1)
  size_t first = ts.UpperBound(t0);
  const size_t last = ts.LowerBound(t1, first);
  uint32_t best = first == 0 ? 0 : values[first - 1];
  while (first < last && first % kCounterBlock != 0) best = std::max(best, values[first++]);
  while (first + kCounterBlock <= last) {
    best = std::max(best, block_max[first / kCounterBlock]);
    first += kCounterBlock;
  }
  while (first < last) best = std::max(best, values[first++]);
  return best;
}

size_t TimelineModel::HeapBytes() const {
  size_t bytes = groups.capacity() * sizeof(TrackGroup) + tracks.capacity() * sizeof(Track) +
                 links.HeapBytes() + link_index.HeapBytes() + vsync_lines.HeapBytes();
  for (const auto& t : tracks) {
    bytes += t.lanes.capacity() * sizeof(Lane) + t.marks.capacity() * sizeof(MarkLane);
    for (const auto& l : t.lanes) {
      bytes +=
          l.items.HeapBytes() + l.start.HeapBytes() + l.length.HeapBytes() + l.names.HeapBytes();
    }
    for (const auto& m : t.marks) {
      bytes += m.items.HeapBytes() + m.ts.HeapBytes() + m.marker_type.HeapBytes();
    }
    bytes += t.counter.ts.HeapBytes() + t.counter.values.HeapBytes() +
             t.counter.block_max.capacity() * sizeof(uint32_t);
  }
  return bytes;
}

ResolvedSpan ResolveSpan(LaneKind kind, uint32_t queue, uint32_t item, const TraceStore& store,
                         const Reconstruction& r, TimeNs trace_end) {
  auto span = [](TimeNs start, TimeNs end) { return ResolvedSpan{start, std::max(start, end)}; };
  switch (kind) {
    case LaneKind::kRunSegments: {
      const auto& seg = r.queues[queue].segments[item];
      return span(seg.start, seg.end);
    }
    case LaneKind::kSignals: {
      const auto& s = r.signals[item];
      TimeNs start = Known(s.queued, Known(s.executed, trace_end));
      return span(start, Known(s.executed, trace_end));
    }
    case LaneKind::kWaits: {
      const auto& w = r.waits[item];
      return span(Known(w.Begin(), trace_end), Known(w.unblocked, trace_end));
    }
    case LaneKind::kCpuWaits: {
      const auto& w = r.cpu_waits[item];
      return span(Known(w.Begin(), trace_end), Known(w.released, trace_end));
    }
    case LaneKind::kTasks: {
      const auto& t = r.tasks[item];
      return span(Known(t.Begin(), trace_end), Known(t.ended, trace_end));
    }
    case LaneKind::kMissing: {
      const auto& m = r.queues[queue].missing[item];
      return span(m.start, m.end);
    }
    case LaneKind::kCpuSlices: {
      const auto slice = core::model::events::CpuSlice::At(store.events, item);
      return span(slice.ts_ns, slice.ts_ns + slice.duration_ns);
    }
  }
  return {};
}

TimeNs ResolveMark(MarkKind kind, uint32_t queue, uint32_t item, const TraceStore& store,
                   const Reconstruction& r) {
  switch (kind) {
    case MarkKind::kInterrupts:
      return r.interrupts[item].ts;
    case MarkKind::kModeChanges:
      return r.mode_changes[item].ts;
    case MarkKind::kCommits:
      return r.mode_changes[item].commit_completed;
    case MarkKind::kCpuSignals:
      return Known(r.signals[item].executed, r.signals[item].queued);
    case MarkKind::kSubmissions:
      return r.packets[item].submit;
    case MarkKind::kPreemptions:
      return r.queues[queue].segments[item].end;
    case MarkKind::kVariants:
      return store.events.ts[item];
    case MarkKind::kTdrs:
      return r.tdrs[item].ts;
    case MarkKind::kMarkers:
      return store.events.ts[item];
  }
  return 0;
}

}  // namespace app::gui::timeline
