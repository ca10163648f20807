#include "importers/chrome_json/parallel_event_parse.h"

#include "importers/chrome_json/json_container_scanner.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "importers/chrome_json/json_container_scanner.h"

namespace importers::chrome_json {
namespace {

// Big enough that the hand-over between the threads is rare, small enough that a piece stays in
// the cache between simdjson's two stages and that the threads finish close together.
constexpr uint64_t kPieceBytes = 512 << 10;
// How far past the first possible cut FindCut looks for one that LooksLikeEvent.
constexpr uint64_t kCutSearchBytes = 64 << 10;
// Parts parsed ahead by the other thread and not merged yet: bounds the memory.
constexpr size_t kPartsAhead = 4;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// True when the object starting at `open` names its phase before any nested object: `"ph"`
// comes before the first '{' or '}' after the opening brace (within the first 512 bytes). Every
// trace event has a phase and writers put it before "args", while the objects nested in
// arguments (stack frames, say) seldom have one: a cut before such an object is most likely
// between two events.
bool LooksLikeEvent(std::string_view text, uint64_t open) {
  const uint64_t limit = std::min<uint64_t>(text.size(), open + 512);
  for (uint64_t p = open + 1; p + 4 <= limit; ++p) {
    const char c = text[p];
    if (c == '{' || c == '}') return false;
    if (c == '"' && text.compare(p, 4, "\"ph\"") == 0) return true;
  }
  return false;
}

// Finds, at or after `from`, a `}` followed by a `,` and a `{` (white space between allowed):
// `*end` is just past the `}`, `*next` is the `{`. Prefers a `{` that LooksLikeEvent within
// kCutSearchBytes, else takes the first candidate. False when there is none.
bool FindCut(std::string_view text, uint64_t from, uint64_t* end, uint64_t* next) {
  const char* data = text.data();
  const uint64_t size = text.size();
  const uint64_t search_end = from + kCutSearchBytes;
  bool have_first = false;
  while (from < size) {
    const void* hit = std::memchr(data + from, '}', size - from);
    if (hit == nullptr) break;
    const uint64_t brace = static_cast<uint64_t>(static_cast<const char*>(hit) - data);
    if (have_first && brace > search_end) break;
    uint64_t p = brace + 1;
    while (p < size && IsSpace(data[p])) ++p;
    if (p < size && data[p] == ',') {
      ++p;
      while (p < size && IsSpace(data[p])) ++p;
      if (p < size && data[p] == '{') {
        if (LooksLikeEvent(text, p)) {
          *end = brace + 1;
          *next = p;
          return true;
        }
        if (!have_first) {
          *end = brace + 1;
          *next = p;
          have_first = true;
        }
      }
    }
    from = brace + 1;
  }
  return have_first;
}

using Piece = PieceRange;

}  // namespace

ParallelParseStop ParseEventsInParallel(std::string_view content, uint64_t start,
                                        ChromeEventParser& parser,
                                        const std::function<void(uint64_t)>& progress,
                                        std::vector<PieceRange>* unchecked) {
  // Plan the pieces (a cut is a short search, half a megabyte after the previous one). What
  // follows the last cut, the last event and the end of the array, is left to the scanner.
  std::vector<Piece> pieces;
  uint64_t rest = start;
  for (uint64_t end = 0, next = 0; FindCut(content, rest + kPieceBytes, &end, &next); rest = next) {
    pieces.push_back({rest, end});
  }
  if (pieces.size() < 2) return {start, 0};
  auto parse_piece = [&](ChromeEventParser& into, const Piece& piece) {
    const std::string_view text = content.substr(piece.begin, piece.end - piece.begin);
    if (unchecked == nullptr && FindBracketMismatch(text)) return false;
    return into.ParseEvents(piece.begin, text);
  };

  // Pieces are taken in file order by whichever thread is free. The other thread parses each
  // into a part; this thread merges the parts in file order, parses a piece straight into the
  // trace when every piece before it is merged, and otherwise (the next piece to merge is still
  // being parsed) parses a later piece into a part of its own rather than wait.
  ChromeEventParser other_parser;
  ChromeEventParser own_parser;
  parser.ForgetParts();  // the parsers of parts of an earlier call are gone
  std::mutex mutex;
  std::condition_variable changed;
  size_t next_piece = 0;
  std::vector<std::unique_ptr<ParsedPart>> parts(pieces.size());
  size_t other_waiting = 0, own_waiting = 0;  // parts parsed and not merged yet, per thread
  size_t other_failed = pieces.size();  // the first piece the other thread could not parse
  size_t own_failed = pieces.size();    // likewise, of those this thread parsed into parts
  std::exception_ptr other_error;
  bool stop = false;

  bool other_started = false;

  std::thread other([&] {
    std::unique_lock<std::mutex> lock(mutex);
    other_started = true;
    changed.notify_all();
    while (true) {
      changed.wait(lock, [&] { return stop || other_waiting < kPartsAhead; });
      if (stop || next_piece == pieces.size()) return;
      const size_t index = next_piece++;
      lock.unlock();
      auto part = std::make_unique<ParsedPart>();
      bool ok = false;
      std::exception_ptr error;
      try {
        ok = parse_piece(other_parser, pieces[index]);
        if (ok) other_parser.TakePart(*part);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (!ok) {
        // Its later pieces would follow a piece that is not merged: the scanner redoes them.
        other_failed = index;
        other_error = error;
        changed.notify_all();
        return;
      }
      part->source = 0;
      parts[index] = std::move(part);
      ++other_waiting;
      changed.notify_all();
    }
  });
  // Stops and joins the other thread however this function is left.
  struct Join {
    std::thread& thread;
    std::mutex& mutex;
    std::condition_variable& changed;
    bool& stop;
    ~Join() {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;
      }
      changed.notify_all();
      thread.join();
    }
  } join{other, mutex, changed, stop};

  std::unique_lock<std::mutex> lock(mutex);
  for (size_t merged = 0; merged < pieces.size();) {
    const Piece& piece = pieces[merged];
    if (other_failed == merged || own_failed == merged) {
      if (other_failed == merged && other_error) std::rethrow_exception(other_error);
      return {piece.begin, piece.end};
    }
    if (next_piece == merged && merged > 0 && !other_started) {
      // The first piece is this thread's; the next one waits for the other thread to start (a
      // small trace could otherwise be parsed here whole before it has).
      changed.wait(lock, [&] { return other_started; });
      continue;
    }
    if (next_piece == merged) {
      ++next_piece;
      lock.unlock();
      if (!parse_piece(parser, piece)) {
        return {piece.begin, piece.end};
      }
    } else if (parts[merged] != nullptr) {
      std::unique_ptr<ParsedPart> part = std::move(parts[merged]);
      --(part->source == 0 ? other_waiting : own_waiting);
      lock.unlock();
      changed.notify_all();
      parser.Merge(*part);
    } else if (next_piece < pieces.size() && own_failed == pieces.size() &&
               own_waiting < kPartsAhead) {
      const size_t index = next_piece++;
      lock.unlock();
      const Piece& later = pieces[index];
      auto part = std::make_unique<ParsedPart>();
      const bool ok = parse_piece(own_parser, later);
      if (ok) own_parser.TakePart(*part);
      part->source = 1;
      lock.lock();
      if (ok) {
        parts[index] = std::move(part);
        ++own_waiting;
      } else {
        own_failed = index;
      }
      continue;
    } else {
      changed.wait(lock);
      continue;
    }
    ++merged;
    if (unchecked) unchecked->push_back(piece);
    if (progress) progress(piece.end);
    lock.lock();
  }
  return {rest, 0};
}

}  // namespace importers::chrome_json
