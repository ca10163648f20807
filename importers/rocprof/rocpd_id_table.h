// Rows of a rocpd table kept by their integer id for lookups from other tables (an event's
// correlation id and category by rocpd_event id, a call's stream and event handles by the same
// id). rocprofv3 numbers its rows 1, 2, 3, ...: then a row is found by its position, and the
// table costs its values alone (a hash map of the 4 M events of a 1 GB file cost ~230 MB, this
// ~65 MB); ids out of order or with gaps are sorted and found by binary search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace importers::rocprof {

template <typename Value>
class RocpdIdTable {
 public:
  // Adds a row; rows of the same id are merged by Seal().
  void Add(int64_t id, const Value& value) {
    if (!m_ids.empty() && id <= m_ids.back()) m_sorted = false;
    m_ids.push_back(id);
    m_values.push_back(value);
  }
  // The value of the row last added when it has id `id`, else of a new row `id`: for rows
  // read in the order of their ids, several giving parts of one value. Only before Seal().
  Value& Last(int64_t id) {
    if (m_ids.empty() || m_ids.back() != id) Add(id, Value{});
    return m_values.back();
  }

  // After the last Add: sorts the rows when they came out of order, merging those of one id in
  // the order they were added (`merge(earlier, later)`; by default the later replaces the
  // earlier), and finds whether the ids run 1 by 1 from the first, when no lookup needs a search.
  template <typename Merge>
  void Seal(Merge&& merge) {
    if (!m_sorted) {
      std::vector<uint32_t> order(m_ids.size());
      for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t a, uint32_t b) { return m_ids[a] < m_ids[b]; });
      std::vector<int64_t> ids;
      std::vector<Value> values;
      ids.reserve(order.size());
      values.reserve(order.size());
      for (uint32_t i : order) {
        if (!ids.empty() && ids.back() == m_ids[i]) {
          merge(values.back(), m_values[i]);
        } else {
          ids.push_back(m_ids[i]);
          values.push_back(m_values[i]);
        }
      }
      m_ids = std::move(ids);
      m_values = std::move(values);
      m_sorted = true;
    }
    // (unsigned: ids are the file's, any int64)
    m_dense = m_ids.empty() || static_cast<uint64_t>(m_ids.back()) -
                                       static_cast<uint64_t>(m_ids.front()) + 1 ==
                                   m_ids.size();
    m_first = m_ids.empty() ? 0 : m_ids.front();
    if (m_dense) std::vector<int64_t>().swap(m_ids);  // a row's position is its id's
  }
  void Seal() {
    Seal([](Value& earlier, const Value& later) { earlier = later; });
  }

  // The value of row `id`, or nullptr. After Seal().
  const Value* Find(int64_t id) const {
    if (m_dense) {
      const uint64_t position = static_cast<uint64_t>(id) - static_cast<uint64_t>(m_first);
      return position < m_values.size() ? &m_values[position] : nullptr;
    }
    auto it = std::lower_bound(m_ids.begin(), m_ids.end(), id);
    if (it == m_ids.end() || *it != id) return nullptr;
    return &m_values[static_cast<size_t>(it - m_ids.begin())];
  }

 private:
  std::vector<int64_t> m_ids;  // sorted once sealed; empty when dense
  std::vector<Value> m_values;
  int64_t m_first = 0;
  bool m_sorted = true;
  bool m_dense = true;
};

}  // namespace importers::rocprof
