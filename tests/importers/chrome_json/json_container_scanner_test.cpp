// The event-boundary scan on hand-made inputs: brackets and escaped quotes inside strings at
// every position relative to the scanner's 16-byte steps, and the background scanner handing
// out the same spans in the same order, then the scanner's error once the good spans are out.
// Expected offsets are counted by hand from the literals (each event's text is built below
// from its pieces, so its start is the sum of the lengths before it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/model/error.h"
#include "importers/chrome_json/background_scanner.h"
#include "importers/chrome_json/json_container_scanner.h"

namespace {

using importers::chrome_json::BackgroundScanner;
using importers::chrome_json::EventSpan;
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
  for (size_t shift = 0; shift < 40; ++shift) {
    // `pad` moves the tricky string across the 16-byte steps one byte at a time.
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
