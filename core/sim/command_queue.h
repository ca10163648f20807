// A HW queue's commands in submission order: taken from the front, added at the back. Kept as
// one vector and the index of its front, the taken commands dropped once they are at least half
// of it, instead of a std::deque, which allocates a block for every three commands (168 bytes
// each) and frees it as they are taken: a replay pushes and takes one command per packet.
#pragma once

#include <cstddef>
#include <vector>

#include "core/sim/gpu_command.h"

namespace core::sim {

class CommandQueue {
 public:
  using const_iterator = std::vector<GpuCommand>::const_iterator;

  bool empty() const { return m_head == m_commands.size(); }
  size_t size() const { return m_commands.size() - m_head; }
  GpuCommand& front() { return m_commands[m_head]; }
  const GpuCommand& front() const { return m_commands[m_head]; }
  const GpuCommand& operator[](size_t i) const { return m_commands[m_head + i]; }
  const_iterator begin() const { return m_commands.begin() + static_cast<ptrdiff_t>(m_head); }
  const_iterator end() const { return m_commands.end(); }

  void push_back(const GpuCommand& command) { m_commands.push_back(command); }
  void pop_front() {
    if (++m_head == m_commands.size()) {
      clear();
    } else if (m_head >= kCompactAfter && m_head * 2 >= m_commands.size()) {
      // The taken commands are at least half: dropping them moves no more than was taken.
      m_commands.erase(m_commands.begin(), m_commands.begin() + static_cast<ptrdiff_t>(m_head));
      m_head = 0;
    }
  }
  void clear() {
    m_commands.clear();
    m_head = 0;
  }

 private:
  static constexpr size_t kCompactAfter = 64;
  std::vector<GpuCommand> m_commands;  // [m_head, end): the queue's commands, oldest first
  size_t m_head = 0;
};

}  // namespace core::sim
