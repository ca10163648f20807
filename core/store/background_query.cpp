#include "core/store/background_query.h"

namespace core::store {

BackgroundQuery::~BackgroundQuery() {
  Stop();
  Join();
}

void BackgroundQuery::Join() {
  if (m_thread.joinable()) m_thread.join();
}

void BackgroundQuery::Start(const std::filesystem::path& trace, const std::string& sql,
                            size_t max_rows, double timeout_seconds) {
  Stop();
  Join();
  {
    std::lock_guard lock(m_mutex);
    m_outcome.reset();
  }
  m_stop = false;
  m_running = true;
  m_started = std::chrono::steady_clock::now();
  m_thread = std::thread([this, trace, sql, max_rows, timeout_seconds] {
    QueryOutcome outcome;
    try {
      outcome.result = RunQuery(trace, sql, max_rows, timeout_seconds, &m_stop);
    } catch (const QueryStopped&) {
      outcome.stopped = true;
    } catch (const std::exception& e) {
      outcome.error = e.what();
    }
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    std::lock_guard lock(m_mutex);
    m_outcome = std::move(outcome);
    m_running = false;
  });
}

void BackgroundQuery::Stop() {
  if (m_running.load()) m_stop = true;
}

void BackgroundQuery::Wait() {
  Join();
}

double BackgroundQuery::ElapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
}

std::optional<QueryOutcome> BackgroundQuery::TakeOutcome() {
  std::lock_guard lock(m_mutex);
  std::optional<QueryOutcome> outcome = std::move(m_outcome);
  m_outcome.reset();
  return outcome;
}

}  // namespace core::store
