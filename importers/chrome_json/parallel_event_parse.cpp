#include "importers/chrome_json/parallel_event_parse.h"

#include <cstring>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace importers::chrome_json {
namespace {

// Piece sizes: big enough that the hand-over between the threads is rare, small enough that a
// piece stays in the cache between simdjson's two stages. This thread also merges the other
// thread's pieces, so its own are smaller.
constexpr uint64_t kOwnPieceBytes = 768 << 10;
constexpr uint64_t kOtherPieceBytes = 1024 << 10;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Finds, at or after `from`, a `}` followed by a `,` and a `{` (white space between allowed):
// `*end` is just past the `}`, `*next` is the `{`. False when there is none.
bool FindCut(std::string_view text, uint64_t from, uint64_t* end, uint64_t* next) {
  const char* data = text.data();
  const uint64_t size = text.size();
  while (from < size) {
    const void* hit = std::memchr(data + from, '}', size - from);
    if (hit == nullptr) return false;
    const uint64_t brace = static_cast<uint64_t>(static_cast<const char*>(hit) - data);
    uint64_t p = brace + 1;
    while (p < size && IsSpace(data[p])) ++p;
    if (p < size && data[p] == ',') {
      ++p;
      while (p < size && IsSpace(data[p])) ++p;
      if (p < size && data[p] == '{') {
        *end = brace + 1;
        *next = p;
        return true;
      }
    }
    from = brace + 1;
  }
  return false;
}

// One job at a time on a thread kept for the whole parse (starting a thread per piece costs
// more than the hand-over).
class PieceThread {
 public:
  PieceThread() : m_thread([this] { Run(); }) {}
  ~PieceThread() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
  }
  void Start(std::function<bool()> job) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_job = std::move(job);
      m_busy = true;
    }
    m_changed.notify_all();
  }
  // Waits for the job started last; its result (rethrows what it threw).
  bool Wait() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_busy; });
    if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
    return m_result;
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (true) {
      m_changed.wait(lock, [&] { return m_stop || m_job; });
      if (m_stop) return;
      std::function<bool()> job = std::move(m_job);
      m_job = nullptr;
      lock.unlock();
      bool result = false;
      std::exception_ptr error;
      try {
        result = job();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      m_result = result;
      m_error = error;
      m_busy = false;
      m_changed.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::function<bool()> m_job;
  bool m_busy = false, m_stop = false, m_result = false;
  std::exception_ptr m_error;
  std::thread m_thread;
};

}  // namespace

uint64_t ParseEventsInParallel(std::string_view content, uint64_t start, ChromeEventParser& parser,
                               const std::function<void(uint64_t)>& progress) {
  ChromeEventParser other_parser;
  ParsedPart part;
  PieceThread other;  // declared after what its job uses: destroyed (joined) first
  bool other_in_flight = false;
  uint64_t other_start = 0;  // where the other thread's piece in flight starts
  uint64_t own_start = start;
  while (true) {
    uint64_t own_end = 0, other_begin = 0, other_end = 0, next = 0;
    if (!FindCut(content, own_start + kOwnPieceBytes, &own_end, &other_begin) ||
        !FindCut(content, other_begin + kOtherPieceBytes, &other_end, &next)) {
      break;
    }
    // The other thread's previous piece comes before this thread's new one.
    const bool merge_previous = other_in_flight;
    if (merge_previous) {
      if (!other.Wait()) return other_start;
      other_parser.TakePart(part);
    }
    other_start = other_begin;
    other_in_flight = true;
    other.Start([&, other_begin, other_end] {
      return other_parser.ParseEvents(other_begin,
                                      content.substr(other_begin, other_end - other_begin));
    });
    if (merge_previous) parser.Merge(part);
    if (!parser.ParseEvents(own_start, content.substr(own_start, own_end - own_start))) {
      other.Wait();
      return own_start;
    }
    own_start = next;
    if (progress) progress(own_start);
  }
  // The other thread's last piece comes before own_start.
  if (other_in_flight) {
    if (!other.Wait()) return other_start;
    other_parser.TakePart(part);
    parser.Merge(part);
  }
  return own_start;
}

}  // namespace importers::chrome_json
