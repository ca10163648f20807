#include "importers/chrome_json/parallel_event_parse.h"

#include <cstring>
#include <future>

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

}  // namespace

uint64_t ParseEventsInParallel(std::string_view content, uint64_t start, ChromeEventParser& parser,
                               const std::function<void(uint64_t)>& progress) {
  ChromeEventParser other_parser;
  ParsedTrace parts[2];
  int part = 0;
  // The other thread's piece in flight: where it starts, and its result.
  std::future<bool> other;
  uint64_t other_start = 0;
  uint64_t own_start = start;
  while (true) {
    uint64_t own_end = 0, other_begin = 0, other_end = 0, next = 0;
    if (!FindCut(content, own_start + kOwnPieceBytes, &own_end, &other_begin) ||
        !FindCut(content, other_begin + kOtherPieceBytes, &other_end, &next)) {
      break;
    }
    // The previous piece of the other thread comes before this thread's new piece.
    const bool merge_previous = other.valid();
    if (merge_previous && !other.get()) return other_start;
    part ^= 1;
    other_start = other_begin;
    other = std::async(std::launch::async, [&, other_begin, other_end, target = &parts[part]] {
      other_parser.StartPart(*target);
      return other_parser.ParseEvents(other_begin,
                                      content.substr(other_begin, other_end - other_begin));
    });
    if (merge_previous) parser.Merge(parts[part ^ 1]);
    if (!parser.ParseEvents(own_start, content.substr(own_start, own_end - own_start))) {
      other.wait();
      return own_start;
    }
    own_start = next;
    if (progress) progress(own_start);
  }
  // The other thread's last piece (in parts[part]) comes before own_start.
  if (other.valid()) {
    if (!other.get()) return other_start;
    parser.Merge(parts[part]);
  }
  return own_start;
}

}  // namespace importers::chrome_json
