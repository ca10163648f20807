#include "importers/common/cuda_stream_timing.h"

#include <algorithm>

namespace importers::cuda {

StreamTiming::StreamTiming(const std::vector<CudaPacket>& packets) : m_packets(packets) {
  for (uint32_t i = 0; i < packets.size(); ++i) {
    const CudaPacket& p = packets[i];
    m_by_queue[p.queue].push_back({p.submit, p.end, i, i});
    m_ends_by_device[p.process].push_back({p.end, i});
  }
  for (auto& [queue, list] : m_by_queue) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Entry& a, const Entry& b) { return a.submit < b.submit; });
    for (size_t k = 1; k < list.size(); ++k) {
      if (list[k - 1].running_end > list[k].running_end) {
        list[k].running_end = list[k - 1].running_end;
        list[k].running_packet = list[k - 1].running_packet;
      }
    }
  }
  for (auto& [device, list] : m_ends_by_device) std::sort(list.begin(), list.end());
}

StreamTiming::Completion StreamTiming::CompletedAfter(core::model::QueueId queue, TimeNs t) const {
  auto it = m_by_queue.find(queue);
  if (it == m_by_queue.end()) return {t, kNone};
  const auto& list = it->second;
  auto pos = std::lower_bound(list.begin(), list.end(), t,
                              [](const Entry& e, TimeNs v) { return e.submit < v; });
  if (pos == list.begin()) return {t, kNone};
  const Entry& last = *std::prev(pos);
  if (last.running_end <= t) return {t, last.running_packet};
  return {last.running_end, last.running_packet};
}

uint32_t StreamTiming::NextLaunched(core::model::QueueId queue, TimeNs t) const {
  auto it = m_by_queue.find(queue);
  if (it == m_by_queue.end()) return kNone;
  const auto& list = it->second;
  auto pos = std::lower_bound(list.begin(), list.end(), t,
                              [](const Entry& e, TimeNs v) { return e.submit < v; });
  return pos == list.end() ? kNone : pos->packet;
}

uint32_t StreamTiming::LatestEndBefore(uint32_t device, core::model::QueueId except,
                                       TimeNs not_before, TimeNs t) const {
  auto it = m_ends_by_device.find(device);
  if (it == m_ends_by_device.end()) return kNone;
  const auto& list = it->second;
  auto pos = std::upper_bound(list.begin(), list.end(), std::make_pair(t, kNone));
  while (pos != list.begin()) {
    --pos;
    if (pos->first < not_before) return kNone;
    if (m_packets[pos->second].queue != except) return pos->second;
  }
  return kNone;
}

}  // namespace importers::cuda
