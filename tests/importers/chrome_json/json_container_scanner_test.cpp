// The event-boundary scan on hand-made inputs: brackets and escaped quotes inside strings at
// every position relative to the scanner's 64-byte blocks; on random texts, the same answers as
// a byte-by-byte walk written here (the rules only: quotes open and close strings, a backslash
// in a string escapes the next byte, brackets outside strings nest); the background scanner handing
// out the same spans in the same order, then the scanner's error once the good spans are out.
// Expected offsets are counted by hand from the literals (each event's text is built below
// from its pieces, so its start is the sum of the lengths before it).
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/model/error.h"
#include "importers/chrome_json/background_scanner.h"
#include "importers/chrome_json/json_container_scanner.h"

namespace {

using importers::chrome_json::BackgroundScanner;
using importers::chrome_json::BracketMismatch;
using importers::chrome_json::EventSpan;
using importers::chrome_json::FindBracketMismatch;
using importers::chrome_json::JsonContainerScanner;

// The content must be readable for 64 bytes past its end (as ByteBuffer guarantees).
std::string Padded(const std::string& json) { return json + std::string(64, ' '); }

std::vector<std::string> PlainSpans(std::string_view content) {
  JsonContainerScanner scanner(content, "t.json");
  std::vector<std::string> out;
  EventSpan span;
  while (scanner.Next(&span)) out.emplace_back(span.text);
  return out;
}

TEST(JsonContainerScanner, BracketsAndEscapedQuotesInsideStringsAtEveryAlignment) {
  for (size_t shift = 0; shift < 140; ++shift) {
    // `pad` moves the tricky string across the 64-byte blocks one byte at a time.
    const std::string pad(shift, 'a');
    const std::string first = "{\"name\":\"" + pad + "x]}[{\\\"y\\\\\",\"ph\":\"i\"}";
    const std::string second = "{\"a\":[1,{\"b\":\"}\"}],\"c\":\"\\\\\"}";
    const std::string json = "[" + first + ",\n" + second + "]";
    const std::string content = Padded(json);
    JsonContainerScanner scanner(std::string_view(content.data(), json.size()), "t.json");
    EventSpan span;
    ASSERT_TRUE(scanner.Next(&span)) << shift;
    EXPECT_EQ(span.offset, 1u) << shift;
    EXPECT_EQ(span.text, first) << shift;
    ASSERT_TRUE(scanner.Next(&span)) << shift;
    EXPECT_EQ(span.offset, 1u + first.size() + 2) << shift;  // after ",\n"
    EXPECT_EQ(span.text, second) << shift;
    EXPECT_FALSE(scanner.Next(&span)) << shift;
  }
}

// What FindBracketMismatch must answer, byte by byte: {offset, message}, or nullopt.
std::optional<BracketMismatch> WalkByteByByte(const std::string& text) {
  std::string expected;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (expected.size() == 256)
        return BracketMismatch{i, "JSON nested more than 256 levels deep"};
      expected.push_back(c == '{' ? '}' : ']');
    } else if (c == '}' || c == ']') {
      if (expected.empty() || expected.back() != c) {
        return BracketMismatch{i, std::string("unexpected '") + c + "' (expected '" +
                                      (expected.empty() ? ' ' : expected.back()) + "')"};
      }
      expected.pop_back();
    }
  }
  if (in_string) return BracketMismatch{text.size(), "the text ends inside a string"};
  return std::nullopt;
}

TEST(JsonContainerScanner, RandomTextsMatchAByteByByteWalk) {
  std::mt19937 rng(20261125);
  // Mostly letters, so strings run long enough to cross blocks; some backslashes; brackets of
  // both kinds, balanced more often than not.
  const std::string alphabet = "aaaaaaaaaaaa,: \"\"\"\\{}[]{[";
  size_t mismatches = 0, clean = 0, open_strings = 0, escaped = 0;
  for (int n = 0; n < 20000; ++n) {
    const size_t length = rng() % 400;
    std::string text;
    for (size_t i = 0; i < length; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    // Half the texts: close what is open, so that some whole texts are clean.
    if (n % 2 == 0) {
      std::string closers;
      for (char c : text) {
        if (c == '{' || c == '[') closers.push_back(c == '{' ? '}' : ']');
      }
      text += std::string(closers.rbegin(), closers.rend());
    }
    const std::string content = Padded(text);
    const auto want = WalkByteByByte(text);
    const auto got = FindBracketMismatch(std::string_view(content.data(), text.size()));
    ASSERT_EQ(want.has_value(), got.has_value()) << text;
    if (want) {
      ASSERT_EQ(want->offset, got->offset) << text;
      ASSERT_EQ(want->what, got->what) << text;
      (want->what.find("inside a string") != std::string::npos ? open_strings : mismatches) += 1;
    } else {
      ++clean;
    }
    escaped += text.find('\\') != std::string::npos;
  }
  // Every kind of answer was met (the texts exercise what they are meant to).
  EXPECT_GT(mismatches, 1000u);
  EXPECT_GT(open_strings, 1000u);
  EXPECT_GT(clean, 100u);
  EXPECT_GT(escaped, 1000u);
}

// Events with long strings, escapes and brackets inside strings, nested objects and arrays: the
// scanner hands out exactly the events that were written, wherever they fall in the blocks.
TEST(JsonContainerScanner, RandomEventsComeOutAsWritten) {
  std::mt19937 rng(7);
  auto random_string = [&] {
    std::string s = "\"";
    const size_t n = rng() % 90;
    const char* pieces[] = {"a", "b", "{", "}", "[", "]", "\\\"", "\\\\", " ", ":"};
    for (size_t i = 0; i < n; ++i) s += pieces[rng() % std::size(pieces)];
    return s + "\"";
  };
  std::function<std::string(int)> value = [&](int depth) -> std::string {
    const unsigned kind = depth > 3 ? rng() % 2 : rng() % 4;
    if (kind == 0) return random_string();
    if (kind == 1) return std::to_string(rng() % 100000);
    std::string out = kind == 2 ? "{" : "[";
    const size_t n = rng() % 4;
    for (size_t i = 0; i < n; ++i) {
      if (i) out += ",";
      if (kind == 2) out += random_string() + ":";
      out += value(depth + 1);
    }
    return out + (kind == 2 ? "}" : "]");
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::string> events;
    std::string json = "[";
    for (int e = 0; e < 20; ++e) {
      std::string event = "{\"name\":" + random_string() + ",\"args\":" + value(1);
      event += "}";
      if (e) json += ",";
      json += event;
      events.push_back(event);
    }
    json += "]";
    const std::string content = Padded(json);
    ASSERT_EQ(PlainSpans(std::string_view(content.data(), json.size())), events) << json;
  }
}

TEST(JsonContainerScanner, MismatchedBracketNamesItsByteOffset) {
  // {"a":[1} : the '}' at byte 8 closes an array.
  const std::string json = "[{\"a\":[1}]";
  const std::string content = Padded(json);
  try {
    PlainSpans(std::string_view(content.data(), json.size()));
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("byte 8"), std::string::npos) << e.what();
  }
}

TEST(BackgroundScanner, SameSpansInOrderAcrossManyBatches) {
  // 5000 events, more than two batches: {"i":0},{"i":1},...
  std::string json = "[";
  std::vector<std::string> expected;
  for (int i = 0; i < 5000; ++i) {
    expected.push_back("{\"i\":" + std::to_string(i) + "}");
    json += (i ? "," : "") + expected.back();
  }
  json += "]";
  const std::string content = Padded(json);
  JsonContainerScanner scanner(std::string_view(content.data(), json.size()), "t.json");
  BackgroundScanner background(scanner);
  std::vector<std::string> got;
  std::vector<EventSpan> batch;
  while (background.Next(&batch)) {
    for (const EventSpan& span : batch) got.emplace_back(span.text);
  }
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(scanner.unterminated_array());
}

TEST(BackgroundScanner, HandsOutTheGoodEventsThenRethrowsTheScannersError) {
  // 3000 good events then "x" where an event should start; its byte offset is the length of
  // everything before it.
  std::string json = "[";
  for (int i = 0; i < 3000; ++i) json += "{\"i\":1},";
  const size_t bad_at = json.size();
  json += "x]";
  const std::string content = Padded(json);
  JsonContainerScanner scanner(std::string_view(content.data(), json.size()), "t.json");
  BackgroundScanner background(scanner);
  size_t good = 0;
  std::vector<EventSpan> batch;
  try {
    while (background.Next(&batch)) good += batch.size();
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(good, 3000u);
    EXPECT_NE(std::string(e.what()).find("byte " + std::to_string(bad_at)), std::string::npos)
        << e.what();
  }
}

TEST(BackgroundScanner, StopsCleanlyWhenTheCallerGivesUpEarly) {
  std::string json = "[";
  for (int i = 0; i < 50000; ++i) json += "{\"i\":1},";
  json += "{}]";
  const std::string content = Padded(json);
  JsonContainerScanner scanner(std::string_view(content.data(), json.size()), "t.json");
  std::vector<EventSpan> batch;
  {
    BackgroundScanner background(scanner);
    ASSERT_TRUE(background.Next(&batch));
    EXPECT_EQ(batch.front().offset, 1u);
  }  // destroyed with the scan unfinished: must stop and join, not hang
  SUCCEED();
}

}  // namespace
