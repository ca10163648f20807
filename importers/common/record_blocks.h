// A growing array kept in blocks: appending never moves what is there (a std::vector doubling
// holds its old and its new buffer at once, and for the records of a large import that copy was
// the import's peak: a rocpd file's 2.5 M records, 151 MB, were copied into 302 MB while the
// CUDA mapping added its records), references stay valid, and the blocks a reader has finished
// with can be freed one at a time.
//
// The first blocks grow, 1,024 elements, then 1,024, 2,048, ... 32,768 (65,536 in all), and
// every block after holds 65,536: an import of a few records allocates a few pages, not a block
// of 4.7 MB (allocating and clearing whole blocks was most of the time of a small import, as
// the fuzz harnesses run them).
//
//   element  0 .. 1023 | 1024 .. 2047 | 2048 .. 4095 | ... | 32768 .. 65535 | 65536 .. 131071 | ...
//   block    0         | 1            | 2            | ... | 6              | 7               | ...
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace importers {

template <typename T>
class RecordBlocks {
 public:
  static constexpr size_t kShift = 16;
  static constexpr size_t kBlock = size_t{1} << kShift;  // the size of the blocks after the first
  static constexpr size_t kFirstShift = 10;
  static constexpr size_t kGrowingBlocks = kShift - kFirstShift + 1;  // blocks 0 .. 6

  void push_back(const T& value) {
    if (m_blocks.empty() || m_blocks.back().size() == m_blocks.back().capacity()) {
      const size_t size = BlockSize(m_blocks.size());
      m_blocks.emplace_back().reserve(size);
    }
    m_blocks.back().push_back(value);
    ++m_size;
  }
  T& operator[](size_t i) {
    const auto [block, offset] = Place(i);
    return m_blocks[block][offset];
  }
  const T& operator[](size_t i) const {
    const auto [block, offset] = Place(i);
    return m_blocks[block][offset];
  }
  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  // Elements the blocks held now have room for.
  size_t capacity() const {
    size_t n = 0;
    for (const std::vector<T>& block : m_blocks) n += block.capacity();
    return n;
  }

  // The block element `i` is in, and how many blocks there are.
  static size_t BlockOf(size_t i) { return Place(i).block; }
  size_t block_count() const { return m_blocks.size(); }
  // Frees block `block`: reading its elements afterwards is an error.
  void FreeBlock(size_t block) { std::vector<T>().swap(m_blocks[block]); }
  // How many elements block `block` holds (fewer than BlockSize for the last).
  size_t BlockLength(size_t block) const { return m_blocks[block].size(); }

  void clear() {
    m_blocks.clear();
    m_blocks.shrink_to_fit();
    m_size = 0;
  }

  // Each element in order.
  template <typename F>
  void ForEach(F&& f) const {
    for (const std::vector<T>& block : m_blocks) {
      for (const T& value : block) f(value);
    }
  }

  static constexpr size_t BlockSize(size_t block) {
    if (block == 0) return size_t{1} << kFirstShift;
    if (block < kGrowingBlocks) return size_t{1} << (kFirstShift + block - 1);
    return kBlock;
  }

 private:
  struct Where {
    size_t block, offset;
  };
  static Where Place(size_t i) {
    if (i >= kBlock) return {kGrowingBlocks - 1 + (i >> kShift), i & (kBlock - 1)};
    if (i < (size_t{1} << kFirstShift)) return {0, i};
    const size_t block = static_cast<size_t>(std::bit_width(i)) - kFirstShift;  // 1 .. 6
    return {block, i - (size_t{1} << (kFirstShift + block - 1))};
  }

  std::vector<std::vector<T>> m_blocks;  // each reserved for BlockSize(its index) elements
  size_t m_size = 0;
};

}  // namespace importers
