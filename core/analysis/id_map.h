// IdMap: the reconstruction's maps from a record's id (packet, signal, wait, task ids; event
// indices) to the index of its box. An open-addressing table with linear probing, keys and
// values in two flat arrays.
//
// Why not std::unordered_map: the reconstruction looks an id up for nearly every record, and a
// node-based map costs a pointer chase (a cache miss on a large trace) per lookup and an
// allocation per insert; here a lookup reads one or two neighbouring slots of one array.
//
// Slots: ids usually come in one sequence, and a record looks up ids issued shortly before its
// own, so a key's home slot is at first the id's low bits: consecutive ids take consecutive slots
// and the lookups move through the table as a stream the processor prefetches (on a 10M-event
// trace the reconstruction takes about a third less time than with a hash that scatters the
// ids). Ids that are not one sequence (two ranges that meet once reduced to the table's size,
// addresses stepping by a power of two, random ids) would fill long runs of neighbouring slots:
// a key that would land kLongProbe or more slots past its home switches the table to a
// multiplicative hash, for good. Until then every key lies within kLongProbe slots of its home,
// so a lookup of an absent id stops there even inside a long run of consecutive ids.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace core::analysis {

template <typename Key, typename Value>
class IdMap {
  static_assert(std::is_integral_v<Key>);

 public:
  // Room for `n` keys without growing.
  void Reserve(size_t n) {
    if (n * 2 > m_keys.size()) Rehash(std::bit_ceil(std::max<size_t>(n * 2, 16)));
  }
  size_t size() const { return m_size + (m_has_empty_key ? 1 : 0); }

  // The value of `key`, nullptr when it has none.
  const Value* Find(Key key) const {
    if (key == kEmpty) return m_has_empty_key ? &m_empty_key_value : nullptr;
    if (m_keys.empty()) return nullptr;
    size_t slot = Home(key);
    for (size_t probes = 0; m_scatter || probes < kLongProbe; ++probes) {
      if (m_keys[slot] == key) return &m_values[slot];
      if (m_keys[slot] == kEmpty) return nullptr;
      slot = (slot + 1) & m_mask;
    }
    return nullptr;  // farther than any key lies from its home
  }
  Value* Find(Key key) { return const_cast<Value*>(std::as_const(*this).Find(key)); }

  // The value of `key`, inserted as Value{} when it has none (std::map's operator[]).
  Value& operator[](Key key) { return *Insert(key, Value{}); }
  // Sets `key`'s value only when it has none; true when it was inserted.
  bool TryEmplace(Key key, Value value) {
    const size_t before = size();
    Insert(key, value);
    return size() != before;
  }

 private:
  // Keys are ids from the trace, any value; this one marks an empty slot and, when it is a key
  // itself, is kept aside.
  static constexpr Key kEmpty = std::numeric_limits<Key>::min();
  static constexpr size_t kLongProbe = 64;

  size_t Home(Key key) const {
    const auto k = static_cast<uint64_t>(key);
    if (!m_scatter) return static_cast<size_t>(k) & m_mask;
    return static_cast<size_t>((k * 0x9E3779B97F4A7C15ULL) >> 32) & m_mask;
  }

  Value* Insert(Key key, const Value& value) {
    if (key == kEmpty) {
      if (!m_has_empty_key) m_empty_key_value = value;
      m_has_empty_key = true;
      return &m_empty_key_value;
    }
    if ((m_size + 1) * 2 > m_keys.size()) Rehash(std::max<size_t>(m_keys.size() * 2, 16));
    if (Value* placed = Place(key, value)) return placed;
    m_scatter = true;
    Rehash(m_keys.size());
    return Place(key, value);
  }

  // The slot of `key` (found, or filled with `value`); nullptr when, with slots following the
  // ids, it would lie kLongProbe or more slots past its home (nothing is placed then).
  Value* Place(Key key, const Value& value) {
    size_t slot = Home(key);
    for (size_t probes = 0; m_keys[slot] != kEmpty; slot = (slot + 1) & m_mask) {
      if (m_keys[slot] == key) return &m_values[slot];
      if (!m_scatter && ++probes == kLongProbe) return nullptr;
    }
    m_keys[slot] = key;
    m_values[slot] = value;
    ++m_size;
    return &m_values[slot];
  }

  void Rehash(size_t capacity) {
    std::vector<Key> old_keys(capacity, kEmpty);
    std::vector<Value> old_values(capacity);
    old_keys.swap(m_keys);
    old_values.swap(m_values);
    m_mask = capacity - 1;
    while (true) {
      m_size = 0;
      bool placed_all = true;
      for (size_t i = 0; i < old_keys.size() && placed_all; ++i) {
        if (old_keys[i] != kEmpty) placed_all = Place(old_keys[i], old_values[i]) != nullptr;
      }
      if (placed_all) return;
      m_scatter = true;  // and again, with the keys scattered
      std::fill(m_keys.begin(), m_keys.end(), kEmpty);
    }
  }

  std::vector<Key> m_keys;
  std::vector<Value> m_values;
  size_t m_mask = 0;
  size_t m_size = 0;  // keys in the table (the empty-marker key not counted)
  // Home slots: the id's low bits at first, a multiplicative hash once ids showed they are not
  // one sequence (above).
  bool m_scatter = false;
  bool m_has_empty_key = false;
  Value m_empty_key_value{};
};

}  // namespace core::analysis
