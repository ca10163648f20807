#include "app/gui/state/event_filter_worker.h"

#include <sqlite3.h>

#include <exception>
#include <utility>

#include "app/gui/state/event_filter.h"

namespace app::gui::state {

EventFilterWorker::EventFilterWorker(const core::store::TraceStore& store) : m_store(store) {
  if (m_store.events.bulk_released) {
    m_db = std::make_unique<core::store::Database>(m_store.path.string(),
                                                   core::store::Database::Mode::kReadOnly);
    // Every few thousand virtual-machine steps SQLite asks whether to go on: a newer request
    // stops the running query (it then fails with SQLITE_INTERRUPT).
    sqlite3_progress_handler(m_db->handle(), 4096, &EventFilterWorker::OnProgress, this);
  }
  m_thread = std::thread([this] { Run(); });
}

EventFilterWorker::~EventFilterWorker() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
    m_pending.reset();
    ++m_latest;  // interrupts a running query
  }
  m_wake.notify_all();
  m_thread.join();
}

int EventFilterWorker::OnProgress(void* self) {
  auto* worker = static_cast<EventFilterWorker*>(self);
  return worker->m_latest.load() != worker->m_running.load() ? 1 : 0;
}

void EventFilterWorker::Start(EventFilterRequest request) {
  {
    std::lock_guard lock(m_mutex);
    m_pending = std::move(request);
    m_result.reset();
    m_busy = true;
    ++m_latest;  // under the lock: the worker takes a request and its generation together
  }
  m_wake.notify_all();
}

std::optional<EventFilterResult> EventFilterWorker::TakeResult() {
  std::lock_guard lock(m_mutex);
  return std::exchange(m_result, std::nullopt);
}

void EventFilterWorker::Run() {
  for (;;) {
    EventFilterRequest request;
    uint64_t generation = 0;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stop || m_pending.has_value(); });
      if (m_stop) return;
      request = std::move(*m_pending);
      m_pending.reset();
      generation = m_latest.load();
      m_running = generation;
    }
    EventFilterResult result;
    result.request = request;
    try {
      result.indices =
          m_db ? FilterEventsSql(m_store, *m_db, request.first, request.last, request.kind,
                                 request.text)
               : FilterEvents(m_store, request.first, request.last, request.kind, request.text);
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    std::lock_guard lock(m_mutex);
    // Superseded (by a newer request or by shutdown): drop it, the newer one is queued.
    if (generation != m_latest.load() || m_pending.has_value()) continue;
    m_result = std::move(result);
    m_busy = false;
  }
}

}  // namespace app::gui::state
