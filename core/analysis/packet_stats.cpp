#include "core/analysis/packet_stats.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "core/analysis/percentiles.h"

namespace core::analysis {
namespace {

bool Counted(const Packet& p, DurationNs run_ns, const PacketStatsRange& range) {
  return run_ns >= 0 && p.end != kUnknownTime && range.Contains(p.end);
}

}  // namespace

std::vector<DurationNs> PacketRunTimes(const Reconstruction& r) {
  std::vector<DurationNs> run(r.packets.size(), -1);
  // A preempted packet's segments need not be next to each other in the queue's list (other
  // packets run in between), so they are summed by walking every segment once.
  for (const QueueTrack& q : r.queues) {
    for (const RunSegment& s : q.segments) {
      if (s.packet >= run.size() || s.open || s.reset) continue;
      DurationNs& total = run[s.packet];
      total = std::max<DurationNs>(total, 0) + (s.end - s.start);
    }
  }
  const auto& ends = r.packets.Column<&Packet::end>();
  for (size_t i = 0; i < run.size(); ++i) {
    if (ends[i] == kUnknownTime) run[i] = -1;
  }
  return run;
}

std::vector<PacketNameStats> ComputePacketStats(const core::store::TraceStore& store,
                                                const Reconstruction& r, PacketStatsRange range) {
  const std::vector<DurationNs> run = PacketRunTimes(r);
  std::map<std::pair<StringId, QueueId>, std::vector<DurationNs>> samples;
  for (uint32_t i = 0; i < r.packets.size(); ++i) {
    if (run[i] < 0) continue;
    const Packet p = r.packets[i];
    if (Counted(p, run[i], range)) samples[{p.name, p.queue}].push_back(run[i]);
  }
  std::vector<PacketNameStats> rows;
  rows.reserve(samples.size());
  for (auto& [key, durations] : samples) {
    PacketNameStats row;
    row.name = key.first;
    row.queue = key.second;
    for (DurationNs d : durations) row.total_ns += d;
    const Percentiles p = Summarise(durations);
    row.count = p.count;
    row.mean_ns = p.mean;
    row.p50_ns = p.p50;
    row.p99_ns = p.p99;
    row.max_ns = p.max;
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [&](const PacketNameStats& a, const PacketNameStats& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    const std::string& na = store.String(a.name);
    const std::string& nb = store.String(b.name);
    return std::tie(na, a.queue) < std::tie(nb, b.queue);
  });
  return rows;
}

std::vector<uint32_t> PacketsCounted(const Reconstruction& r, StringId name, QueueId queue,
                                     PacketStatsRange range) {
  const std::vector<DurationNs> run = PacketRunTimes(r);
  std::vector<uint32_t> out;
  const auto& names = r.packets.Column<&Packet::name>();
  const auto& queues = r.packets.Column<&Packet::queue>();
  for (uint32_t i = 0; i < r.packets.size(); ++i) {
    if (run[i] < 0 || names[i] != name || queues[i] != queue) continue;
    if (Counted(r.packets[i], run[i], range)) out.push_back(i);
  }
  return out;
}

void SortPacketStats(const core::store::TraceStore& store, std::vector<PacketNameStats>& rows,
                     PacketStatsColumn column, bool descending) {
  // Every column but the name sorts by a number (durations in ns are exact as doubles up to
  // 2^53 ns, about 104 days).
  auto number = [column](const PacketNameStats& r) {
    const double values[] = {0,
                             static_cast<double>(r.queue),
                             static_cast<double>(r.count),
                             static_cast<double>(r.total_ns),
                             r.mean_ns,
                             static_cast<double>(r.p50_ns),
                             static_cast<double>(r.p99_ns),
                             static_cast<double>(r.max_ns)};
    return values[static_cast<size_t>(column)];
  };
  auto less = [&](const PacketNameStats& a, const PacketNameStats& b) {
    if (column == PacketStatsColumn::kName) return store.String(a.name) < store.String(b.name);
    return number(a) < number(b);
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const PacketNameStats& a, const PacketNameStats& b) {
                     return descending ? less(b, a) : less(a, b);
                   });
}

std::string PacketLabel(const core::store::TraceStore& store, StringId name) {
  const std::string& text = store.String(name);
  return text.empty() ? std::string("(unnamed)") : text;
}

}  // namespace core::analysis
