#include "core/analysis/resource_hazards.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

#include "core/model/event_types.h"

namespace core::analysis {

const char* HazardKindName(HazardKind kind) {
  switch (kind) {
    case HazardKind::kWriteWrite: return "write_write";
    case HazardKind::kWriteRead: return "write_read";
    case HazardKind::kReadWrite: return "read_write";
  }
  return "unknown";
}

namespace {

constexpr size_t kCompareWindow = 32;
constexpr size_t kMaxListed = 1000;

using Clock = std::vector<uint32_t>;  // [queue id]

void Merge(Clock& into, const Clock& from) {
  for (size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

struct Access {
  uint32_t packet = kNoIndex;
  QueueId queue = 0;
  TimeNs ts = 0;
  int64_t offset = 0;
  int64_t length = 0;
  bool write = false;
};

// Vector clocks of packets: the clock each packet started with and its completion tick.
class PacketClocks {
 public:
  PacketClocks(const Reconstruction& r, const std::vector<bool>& wanted) {
    size_t queues = r.queues.size();
    enum Order { kEnd = 0, kSignal = 1, kUnblock = 2, kRelease = 3, kSubmit = 4, kStart = 5 };
    struct Item {
      TimeNs ts;
      int order;
      uint32_t index;
    };
    std::vector<Item> items;
    for (uint32_t p = 0; p < r.packets.size(); ++p) {
      const Packet& packet = r.packets[p];
      if (packet.submit != kUnknownTime) items.push_back({packet.submit, kSubmit, p});
      if (packet.start != kUnknownTime) items.push_back({packet.start, kStart, p});
      if (packet.end != kUnknownTime) items.push_back({packet.end, kEnd, p});
    }
    for (uint32_t s = 0; s < r.signals.size(); ++s) {
      if (r.signals[s].executed != kUnknownTime) items.push_back({r.signals[s].executed, kSignal, s});
    }
    for (uint32_t w = 0; w < r.waits.size(); ++w) {
      if (r.waits[w].unblocked != kUnknownTime && r.waits[w].signal != kNoIndex) {
        items.push_back({r.waits[w].unblocked, kUnblock, w});
      }
    }
    for (uint32_t w = 0; w < r.cpu_waits.size(); ++w) {
      if (r.cpu_waits[w].released != kUnknownTime && r.cpu_waits[w].signal != kNoIndex) {
        items.push_back({r.cpu_waits[w].released, kRelease, w});
      }
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.order < b.order;
    });
    std::vector<Clock> queue_clock(queues, Clock(queues, 0));
    std::vector<Clock> thread_clock(r.threads.size(), Clock(queues, 0));
    std::unordered_map<uint32_t, Clock> signal_clock;
    std::unordered_map<uint32_t, Clock> submit_clock;
    auto queue_ok = [&](QueueId q) { return q != 0 && q < queues; };
    auto thread_ok = [&](ThreadId t) { return t != 0 && t < r.threads.size(); };
    for (const Item& item : items) {
      switch (item.order) {
        case kEnd: {
          const Packet& p = r.packets[item.index];
          if (!queue_ok(p.queue)) break;
          uint32_t tick = ++queue_clock[p.queue][p.queue];
          if (wanted[item.index]) m_end_tick[item.index] = tick;
          break;
        }
        case kSignal: {
          const SignalBox& s = r.signals[item.index];
          if (s.cpu && thread_ok(s.thread)) signal_clock[item.index] = thread_clock[s.thread];
          else if (!s.cpu && queue_ok(s.queue)) signal_clock[item.index] = queue_clock[s.queue];
          break;
        }
        case kUnblock: {
          const WaitBox& w = r.waits[item.index];
          auto it = signal_clock.find(w.signal);
          if (queue_ok(w.queue) && it != signal_clock.end()) Merge(queue_clock[w.queue], it->second);
          break;
        }
        case kRelease: {
          const CpuWait& w = r.cpu_waits[item.index];
          auto it = signal_clock.find(w.signal);
          if (thread_ok(w.thread) && it != signal_clock.end()) {
            Merge(thread_clock[w.thread], it->second);
          }
          break;
        }
        case kSubmit: {
          const Packet& p = r.packets[item.index];
          if (thread_ok(p.thread)) submit_clock[item.index] = thread_clock[p.thread];
          break;
        }
        case kStart: {
          const Packet& p = r.packets[item.index];
          if (!queue_ok(p.queue)) break;
          auto it = submit_clock.find(item.index);
          if (it != submit_clock.end()) {
            Merge(queue_clock[p.queue], it->second);
            submit_clock.erase(it);
          }
          if (wanted[item.index]) m_start_clock[item.index] = queue_clock[p.queue];
          break;
        }
      }
    }
  }

  // Packet a completed before packet b started, as far as fences and submissions tell.
  bool HappensBefore(uint32_t a, QueueId a_queue, uint32_t b) const {
    auto tick = m_end_tick.find(a);
    auto clock = m_start_clock.find(b);
    if (tick == m_end_tick.end() || clock == m_start_clock.end()) return false;
    return a_queue < clock->second.size() && clock->second[a_queue] >= tick->second;
  }

 private:
  std::unordered_map<uint32_t, uint32_t> m_end_tick;
  std::unordered_map<uint32_t, Clock> m_start_clock;
};

}  // namespace

HazardAnalysis FindResourceHazards(const core::store::TraceStore& store, const Reconstruction& r) {
  HazardAnalysis out;
  const auto& ev = store.events;
  std::unordered_map<int64_t, uint32_t> packet_by_id;
  for (uint32_t p = 0; p < r.packets.size(); ++p) packet_by_id[r.packets[p].packet_id] = p;
  std::map<ResourceId, std::vector<Access>> by_resource;
  std::vector<bool> wanted(r.packets.size(), false);
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] != EventKind::ResourceAccess) continue;
    ++out.accesses;
    const auto access = events::ResourceAccess::At(ev, i);
    auto it = packet_by_id.find(access.packet_id);
    if (it == packet_by_id.end()) continue;
    wanted[it->second] = true;
    by_resource[access.resource_id].push_back(
        {it->second, access.queue_id != 0 ? access.queue_id : r.packets[it->second].queue,
         access.ts_ns, access.offset_bytes, access.length_bytes, access.access == 1});
  }
  if (by_resource.empty()) return out;
  PacketClocks clocks(r, wanted);
  for (auto& [resource, accesses] : by_resource) {
    auto start_of = [&](const Access& a) {
      TimeNs s = r.packets[a.packet].start;
      return s != kUnknownTime ? s : a.ts;
    };
    std::stable_sort(accesses.begin(), accesses.end(),
                     [&](const Access& a, const Access& b) { return start_of(a) < start_of(b); });
    std::map<QueueId, std::deque<const Access*>> recent;
    for (const Access& b : accesses) {
      for (auto& [queue, list] : recent) {
        if (queue == b.queue) continue;
        for (const Access* a : list) {
          if (!a->write && !b.write) continue;
          int64_t lo = std::max(a->offset, b.offset);
          int64_t hi = std::min(a->offset + a->length, b.offset + b.length);
          if (hi <= lo) continue;
          if (clocks.HappensBefore(a->packet, a->queue, b.packet) ||
              clocks.HappensBefore(b.packet, b.queue, a->packet)) {
            continue;
          }
          ++out.hazards;
          if (out.list.size() < kMaxListed) {
            HazardKind kind = a->write && b.write ? HazardKind::kWriteWrite
                              : a->write          ? HazardKind::kWriteRead
                                                  : HazardKind::kReadWrite;
            out.list.push_back({resource, kind, a->packet, b.packet, a->queue, b.queue, a->ts,
                                b.ts, lo, hi - lo});
          }
        }
      }
      auto& mine = recent[b.queue];
      mine.push_back(&b);
      if (mine.size() > kCompareWindow) mine.pop_front();
    }
  }
  std::stable_sort(out.list.begin(), out.list.end(),
                   [](const ResourceHazard& a, const ResourceHazard& b) {
                     return a.second_ts < b.second_ts;
                   });
  return out;
}

}  // namespace core::analysis
