#include "importers/chrome_json/background_scanner.h"

namespace importers::chrome_json {
namespace {

// 2048 spans are ~0.5-1 MB of JSON: big enough that the lock is taken rarely, small enough that
// parsing starts at once. Four batches in flight bound the memory to a few hundred KB.
constexpr size_t kSpansPerBatch = 2048;
constexpr size_t kBatchesInFlight = 4;

}  // namespace

BackgroundScanner::BackgroundScanner(JsonContainerScanner& scanner, bool own_thread)
    : m_scanner(scanner) {
  if (own_thread) m_thread = std::thread([this] { Run(); });
}

BackgroundScanner::~BackgroundScanner() {
  if (!m_thread.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_thread.join();
}

void BackgroundScanner::Run() {
  std::vector<EventSpan> batch;
  batch.reserve(kSpansPerBatch);
  auto hand_over = [&](bool finished, std::exception_ptr error) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_stop || m_full.size() < kBatchesInFlight; });
    if (m_stop) return false;
    if (!batch.empty()) m_full.push_back(std::move(batch));
    m_finished = finished;
    m_error = error;
    if (!m_spare.empty()) {
      batch = std::move(m_spare.back());
      m_spare.pop_back();
    } else {
      batch = std::vector<EventSpan>();
      batch.reserve(kSpansPerBatch);
    }
    lock.unlock();
    m_changed.notify_all();
    return true;
  };
  try {
    EventSpan span;
    while (m_scanner.Next(&span)) {
      batch.push_back(span);
      if (batch.size() == kSpansPerBatch && !hand_over(false, nullptr)) return;
    }
    hand_over(true, nullptr);
  } catch (...) {
    hand_over(true, std::current_exception());
  }
}

bool BackgroundScanner::Next(std::vector<EventSpan>* batch) {
  if (!m_thread.joinable()) return NextInLine(batch);
  std::unique_lock<std::mutex> lock(m_mutex);
  if (batch->capacity() != 0) {
    batch->clear();
    m_spare.push_back(std::move(*batch));
  }
  *batch = std::vector<EventSpan>();
  m_changed.wait(lock, [&] { return !m_full.empty() || m_finished; });
  if (!m_full.empty()) {
    *batch = std::move(m_full.front());
    m_full.pop_front();
    lock.unlock();
    m_changed.notify_all();
    return true;
  }
  if (m_error) std::rethrow_exception(m_error);
  return false;
}

// The thread's work, on the caller's: a batch of spans as Run() fills it; the scanner's error
// once the spans before it have been handed out, as Next() rethrows it.
bool BackgroundScanner::NextInLine(std::vector<EventSpan>* batch) {
  batch->clear();
  if (!m_finished) {
    try {
      EventSpan span;
      while (batch->size() < kSpansPerBatch) {
        if (!m_scanner.Next(&span)) {
          m_finished = true;
          break;
        }
        batch->push_back(span);
      }
    } catch (...) {
      m_finished = true;
      m_error = std::current_exception();
    }
  }
  if (!batch->empty()) return true;
  if (m_error) std::rethrow_exception(m_error);
  return false;
}

}  // namespace importers::chrome_json
