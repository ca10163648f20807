// Runs one read-only query (RunQuery, core/store/query.h) on a thread of its own, so that a
// window stays responsive while it runs; Stop() ends it within a few SQLite VM steps (the stop
// flag is checked by the query's progress handler) and leaves the object ready for the next.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/store/query.h"

namespace core::store {

// How a query run by BackgroundQuery ended.
struct QueryOutcome {
  QueryResult result;  // filled only on success
  std::string error;   // empty on success and when stopped
  bool stopped = false;
  double seconds = 0;  // from Start() to the end of the run
};

class BackgroundQuery {
 public:
  BackgroundQuery() = default;
  ~BackgroundQuery();  // stops a running query and waits for its thread
  BackgroundQuery(const BackgroundQuery&) = delete;
  BackgroundQuery& operator=(const BackgroundQuery&) = delete;

  // Starts `sql` on `trace`; a query still running is stopped first and its outcome dropped.
  void Start(const std::filesystem::path& trace, const std::string& sql, size_t max_rows,
             double timeout_seconds = kDefaultQueryTimeoutSeconds);
  // Asks the running query to stop; it ends with QueryOutcome::stopped. No effect when idle.
  void Stop();
  // Blocks until the running query (if any) has ended.
  void Wait();
  bool Running() const { return m_running.load(); }
  bool StopRequested() const { return m_stop.load(); }
  // Seconds since the running (or last) query started.
  double ElapsedSeconds() const;
  // The outcome of the query that ended, once; nullopt while running or when already taken.
  std::optional<QueryOutcome> TakeOutcome();

 private:
  void Join();

  std::thread m_thread;
  std::atomic<bool> m_stop{false};
  std::atomic<bool> m_running{false};
  std::chrono::steady_clock::time_point m_started{};
  std::mutex m_mutex;
  std::optional<QueryOutcome> m_outcome;  // guarded by m_mutex
};

}  // namespace core::store
