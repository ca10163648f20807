// A HW queue's commands in submission order: taken from the front, added at the back. Kept in a
// ring of a power-of-two number of slots that doubles when full, instead of a std::deque, which
// allocates a block for every three commands (168 bytes each) and frees it as they are taken: a
// replay pushes and takes one command per packet, with thousands pending where the host runs
// ahead of the GPU (a vector dropping its taken front would move each command once more).
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

#include "core/sim/gpu_command.h"

namespace core::sim {

class CommandQueue {
 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = GpuCommand;
    using difference_type = std::ptrdiff_t;
    using pointer = const GpuCommand*;
    using reference = const GpuCommand&;

    const_iterator(const CommandQueue* queue, size_t i) : m_queue(queue), m_i(i) {}
    reference operator*() const { return (*m_queue)[m_i]; }
    pointer operator->() const { return &(*m_queue)[m_i]; }
    const_iterator& operator++() {
      ++m_i;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return m_i == other.m_i; }

   private:
    const CommandQueue* m_queue;
    size_t m_i;
  };

  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  GpuCommand& front() { return m_ring[m_head]; }
  const GpuCommand& front() const { return m_ring[m_head]; }
  const GpuCommand& operator[](size_t i) const {
    return m_ring[(m_head + i) & (m_ring.size() - 1)];
  }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, m_size}; }

  void push_back(const GpuCommand& command) {
    if (m_size == m_ring.size()) Grow();
    m_ring[(m_head + m_size) & (m_ring.size() - 1)] = command;
    ++m_size;
  }
  void pop_front() {
    m_head = (m_head + 1) & (m_ring.size() - 1);
    if (--m_size == 0) m_head = 0;
  }
  void clear() {
    m_head = 0;
    m_size = 0;
  }

 private:
  // Twice the slots (8 at first), the commands moved to the front in order.
  void Grow() {
    std::vector<GpuCommand> ring(m_ring.empty() ? 8 : 2 * m_ring.size());
    for (size_t i = 0; i < m_size; ++i) ring[i] = (*this)[i];
    m_ring.swap(ring);
    m_head = 0;
  }

  std::vector<GpuCommand> m_ring;  // its size a power of two (or 0)
  size_t m_head = 0;               // the front's slot
  size_t m_size = 0;
};

}  // namespace core::sim
