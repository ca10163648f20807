#include "importers/chrome_json/json_container_scanner.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/common/text_place.h"

namespace importers::chrome_json {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Offset of the first '"', '{', '}', '[' or ']' at or after `p` (or `size`): the only bytes
// that matter when following the nesting of an event. Sixteen bytes per step with SSE2 (every
// x86-64 has it); the byte loop finishes the tail and other machines.
uint64_t FindStructural(const char* data, uint64_t p, uint64_t size) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i fold = _mm_set1_epi8(static_cast<char>(0xDF));  // '{' -> '[', '}' -> ']'
  const __m128i open = _mm_set1_epi8('[');
  const __m128i close = _mm_set1_epi8(']');
  while (p + 16 <= size) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    const __m128i folded = _mm_and_si128(bytes, fold);
    const __m128i hits = _mm_or_si128(
        _mm_cmpeq_epi8(bytes, quote),
        _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
    const int mask = _mm_movemask_epi8(hits);
    if (mask != 0) return p + static_cast<uint64_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    p += 16;
  }
#endif
  while (p < size) {
    const char c = data[p];
    if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']') return p;
    ++p;
  }
  return size;
}

// Offset just past the string that starts (with its quote) at `begin`; `size` and *truncated
// when it never ends.
uint64_t SkipStringFrom(const char* data, uint64_t begin, uint64_t size, bool* truncated) {
  // A backslash escapes the byte after it (\" and \\ included), so the string ends at the first
  // quote not consumed by an escape.
  uint64_t p = begin + 1;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (p + 16 <= size) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    const int mask = _mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)));
    if (mask == 0) {
      p += 16;
      continue;
    }
    p += static_cast<uint64_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    if (data[p] == '"') return p + 1;
    p += 2;
  }
#endif
  while (p < size) {
    if (data[p] == '"') return p + 1;
    p += data[p] == '\\' ? 2 : 1;
  }
  *truncated = true;
  return size;
}

// What following the brackets of some JSON text found (see FollowBrackets).
struct BracketWalk {
  uint64_t end = 0;        // just past the closing bracket, or the size of the text
  bool truncated = false;  // the text ended inside a string, or (until_closed) before the close
  std::optional<BracketMismatch> bad;  // a bracket closing the other kind, or too deep a nesting
};

// Follows the nesting of the brackets of data[p, size) (p outside a string) with a stack of the
// expected closing brackets, skipping strings. With `until_closed` it stops at the bracket that
// closes the one at `p`; otherwise it goes to the end of the text.
BracketWalk FollowBrackets(const char* data, uint64_t p, uint64_t size, bool until_closed) {
  BracketWalk walk;
  char expected[256];
  size_t depth = 0;
  while ((p = FindStructural(data, p, size)) < size) {
    const char c = data[p];
    if (c == '"') {
      p = SkipStringFrom(data, p, size, &walk.truncated);
      if (walk.truncated) break;
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth == sizeof(expected)) {
        walk.bad = BracketMismatch{p, "JSON nested more than 256 levels deep"};
        return walk;
      }
      expected[depth++] = c == '{' ? '}' : ']';
    } else if (depth == 0 || expected[depth - 1] != c) {
      walk.bad = BracketMismatch{
          p, fmt::format("unexpected '{}' (expected '{}')", c, depth ? expected[depth - 1] : ' ')};
      return walk;
    } else if (--depth == 0 && until_closed) {
      walk.end = p + 1;
      return walk;
    }
    ++p;
  }
  walk.end = size;
  walk.truncated = walk.truncated || until_closed;
  return walk;
}

}  // namespace

std::optional<BracketMismatch> FindBracketMismatch(std::string_view text) {
  BracketWalk walk = FollowBrackets(text.data(), 0, text.size(), false);
  if (walk.bad) return walk.bad;
  if (walk.truncated) return BracketMismatch{text.size(), "the text ends inside a string"};
  return std::nullopt;
}

JsonContainerScanner::JsonContainerScanner(std::string_view content, std::string label)
    : m_text(content), m_label(std::move(label)) {
  // A UTF-8 byte order mark is not JSON but some writers emit it.
  if (m_text.size() >= 3 && std::memcmp(m_text.data(), "\xEF\xBB\xBF", 3) == 0) m_pos = 3;
}

void JsonContainerScanner::Fail(uint64_t offset, std::string_view what) const {
  throw core::Error(fmt::format("{}: {}", DescribePlace(m_label, m_text, offset), what));
}

void JsonContainerScanner::SkipSpace() {
  while (m_pos < m_text.size() && IsSpace(m_text[m_pos])) ++m_pos;
}

uint64_t JsonContainerScanner::SkipString(uint64_t begin, bool* truncated) {
  return SkipStringFrom(m_text.data(), begin, m_text.size(), truncated);
}

uint64_t JsonContainerScanner::SkipValue(uint64_t begin, bool* truncated) {
  const char* data = m_text.data();
  const uint64_t size = m_text.size();
  const char first = data[begin];
  if (first == '"') return SkipString(begin, truncated);
  if (first != '{' && first != '[') {
    uint64_t p = begin;
    while (p < size && !IsSpace(data[p]) && data[p] != ',' && data[p] != ']' && data[p] != '}') {
      ++p;
    }
    if (p == begin) Fail(begin, fmt::format("expected a JSON value, found '{}'", first));
    if (std::strchr("-0123456789tfn", first) == nullptr) {
      Fail(begin, fmt::format("invalid JSON value '{}'",
                              m_text.substr(begin, std::min<uint64_t>(p - begin, 20))));
    }
    if (p == size) *truncated = true;
    return p;
  }
  // An object or array: follow its nesting to its closing bracket.
  const BracketWalk walk = FollowBrackets(data, begin, size, true);
  if (walk.bad) Fail(walk.bad->offset, walk.bad->what);
  if (walk.truncated) *truncated = true;
  return walk.end;
}

void JsonContainerScanner::ReadObjectMembers() {
  while (true) {
    SkipSpace();
    if (m_pos >= m_text.size()) {
      Fail(m_pos, "the file ends inside the top-level object (truncated?)");
    }
    const char c = m_text[m_pos];
    if (c == '}') {
      ++m_pos;
      SkipSpace();
      if (m_pos < m_text.size()) Fail(m_pos, "unexpected data after the top-level object");
      if (!m_seen_events) Fail(m_pos, "the top-level object has no \"traceEvents\" array");
      m_state = State::kDone;
      return;
    }
    if (c == ',') {
      if (!m_expect_comma) Fail(m_pos, "unexpected ',' in the top-level object");
      ++m_pos;
      m_expect_comma = false;
      continue;
    }
    if (c != '"' || m_expect_comma) {
      Fail(m_pos, m_expect_comma ? "expected ',' or '}' between top-level members"
                                 : "expected a member name in the top-level object");
    }
    bool truncated = false;
    const uint64_t key_end = SkipString(m_pos, &truncated);
    if (truncated) Fail(m_pos, "the file ends inside a top-level member name (truncated?)");
    const std::string key(m_text.substr(m_pos + 1, key_end - m_pos - 2));
    m_pos = key_end;
    SkipSpace();
    if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
      Fail(m_pos, fmt::format("expected ':' after the top-level member \"{}\"", key));
    }
    ++m_pos;
    SkipSpace();
    if (m_pos >= m_text.size()) Fail(m_pos, "the file ends before a value (truncated?)");
    if (key == "traceEvents") {
      if (m_seen_events) Fail(m_pos, "a second \"traceEvents\" member");
      if (m_text[m_pos] != '[') Fail(m_pos, "\"traceEvents\" is not an array");
      ++m_pos;
      m_seen_events = true;
      m_expect_comma = false;
      m_state = State::kInArray;
      return;
    }
    const uint64_t begin = m_pos;
    const uint64_t end = SkipValue(begin, &truncated);
    if (truncated) Fail(begin, fmt::format("the file ends inside the top-level member \"{}\"", key));
    const char first = m_text[begin];
    if (first == '{' || first == '[') {
      m_structures[key] = begin;
      m_structure_text[key] = m_text.substr(begin, end - begin);
    } else {
      m_top_level[key] = std::string(m_text.substr(begin, end - begin));
    }
    m_pos = end;
    m_expect_comma = true;
  }
}

bool JsonContainerScanner::Next(EventSpan* span) {
  while (true) {
    switch (m_state) {
      case State::kDone:
        return false;
      case State::kStart: {
        SkipSpace();
        if (m_pos >= m_text.size()) Fail(m_pos, "empty file: expected '[' or '{'");
        if (m_text[m_pos] == '[') {
          ++m_pos;
          m_state = State::kInArray;
        } else if (m_text[m_pos] == '{') {
          ++m_pos;
          m_object_container = true;
          ReadObjectMembers();
        } else {
          Fail(m_pos, "not trace-event JSON: expected '[' or '{'");
        }
        break;
      }
      case State::kInObject:
        ReadObjectMembers();
        break;
      case State::kInArray: {
        SkipSpace();
        if (m_pos >= m_text.size()) {
          if (m_object_container && !m_lenient_truncation) {
            Fail(m_pos, "the file ends inside the \"traceEvents\" array (truncated?)");
          }
          m_unterminated = true;
          m_truncated = m_object_container;
          m_truncated_at = m_pos;
          m_state = State::kDone;
          return false;
        }
        const char c = m_text[m_pos];
        if (c == ']') {
          ++m_pos;
          m_expect_comma = true;
          if (m_object_container) {
            m_state = State::kInObject;
          } else {
            SkipSpace();
            if (m_pos < m_text.size()) Fail(m_pos, "unexpected data after the event array");
            m_state = State::kDone;
          }
          break;
        }
        if (c == ',') {
          if (!m_expect_comma) Fail(m_pos, "unexpected ',' in the event array");
          ++m_pos;
          m_expect_comma = false;
          break;
        }
        if (m_expect_comma) Fail(m_pos, "expected ',' or ']' between events");
        bool truncated = false;
        const uint64_t begin = m_pos;
        const uint64_t end = SkipValue(begin, &truncated);
        if (truncated) {
          if (!m_lenient_truncation) {
            Fail(begin, "the file ends inside this event (truncated?)");
          }
          m_truncated = true;
          m_truncated_at = begin;
          m_state = State::kDone;
          return false;
        }
        m_pos = end;
        m_expect_comma = true;
        span->offset = begin;
        span->text = m_text.substr(begin, end - begin);
        return true;
      }
    }
  }
}

}  // namespace importers::chrome_json
