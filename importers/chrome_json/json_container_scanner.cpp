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

// The stack of closing brackets expected while following the nesting.
class BracketStack {
 public:
  enum class Step { kGoOn, kClosed, kBad };
  // The bracket `c` at offset `at`: kClosed when it closes the outermost bracket (depth 0 again).
  Step Take(char c, uint64_t at, BracketWalk& walk) {
    if (c == '{' || c == '[') {
      if (m_depth == sizeof(m_expected)) {
        walk.bad = BracketMismatch{at, "JSON nested more than 256 levels deep"};
        return Step::kBad;
      }
      m_expected[m_depth++] = c == '{' ? '}' : ']';
      return Step::kGoOn;
    }
    if (m_depth == 0 || m_expected[m_depth - 1] != c) {
      walk.bad = BracketMismatch{at, fmt::format("unexpected '{}' (expected '{}')", c,
                                                 m_depth ? m_expected[m_depth - 1] : ' ')};
      return Step::kBad;
    }
    return --m_depth == 0 ? Step::kClosed : Step::kGoOn;
  }

 private:
  char m_expected[256];
  size_t m_depth = 0;
};

#if defined(__SSE2__)
// Bit i of each mask: byte i of the 64 at `data` is a quote / backslash / bracket.
struct Block64 {
  uint64_t quote = 0, backslash = 0, bracket = 0;
};
Block64 Classify64(const char* data) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i fold = _mm_set1_epi8(static_cast<char>(0xDF));  // '{' -> '[', '}' -> ']'
  const __m128i open = _mm_set1_epi8('[');
  const __m128i close = _mm_set1_epi8(']');
  Block64 m;
  for (int k = 0; k < 4; ++k) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * k));
    const __m128i folded = _mm_and_si128(bytes, fold);
    auto bits = [k](__m128i hits) {
      return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(hits))) << (16 * k);
    };
    m.quote |= bits(_mm_cmpeq_epi8(bytes, quote));
    m.backslash |= bits(_mm_cmpeq_epi8(bytes, backslash));
    m.bracket |= bits(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
  }
  return m;
}

// Bit i = XOR of bits 0..i: with the quotes as input, 1 from an opening quote up to (not
// including) its closing one.
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}
#endif

// Follows the nesting of the brackets of data[p, size) (p outside a string) with a stack of the
// expected closing brackets, skipping strings. With `until_closed` it stops at the bracket that
// closes the one at `p`; otherwise it goes to the end of the text.
//
// 64 bytes at a time: which bytes lie inside strings follows from the quotes alone (a prefix XOR
// of their bits) as long as the block holds no backslash, so only the brackets outside strings
// are visited, a few per event rather than every quote. A block with a backslash (an escape,
// rare in traces) and the tail are read byte by byte, carrying whether a string is open.
BracketWalk FollowBrackets(const char* data, uint64_t p, uint64_t size, bool until_closed) {
  BracketWalk walk;
  BracketStack stack;
  // True when the walk ends at the bracket at `at`: a mismatch, or the close it was asked for.
  auto ends_at = [&](uint64_t at) {
    const BracketStack::Step step = stack.Take(data[at], at, walk);
    if (step == BracketStack::Step::kClosed && until_closed) {
      walk.end = at + 1;
      return true;
    }
    return step == BracketStack::Step::kBad;
  };
  bool in_string = false;
  while (p < size) {
    uint64_t block_end = size;
#if defined(__SSE2__)
    if (p + 64 <= size) {
      const Block64 m = Classify64(data + p);
      if (m.backslash == 0) {
        const uint64_t inside = PrefixXor(m.quote) ^ (in_string ? ~uint64_t{0} : 0);
        for (uint64_t b = m.bracket & ~inside; b != 0; b &= b - 1) {
          if (ends_at(p + static_cast<uint64_t>(__builtin_ctzll(b)))) return walk;
        }
        in_string = (inside >> 63) != 0;
        p += 64;
        continue;
      }
      block_end = p + 64;
    }
#endif
    while (p < block_end) {
      const char c = data[p];
      if (in_string) {
        // A backslash escapes the byte after it (\" and \\ included).
        if (c == '\\') {
          p += 2;
          continue;
        }
        in_string = c != '"';
      } else if (c == '"') {
        in_string = true;
      } else if ((c == '{' || c == '}' || c == '[' || c == ']') && ends_at(p)) {
        return walk;
      }
      ++p;
    }
  }
  walk.end = size;
  walk.truncated = in_string || until_closed;
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
