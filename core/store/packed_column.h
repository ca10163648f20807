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
// word boundaries and a value never spans more than two words. Each block has a 12-byte header
// (base, first word); the width is the distance to the next header's first word.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include "core/store/by_value_iterator.h"
#include "core/store/gallop_search.h"

namespace core::cache {
struct PackedStorage;  // the trace cache saves and loads the storage (core/cache/serialize.h)
}

namespace core::store {

template <typename T>
class PackedColumn {
  static_assert(std::is_integral_v<T> || std::is_enum_v<T>);

 public:
  static constexpr size_t kBlock = 64;

  PackedColumn() = default;
  explicit PackedColumn(const std::vector<T>& values) { Assign(values); }

  void Assign(const std::vector<T>& values) {
    Clear();
    Reserve(values.size());
    for (size_t begin = 0; begin < values.size(); begin += kBlock) {
      AppendBlock(values.data() + begin, std::min(kBlock, values.size() - begin));
    }
    Finish();
  }

  // Building block by block, for a caller that produces the values in pieces (PackedTable packs
  // every field of a block of rows while the rows are in cache): Clear, AppendBlock with kBlock
  // values each (fewer only for the last), then Finish before the first read.
  void Clear() {
    m_size = 0;
    m_blocks.clear();
    m_bits.clear();
  }
  void Reserve(size_t values) { m_blocks.reserve((values + kBlock - 1) / kBlock + 1); }
  void AppendBlock(const T* values, size_t n) {
    int64_t lo = ToInt(values[0]), hi = lo;
    for (size_t i = 1; i < n; ++i) {
      const int64_t v = ToInt(values[i]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const unsigned width = range == 0 ? 0 : 64 - std::countl_zero(range);
    const size_t word = m_bits.size();
    m_blocks.push_back({lo, static_cast<uint32_t>(word)});
    m_size += n;
    if (width == 0) return;
    m_bits.resize(word + width, 0);
    uint64_t* out = m_bits.data() + word;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t delta = static_cast<uint64_t>(ToInt(values[i])) - static_cast<uint64_t>(lo);
      const size_t bit = i * width;
      out[bit >> 6] |= delta << (bit & 63);
      if ((bit & 63) + width > 64) out[(bit >> 6) + 1] |= delta >> (64 - (bit & 63));
    }
  }
  // Appends the values of `other`, a finished column, to this one, still being built (a column
  // read in pieces, each packed on its own thread). When this column holds a whole number of
  // blocks, `other`'s blocks are taken as they are (their words copied, their headers moved
  // along); otherwise this column's last, partial block and `other`'s values are packed again.
  void AppendColumn(const PackedColumn& other) {
    if (other.m_size == 0) return;
    if (m_size % kBlock == 0) {
      const auto offset = static_cast<uint32_t>(m_bits.size());
      const size_t blocks = other.m_blocks.size() - 1;  // without its sentinel
      m_blocks.reserve(m_blocks.size() + blocks + 1);
      for (size_t b = 0; b < blocks; ++b) {
        m_blocks.push_back({other.m_blocks[b].base, other.m_blocks[b].word + offset});
      }
      // without its two spare words
      m_bits.insert(m_bits.end(), other.m_bits.begin(), other.m_bits.end() - 2);
      m_size += other.m_size;
      return;
    }
    // Take the partial block off (it is the last one: its width is what follows its first
    // word), then pack its values followed by other's, a block at a time.
    T block[kBlock];
    size_t filled = m_size % kBlock;
    const BlockHeader last = m_blocks.back();
    const unsigned width = static_cast<unsigned>(m_bits.size() - last.word);
    for (size_t i = 0; i < filled; ++i) {
      block[i] = ValueInBlock(last.base, m_bits.data() + last.word, width, i);
    }
    m_blocks.pop_back();
    m_bits.resize(last.word);
    m_size -= filled;
    for (size_t from = 0; from < other.m_size;) {
      const size_t take = std::min(kBlock - filled, other.m_size - from);
      other.Decode(from, take, block + filled);
      from += take;
      filled += take;
      if (filled == kBlock || from == other.m_size) {
        AppendBlock(block, filled);
        filled = 0;
      }
    }
  }
  void Finish() {
    if (m_size == 0) {  // an empty column holds no memory at all
      std::vector<BlockHeader>().swap(m_blocks);
      std::vector<uint64_t>().swap(m_bits);
      return;
    }
    // The sentinel header closes the last block's width; the two spare words let a read of a
    // block's bits always load two words without leaving the vector.
    m_blocks.push_back({0, static_cast<uint32_t>(m_bits.size())});
    m_bits.resize(m_bits.size() + 2, 0);
    m_blocks.shrink_to_fit();
    m_bits.shrink_to_fit();
  }

  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  // Always inlined: PackedTable rows decode every field through here, and the compiler can only
  // drop the fields a caller does not read when it sees the whole decode.
  [[gnu::always_inline]] T operator[](size_t i) const {
    const BlockHeader* block = m_blocks.data() + i / kBlock;
    return ValueInBlock(block[0].base, m_bits.data() + block[0].word, block[1].word - block[0].word,
                        i % kBlock);
  }
  // Values [first, first + count) into out: a block's header is read once for all its values,
  // which makes a run of neighbouring values several times cheaper than operator[] on each.
  void Decode(size_t first, size_t count, T* out) const {
    for (size_t i = first, end = first + count; i < end;) {
      const BlockHeader* block = m_blocks.data() + i / kBlock;
      const unsigned width = block[1].word - block[0].word;
      const uint64_t base = static_cast<uint64_t>(block[0].base);
      const size_t block_end = std::min(end, (i / kBlock + 1) * kBlock);
      if (width == 0) {
        for (; i < block_end; ++i) *out++ = FromInt(static_cast<int64_t>(base));
        continue;
      }
      const uint64_t* in = m_bits.data() + block[0].word;
      const uint64_t mask = width < 64 ? (uint64_t{1} << width) - 1 : ~uint64_t{0};
      for (size_t bit = (i % kBlock) * width; i < block_end; ++i, bit += width) {
        // Both words, without a branch on whether the value spans them (a branch that a run of
        // values takes at random): (next << 1) << (63 - shift) is 0 when shift is 0.
        const unsigned shift = bit & 63;
        const uint64_t delta =
            (in[bit >> 6] >> shift) | ((in[(bit >> 6) + 1] << 1) << (63 - shift));
        *out++ = FromInt(static_cast<int64_t>(base + (delta & mask)));
      }
    }
  }

  // Calls f(i) for each index i whose value is `value`, in order: a block at a time, decoded
  // with Decode, and a block of one repeated other value skipped whole. For scans of a whole
  // column for one value (the events of one kind), several times cheaper than [i] on each. On a
  // finished column (Finish(); every loaded one is), as Decode.
  template <typename F>
  void ForEachEqual(T value, F&& f) const {
    T decoded[kBlock];
    for (size_t first = 0; first < m_size; first += kBlock) {
      const BlockHeader* block = m_blocks.data() + first / kBlock;
      const size_t count = std::min(kBlock, m_size - first);
      if (block[1].word == block[0].word) {  // width 0: every value is the base
        if (FromInt(block[0].base) != value) continue;
        for (size_t i = first; i < first + count; ++i) f(i);
        continue;
      }
      Decode(first, count, decoded);
      for (size_t k = 0; k < count; ++k) {
        if (decoded[k] == value) f(first + k);
      }
    }
  }
  // Whether any value is `value`.
  bool Contains(T value) const {
    T decoded[kBlock];
    for (size_t first = 0; first < m_size; first += kBlock) {
      const size_t count = std::min(kBlock, m_size - first);
      Decode(first, count, decoded);
      if (std::find(decoded, decoded + count, value) != decoded + count) return true;
    }
    return false;
  }

  // For a column sorted ascending: the first index at or after `from` whose value is not less
  // than `value` (LowerBound) or greater than it (UpperBound), like std::lower_bound /
  // std::upper_bound over [from, size()). The search gallops over the block headers from
  // `from`'s block, so it reads the bits of one block only, and few headers when the answer is
  // near `from` (a view that moves a little from its last answer).
  size_t LowerBound(T value, size_t from = 0) const {
    return Bound([value](T element) { return element < value; }, from);
  }
  size_t UpperBound(T value, size_t from = 0) const {
    return Bound([value](T element) { return !(value < element); }, from);
  }

  T front() const { return (*this)[0]; }
  T back() const { return (*this)[m_size - 1]; }

  // Memory held, for the benchmarks.
  size_t HeapBytes() const {
    return m_blocks.capacity() * sizeof(BlockHeader) + m_bits.capacity() * sizeof(uint64_t);
  }

  using const_iterator = ByValueIterator<PackedColumn, T>;
  using iterator = const_iterator;

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, m_size}; }

  friend bool operator==(const PackedColumn& a, const PackedColumn& b) { return Equal(a, b); }
  friend bool operator==(const PackedColumn& a, const std::vector<T>& b) { return Equal(a, b); }

 private:
  friend struct core::cache::PackedStorage;
  template <typename Other>
  static bool Equal(const PackedColumn& a, const Other& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  // Value i of the block with frame of reference `base` whose bits start at `bits`, `width` bits
  // a value. A second word is read only when the value spans two (a column still being built
  // has no spare words after its last block).
  [[gnu::always_inline]] static T ValueInBlock(int64_t base, const uint64_t* bits, unsigned width,
                                               size_t i) {
    if (width == 0) return FromInt(base);
    const size_t bit = i * width;
    const uint64_t* in = bits + (bit >> 6);
    const unsigned shift = bit & 63;
    uint64_t delta = in[0] >> shift;
    if (shift + width > 64) delta |= in[1] << (64 - shift);
    if (width < 64) delta &= (uint64_t{1} << width) - 1;
    return FromInt(static_cast<int64_t>(static_cast<uint64_t>(base) + delta));
  }
  // First index >= from whose value is not `before` the bound, `before` true on a prefix of the
  // column.
  template <typename Before>
  size_t Bound(Before before, size_t from) const {
    if (from >= m_size) return m_size;
    const size_t blocks = m_blocks.size() - 1;  // without the sentinel
    // The first block after from's whose first value is not before the bound (blocks: none):
    // the bound lies in the block before it, or at its start.
    const size_t next = GallopFirstNotLess(from / kBlock + 1, blocks,
                                           [&](size_t b) { return before(FirstOfBlock(b)); });
    return GallopFirstNotLess(std::max(from, (next - 1) * kBlock), std::min(next * kBlock, m_size),
                              [&](size_t i) { return before((*this)[i]); });
  }
  // In a sorted column a block's first value is its smallest, the base, unless the values are
  // 64-bit unsigned ones past INT64_MAX (their order differs from the bases' signed order).
  T FirstOfBlock(size_t b) const {
    using Int =
        std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::type_identity<T>>;
    if constexpr (std::is_signed_v<typename Int::type> || sizeof(T) < sizeof(int64_t)) {
      return FromInt(m_blocks[b].base);
    } else {
      return (*this)[b * kBlock];
    }
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

  // A block's smallest value and its first word in m_bits, 12 bytes. Its width (bits per
  // value, 0 when every value is the base) is the distance to the next block's first word, since
  // a block of width w occupies exactly w words; a sentinel header follows the last block.
  struct [[gnu::packed]] BlockHeader {
    int64_t base;
    uint32_t word;
  };
  static_assert(sizeof(BlockHeader) == 12);

  size_t m_size = 0;
  std::vector<BlockHeader> m_blocks;  // [block] + the sentinel
  std::vector<uint64_t> m_bits;
};

}  // namespace core::store
