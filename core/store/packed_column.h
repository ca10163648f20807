// PackedColumn: a read-only column of integers (or enums) bit-packed in blocks of 64, with O(1)
// random access. Each block stores its minimum (the frame of reference) and the values minus
// that minimum in the fewest bits that hold the block's range.
//
// Why: the columns of a trace are mostly small or slowly changing numbers (ids of a handful of
// queues, fence values, timestamps a few microseconds apart once sorted), so a block of 64
// usually needs a few bits per value instead of 64. A 10M-event trace then takes about a fifth
// of the memory plain vectors would, which is what lets the window hold large traces.
//
//   values   1000 1003 1001 1010 | ...          block: base 1000, width 4 bits
//   stored   0    3    1    10   | ...          -> 64 values in 4 words instead of 64
//
// A block of width w occupies exactly w 64-bit words (64 values x w bits), so blocks start on
// word boundaries and a value never spans more than two words.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

namespace core::store {

template <typename T>
class PackedColumn {
  static_assert(std::is_integral_v<T> || std::is_enum_v<T>);

 public:
  static constexpr size_t kBlock = 64;

  PackedColumn() = default;
  explicit PackedColumn(const std::vector<T>& values) { Assign(values); }

  void Assign(const std::vector<T>& values) {
    m_size = values.size();
    const size_t blocks = (m_size + kBlock - 1) / kBlock;
    m_base.assign(blocks, 0);
    m_width.assign(blocks, 0);
    m_word.assign(blocks, 0);
    m_bits.clear();
    size_t words = 0;
    for (size_t b = 0; b < blocks; ++b) {
      const size_t begin = b * kBlock, end = std::min(begin + kBlock, m_size);
      int64_t lo = ToInt(values[begin]), hi = lo;
      for (size_t i = begin + 1; i < end; ++i) {
        int64_t v = ToInt(values[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
      const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
      const unsigned width = range == 0 ? 0 : 64 - std::countl_zero(range);
      m_base[b] = lo;
      m_width[b] = static_cast<uint8_t>(width);
      m_word[b] = static_cast<uint32_t>(words);
      words += width;
    }
    m_bits.assign(words + 1, 0);  // + 1: a read of the word after the last never leaves
    for (size_t b = 0; b < blocks; ++b) {
      const unsigned width = m_width[b];
      if (width == 0) continue;
      uint64_t* out = m_bits.data() + m_word[b];
      const size_t begin = b * kBlock, end = std::min(begin + kBlock, m_size);
      for (size_t i = begin; i < end; ++i) {
        const uint64_t delta =
            static_cast<uint64_t>(ToInt(values[i])) - static_cast<uint64_t>(m_base[b]);
        const size_t bit = (i - begin) * width;
        out[bit >> 6] |= delta << (bit & 63);
        if ((bit & 63) + width > 64) out[(bit >> 6) + 1] |= delta >> (64 - (bit & 63));
      }
    }
    m_bits.shrink_to_fit();
  }

  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  T operator[](size_t i) const {
    const size_t b = i / kBlock;
    const unsigned width = m_width[b];
    if (width == 0) return FromInt(m_base[b]);
    const size_t bit = (i % kBlock) * width;
    const uint64_t* in = m_bits.data() + m_word[b] + (bit >> 6);
    const unsigned shift = bit & 63;
    uint64_t delta = in[0] >> shift;
    if (shift + width > 64) delta |= in[1] << (64 - shift);
    if (width < 64) delta &= (uint64_t{1} << width) - 1;
    return FromInt(static_cast<int64_t>(static_cast<uint64_t>(m_base[b]) + delta));
  }
  T front() const { return (*this)[0]; }
  T back() const { return (*this)[m_size - 1]; }

  // Memory held, for the benchmarks.
  size_t HeapBytes() const {
    return m_base.capacity() * sizeof(int64_t) + m_width.capacity() +
           m_word.capacity() * sizeof(uint32_t) + m_bits.capacity() * sizeof(uint64_t);
  }

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using reference = T;
    using pointer = void;
    const_iterator() = default;
    const_iterator(const PackedColumn* column, size_t i) : m_column(column), m_i(i) {}
    T operator*() const { return (*m_column)[m_i]; }
    T operator[](difference_type n) const { return (*m_column)[m_i + n]; }
    const_iterator& operator++() { ++m_i; return *this; }
    const_iterator operator++(int) { auto copy = *this; ++m_i; return copy; }
    const_iterator& operator--() { --m_i; return *this; }
    const_iterator operator--(int) { auto copy = *this; --m_i; return copy; }
    const_iterator& operator+=(difference_type n) { m_i += n; return *this; }
    const_iterator& operator-=(difference_type n) { m_i -= n; return *this; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.m_i == b.m_i;
    }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
      return a.m_i <=> b.m_i;
    }

   private:
    const PackedColumn* m_column = nullptr;
    size_t m_i = 0;
  };
  using iterator = const_iterator;

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, m_size}; }

  friend bool operator==(const PackedColumn& a, const PackedColumn& b) { return Equal(a, b); }
  friend bool operator==(const PackedColumn& a, const std::vector<T>& b) { return Equal(a, b); }

 private:
  template <typename Other>
  static bool Equal(const PackedColumn& a, const Other& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  static int64_t ToInt(T v) {
    if constexpr (std::is_enum_v<T>) {
      return static_cast<int64_t>(static_cast<std::underlying_type_t<T>>(v));
    } else {
      return static_cast<int64_t>(v);
    }
  }
  static T FromInt(int64_t v) {
    if constexpr (std::is_enum_v<T>) {
      return static_cast<T>(static_cast<std::underlying_type_t<T>>(v));
    } else {
      return static_cast<T>(v);
    }
  }

  size_t m_size = 0;
  std::vector<int64_t> m_base;   // [block] smallest value
  std::vector<uint8_t> m_width;  // [block] bits per value (0: every value is the base)
  std::vector<uint32_t> m_word;  // [block] first word in m_bits
  std::vector<uint64_t> m_bits;
};

}  // namespace core::store
