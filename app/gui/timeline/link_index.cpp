#include "app/gui/timeline/link_index.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

namespace app::gui::timeline {

LinkIndex BuildLinkIndex(const LinkTable& links) {
  LinkIndex index;
  const size_t n = links.size();
  auto decoded = [n](const auto& column) {
    std::vector<std::remove_cvref_t<decltype(column[0])>> values(n);
    column.Decode(0, n, values.data());
    return values;
  };
  const auto from_ts = decoded(links.Column<&Link::from_ts>());
  const auto to_ts = decoded(links.Column<&Link::to_ts>());
  const auto from_track = decoded(links.Column<&Link::from_track>());
  const auto to_track = decoded(links.Column<&Link::to_track>());
  const auto signal = decoded(links.Column<&Link::signal>());
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tuple(from_track[a], to_track[a], from_ts[a]) <
           std::tuple(from_track[b], to_track[b], from_ts[b]);
  });
  std::vector<TimeNs> ts;
  std::vector<uint32_t> members;
  for (size_t k = 0; k < n;) {
    LinkPair pair;
    pair.from_track = from_track[order[k]];
    pair.to_track = to_track[order[k]];
    ts.clear();
    members.clear();
    for (; k < n && from_track[order[k]] == pair.from_track && to_track[order[k]] == pair.to_track;
         ++k) {
      const uint32_t l = order[k];
      ts.push_back(from_ts[l]);
      members.push_back(l);
      pair.longest_ns = std::max(pair.longest_ns, to_ts[l] - from_ts[l]);
    }
    pair.from_ts.Assign(ts);
    pair.links.Assign(members);
    index.pairs.push_back(std::move(pair));
  }
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return signal[a] < signal[b]; });
  std::vector<uint32_t> signals(n);
  for (size_t k = 0; k < n; ++k) signals[k] = signal[order[k]];
  index.by_signal.Assign(signals);
  index.by_signal_link.Assign(order);
  return index;
}

size_t LinkIndex::HeapBytes() const {
  size_t bytes =
      pairs.capacity() * sizeof(LinkPair) + by_signal.HeapBytes() + by_signal_link.HeapBytes();
  for (const auto& p : pairs) bytes += p.from_ts.HeapBytes() + p.links.HeapBytes();
  return bytes;
}

}  // namespace app::gui::timeline
