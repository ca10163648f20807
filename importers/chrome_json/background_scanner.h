// Runs a JsonContainerScanner on its own thread and hands its event spans to the caller in
// batches through a small bounded queue, so finding event boundaries (a byte-by-byte walk of
// the file) overlaps with parsing the events found so far on the calling thread.
//
// The order of everything the caller sees is the order of a plain scanner.Next() loop: every
// span before a malformed place is handed out first, then Next() rethrows the scanner's
// core::Error. The scanner's results (truncated(), top_level(), ...) may be read once Next()
// has returned false. Destroying the object early (the caller threw) stops and joins the thread.
// Without `own_thread` Next() runs the scanner itself, batch by batch, handing out the same
// batches in the same order (for small imports, where starting a thread does not pay).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "importers/chrome_json/json_container_scanner.h"

namespace importers::chrome_json {

class BackgroundScanner {
 public:
  // `scanner` must outlive this object and must not be used until Next() returned false.
  explicit BackgroundScanner(JsonContainerScanner& scanner, bool own_thread = true);
  ~BackgroundScanner();
  BackgroundScanner(const BackgroundScanner&) = delete;
  BackgroundScanner& operator=(const BackgroundScanner&) = delete;

  // Replaces `batch` with the next spans in file order; false at the end (batch left empty).
  // Rethrows the scanner's error once the spans before it have been handed out.
  bool Next(std::vector<EventSpan>* batch);

 private:
  void Run();
  bool NextInLine(std::vector<EventSpan>* batch);

  JsonContainerScanner& m_scanner;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<std::vector<EventSpan>> m_full;   // batches ready for the caller
  std::vector<std::vector<EventSpan>> m_spare;  // emptied batches handed back for reuse
  bool m_finished = false;  // the scanner reached the end or failed
  bool m_stop = false;      // the caller gave up
  std::exception_ptr m_error;
  std::thread m_thread;
};

}  // namespace importers::chrome_json
