// EventFilterWorker: runs the event table's text filter (FilterEventsSql) on a thread of its own
// with its own SQLite connection, so the window stays responsive while millions of records are
// scanned. A newer request supersedes an older one: the older query is interrupted and its
// result never shown. Stores that still hold their bulk columns are filtered in memory
// (FilterEvents) on the same thread, so callers need not care which kind of store they have.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"

namespace app::gui::state {

struct EventFilterRequest {
  size_t first = 0;  // event index window [first, last)
  size_t last = 0;
  int kind = 0;      // 0: any kind
  std::string text;  // see FilterEvents
  friend bool operator==(const EventFilterRequest&, const EventFilterRequest&) = default;
};

struct EventFilterResult {
  EventFilterRequest request;
  std::vector<uint32_t> indices;  // sorted event indices
  std::string error;              // non-empty: the filter failed (indices empty)
};

class EventFilterWorker {
 public:
  // `store` must outlive the worker. Opens the worker's connection to store.path now when the
  // bulk columns are released (so it keeps reading the file that was loaded). Throws core::Error.
  explicit EventFilterWorker(const core::store::TraceStore& store);
  ~EventFilterWorker();
  EventFilterWorker(const EventFilterWorker&) = delete;
  EventFilterWorker& operator=(const EventFilterWorker&) = delete;

  // Starts filtering with `request`; whatever was running or waiting is dropped.
  void Start(EventFilterRequest request);
  // True from Start() until the result of the latest request is ready.
  bool Busy() const { return m_busy.load(); }
  // The result of the latest request, once, when it is ready.
  std::optional<EventFilterResult> TakeResult();

 private:
  void Run();
  static int OnProgress(void* self);

  const core::store::TraceStore& m_store;
  std::unique_ptr<core::store::Database> m_db;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::optional<EventFilterRequest> m_pending;  // guarded by m_mutex
  std::optional<EventFilterResult> m_result;    // guarded by m_mutex
  bool m_stop = false;                          // guarded by m_mutex
  std::atomic<uint64_t> m_latest{0};   // generation of the newest request
  std::atomic<uint64_t> m_running{0};  // generation of the request being filtered
  std::atomic<bool> m_busy{false};
  std::thread m_thread;  // last: started once everything above exists
};

}  // namespace app::gui::state
