// A growing array kept in fixed blocks of 65,536 elements: appending never moves what is there
// (a std::vector doubling holds its old and its new buffer at once, and for the records of a
// large import that copy was the import's peak: a rocpd file's 2.5 M records, 151 MB, were
// copied into 302 MB while the CUDA mapping added its records), references stay valid, and the
// blocks a reader has finished with can be freed front to back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace importers {

template <typename T>
class RecordBlocks {
 public:
  static constexpr size_t kShift = 16;
  static constexpr size_t kBlock = size_t{1} << kShift;

  void push_back(const T& value) {
    if ((m_size & (kBlock - 1)) == 0) m_blocks.push_back(std::make_unique<T[]>(kBlock));
    m_blocks.back()[m_size & (kBlock - 1)] = value;
    ++m_size;
  }
  T& operator[](size_t i) { return m_blocks[i >> kShift][i & (kBlock - 1)]; }
  const T& operator[](size_t i) const { return m_blocks[i >> kShift][i & (kBlock - 1)]; }
  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  // Frees every block wholly before element `end`: reading them afterwards is an error.
  void FreeBlocksBefore(size_t end) {
    for (size_t b = 0; b < (end >> kShift) && b < m_blocks.size(); ++b) m_blocks[b].reset();
  }
  void clear() {
    m_blocks.clear();
    m_blocks.shrink_to_fit();
    m_size = 0;
  }

  // Each element in order.
  template <typename F>
  void ForEach(F&& f) const {
    for (size_t i = 0; i < m_size; ++i) f((*this)[i]);
  }

 private:
  std::vector<std::unique_ptr<T[]>> m_blocks;
  size_t m_size = 0;
};

}  // namespace importers
