// ByValueIterator: a random-access iterator over a read-only container whose operator[] returns
// values, not references (PackedColumn, PackedTable). Dereferencing decodes element i; `it->x`
// reads through a copy. Works with the standard algorithms (lower_bound, partition_point, ...).
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>

namespace core::store {

template <typename Container, typename T>
class ByValueIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = T;
  struct pointer {
    T value;
    const T* operator->() const { return &value; }
  };

  ByValueIterator() = default;
  ByValueIterator(const Container* container, size_t i) : m_container(container), m_i(i) {}
  // Inlined so that a caller reading one field of a row lets the compiler drop the others.
  [[gnu::always_inline]] T operator*() const { return (*m_container)[m_i]; }
  [[gnu::always_inline]] pointer operator->() const { return {(*m_container)[m_i]}; }
  [[gnu::always_inline]] T operator[](difference_type n) const { return (*m_container)[m_i + n]; }
  ByValueIterator& operator++() { ++m_i; return *this; }
  ByValueIterator operator++(int) { auto copy = *this; ++m_i; return copy; }
  ByValueIterator& operator--() { --m_i; return *this; }
  ByValueIterator operator--(int) { auto copy = *this; --m_i; return copy; }
  ByValueIterator& operator+=(difference_type n) { m_i += n; return *this; }
  ByValueIterator& operator-=(difference_type n) { m_i -= n; return *this; }
  friend ByValueIterator operator+(ByValueIterator it, difference_type n) { return it += n; }
  friend ByValueIterator operator+(difference_type n, ByValueIterator it) { return it += n; }
  friend ByValueIterator operator-(ByValueIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const ByValueIterator& a, const ByValueIterator& b) {
    return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
  }
  friend bool operator==(const ByValueIterator& a, const ByValueIterator& b) {
    return a.m_i == b.m_i;
  }
  friend auto operator<=>(const ByValueIterator& a, const ByValueIterator& b) {
    return a.m_i <=> b.m_i;
  }

 private:
  const Container* m_container = nullptr;
  size_t m_i = 0;
};

}  // namespace core::store
