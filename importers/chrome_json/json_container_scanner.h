// Walks the outside of a Chrome trace-event JSON file without building a tree of it: finds the
// event array (a bare `[...]`, or the `traceEvents` member of a top-level object) and hands out
// one event object at a time as a byte span, so each event can be parsed on its own and the
// memory used never depends on the size of the file. Top-level keys other than `traceEvents`
// are kept as text when they are scalars (displayTimeUnit, baseTimeNanoseconds, ...).
//
// Tolerated as the format allows: a bare array without its closing `]` (a crashed writer), a
// trailing comma before `]`. Anything else that is not JSON throws core::Error naming the byte
// offset, line and column.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace importers::chrome_json {

// The first bracket of `text` (outside strings) that does not close the bracket of its own kind:
// its offset in `text` and what is wrong, in the scanner's words ("unexpected '}' (expected
// ']')"); nullopt when every bracket matches. simdjson On Demand checks that brackets balance but
// not their kind inside values it skips unread (`"unread":{"a":[1}]`); this fills that gap at the
// speed of a scan for the structural bytes.
struct BracketMismatch {
  uint64_t offset = 0;
  std::string what;
};
std::optional<BracketMismatch> FindBracketMismatch(std::string_view text);

struct EventSpan {
  uint64_t offset = 0;  // byte offset of the event's first byte in the content
  std::string_view text;  // the event's JSON text (an object, or another value for bad input)
};

class JsonContainerScanner {
 public:
  // `content` must stay alive while the scanner is used. `label` names it in messages.
  JsonContainerScanner(std::string_view content, std::string label);

  // Next element of the event array; false at the end. Throws core::Error on malformed JSON.
  // With `lenient_truncation`, a file cut off inside its last event ends the array instead (the
  // caller counts it through truncated()).
  bool Next(EventSpan* span);

  bool is_object_container() const { return m_object_container; }
  // True when the array was never closed (allowed for a bare array).
  bool unterminated_array() const { return m_unterminated; }
  // Top-level scalar members, raw JSON text of the value (strings keep their quotes).
  const std::map<std::string, std::string>& top_level() const { return m_top_level; }
  // Top-level members that held an object or array (other than traceEvents), by name.
  const std::map<std::string, uint64_t>& top_level_structures() const { return m_structures; }
  // The JSON text of the top-level structure `key` (read before the event array), or "" when the
  // file has none.
  std::string_view TopLevelStructureText(const std::string& key) const {
    auto it = m_structure_text.find(key);
    return it == m_structure_text.end() ? std::string_view() : it->second;
  }
  void set_lenient_truncation(bool lenient) { m_lenient_truncation = lenient; }
  // Continues the event array at `offset`, the first byte of an event, after events the caller
  // has read without the scanner (parallel_event_parse.h). Only after Next() returned an event.
  void ResumeAt(uint64_t offset) {
    m_pos = offset;
    m_state = State::kInArray;
    m_expect_comma = false;
  }
  // Set when lenient truncation ended the array inside an event: offset of that event.
  bool truncated() const { return m_truncated; }
  uint64_t truncated_at() const { return m_truncated_at; }

 private:
  enum class State { kStart, kInObject, kInArray, kDone };
  [[noreturn]] void Fail(uint64_t offset, std::string_view what) const;
  void SkipSpace();
  // Returns the end offset of the value starting at `begin`; throws on malformed or truncated.
  uint64_t SkipValue(uint64_t begin, bool* truncated);
  uint64_t SkipString(uint64_t begin, bool* truncated);
  // Reads top-level object members up to the event array or the end.
  void ReadObjectMembers();

  std::string_view m_text;
  std::string m_label;
  uint64_t m_pos = 0;
  State m_state = State::kStart;
  bool m_object_container = false;
  bool m_unterminated = false;
  bool m_seen_events = false;
  bool m_expect_comma = false;
  bool m_lenient_truncation = false;
  bool m_truncated = false;
  uint64_t m_truncated_at = 0;
  std::map<std::string, std::string> m_top_level;
  std::map<std::string, uint64_t> m_structures;
  std::map<std::string, std::string_view> m_structure_text;
};

}  // namespace importers::chrome_json
