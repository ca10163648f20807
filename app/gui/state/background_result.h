// BackgroundResult: a figure a panel shows for a key (a time range), computed on a worker thread
// so that the window keeps drawing while it is computed (a range over tens of millions of
// events takes seconds). One computation at a time: a key asked for while another computes
// starts when that one ends (a computation cannot be interrupted; its result is dropped when
// its key is no longer the one shown).
//
// Lifetime: the computation reads the document; Wait() (called by the destructor) must run
// before the document it reads goes away, which MainWindow does through each view's Reset().
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <utility>

namespace app::gui::state {

template <typename Key, typename T>
class BackgroundResult {
 public:
  BackgroundResult() = default;
  BackgroundResult(const BackgroundResult&) = delete;
  BackgroundResult& operator=(const BackgroundResult&) = delete;
  ~BackgroundResult() { Wait(); }

  // The value for `key`: at once when known, else nullptr while `compute` runs (started here
  // when nothing else runs). `compute` must stay valid to call from another thread.
  const T* Get(const Key& key, std::function<T()> compute) {
    Collect();
    if (m_value && m_key == key) return &*m_value;
    if (!m_running) {
      m_running_key = key;
      m_future = std::async(std::launch::async, std::move(compute));
      m_running = true;
    }
    return nullptr;
  }
  // The value for `key` when it is known; starts nothing.
  const T* Peek(const Key& key) {
    Collect();
    return m_value && m_key == key ? &*m_value : nullptr;
  }
  // A value known without computing (precomputed at load).
  void Set(const Key& key, T value) {
    m_key = key;
    m_value = std::move(value);
  }
  bool Computing() const { return m_running; }
  // Waits for a running computation and forgets every value.
  void Reset() {
    Wait();
    m_value.reset();
  }
  // Waits for a running computation; its value is then known (screenshots wait for it).
  void Wait() {
    if (m_running) {
      m_future.wait();
      Collect();
    }
  }

 private:
  // Takes a finished computation's value.
  void Collect() {
    if (!m_running ||
        m_future.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return;
    }
    m_value = m_future.get();
    m_key = m_running_key;
    m_running = false;
  }

  Key m_key{};
  std::optional<T> m_value;
  bool m_running = false;
  Key m_running_key{};
  std::future<T> m_future;
};

}  // namespace app::gui::state
