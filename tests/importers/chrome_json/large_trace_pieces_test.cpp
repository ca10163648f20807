// Chrome trace-event JSON import of traces large enough (several MB) that the middle of the
// event array is cut into pieces parsed on two threads (parallel_event_parse.h). The traces are
// generated here with a known content, so every expectation follows from the generator: which
// events exist, on which thread, under which (last) thread name, and where a bad event sits.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "core/model/error.h"
#include "tests/importers/chrome_json/import_fixture.h"

namespace {


// ~90 bytes each: ~13 MB, about 25 pieces, so that the second thread surely takes some (on a
// few pieces this thread may take them all before the other one has started).
constexpr int kSlices = 150000;
constexpr int kThreads = 4;

// Thread t of process 7: tids 1 and 2 as numbers, the others as strings (as PyTorch writes).
std::string Tid(int t) { return t < 2 ? std::to_string(t + 1) : fmt::format("\"worker-{}\"", t); }

// Slice i is on thread ThreadOf(i) and named op<i % 10>: thread 0 has op0-op3 (4 slices in 10),
// thread 1 op4-op6 (3 in 10), thread 2 op7-op8 (2 in 10), thread 3 op9 (1 in 10).
int ThreadOf(int i) {
  static const int kThreadOfDigit[10] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 3};
  return kThreadOfDigit[i % 10];
}
const char* kNamesOfThread[kThreads] = {"op0,op1,op2,op3", "op4,op5,op6", "op7,op8", "op9"};
const int kTenthsOfThread[kThreads] = {4, 3, 2, 1};

// "name=slices:names" for each thread, in thread order, as the import should give them when
// the slice `missing` (if >= 0) is left out.
std::string ExpectedThreads(int missing = -1) {
  std::string expected;
  for (int t = 0; t < kThreads; ++t) {
    const int n = kSlices / 10 * kTenthsOfThread[t] - (missing >= 0 && ThreadOf(missing) == t);
    expected += fmt::format("{}late-{}={}:{}", t ? " " : "", t, n, kNamesOfThread[t]);
  }
  return expected;
}

std::string ThreadName(int t, const std::string& name) {
  return fmt::format(R"({{"ph":"M","name":"thread_name","pid":7,"tid":{},"args":{{"name":"{}"}}}})",
                     Tid(t), name);
}

// Slice i: on thread ThreadOf(i), ts = 10 i µs, 2 µs long, named op<i % 10>. Every 7th carries
// arguments that look like event boundaries: objects in an array split over lines ("},\n{"),
// the second one with a "ph" member, and a string holding "},{" (pieces cut there fail and are
// read again with the scanner). Every 100th is followed by a counter sample. The thread names
// are given at the start and again at three quarters of the file (the later names are kept).
// `bad_slice` (if >= 0) has its ts written as a string; `*bad_offset` is that event's offset.
// With `bad_brackets`, `bad_slice` keeps its number ts but a member the import skips unread
// closes a '[' with a '}' and the '{' with a ']' (`"unread":{"a":[1}]`), and `*bad_offset` is the
// offset of that '}'.
std::string MakeTrace(int bad_slice = -1, size_t* bad_offset = nullptr,
                      bool bad_brackets = false) {
  std::string json = "{\"traceEvents\":[\n";
  for (int t = 0; t < kThreads; ++t) json += ThreadName(t, fmt::format("first-{}", t)) + ",\n";
  for (int i = 0; i < kSlices; ++i) {
    if (i == kSlices * 3 / 4) {
      for (int t = 0; t < kThreads; ++t) json += ThreadName(t, fmt::format("late-{}", t)) + ",\n";
    }
    if (i == bad_slice && bad_offset) *bad_offset = json.size();
    const bool bad_ts = i == bad_slice && !bad_brackets;
    const std::string ts = bad_ts ? fmt::format("\"{}\"", 10 * i) : std::to_string(10 * i);
    json += fmt::format(R"({{"ph":"X","cat":"cpu_op","name":"op{}","pid":7,"tid":{},"ts":{},)"
                        R"("dur":2)",
                        i % 10, Tid(ThreadOf(i)), ts);
    if (i == bad_slice && bad_brackets) {
      json += ",\"unread\":{\"a\":[1";
      if (bad_offset) *bad_offset = json.size();
      json += "}]";  // as many closing brackets as opening ones, each of the other kind
    } else if (i % 7 == 0) {
      json += ",\"args\":{\"list\":[{\"a\":1},\n{\"ph\":\"},{\"}]}";
    }
    json += "},\n";
    if (i % 100 == 0) {
      json += fmt::format(R"({{"ph":"C","name":"mem","pid":7,"ts":{},"args":{{"bytes":{}}}}},)",
                          10 * i, i) + "\n";
    }
  }
  // The array ends, and another member holds objects split over lines: not events.
  json += R"({"ph":"i","name":"end","pid":7,"tid":1,"ts":1})" "\n],\n";
  json += "\"otherData\":[{\"x\":1},\n{\"y\":2}]}";
  return json;
}

// "name=slices:names" for each thread, in thread order.
constexpr const char* kSlicesPerThreadName =
    "SELECT group_concat(tn || '=' || n || ':' || names, ' ') FROM (SELECT th.id, tname.value AS "
    "tn, count(*) AS n, (SELECT group_concat(v, ',') FROM (SELECT DISTINCT s.value AS v FROM "
    "cpu_slice c2 JOIN strings s ON s.id = c2.name_sid WHERE c2.thread_id = th.id ORDER BY v)) "
    "AS names FROM cpu_slice c JOIN threads th ON th.id = c.thread_id JOIN strings tname ON "
    "tname.id = th.name_sid GROUP BY th.id ORDER BY th.id)";
// One counter sample per 100 slices, value i: count and sum.
constexpr const char* kCounterSamples =
    "SELECT count(*) || ' ' || CAST(sum(value) AS INTEGER) FROM counter_samples";
const std::string kExpectedCounterSamples =
    fmt::format("{} {}", kSlices / 100, 100 * (kSlices / 100) * (kSlices / 100 - 1) / 2);

class LargeTracePieces : public ChromeJsonImport {
 protected:
  // Importing `json` fails with an error that names byte `offset` and says `why`; `slice` (if
  // not empty) names the case in the failure message.
  void ExpectRefusedAt(const std::string& json, size_t offset, const std::string& why,
                       const std::string& slice = "", importers::ImportOptions options = {}) {
    try {
      Import(json, options);
      ADD_FAILURE() << slice << (slice.empty() ? "" : ": ") << "no error";
    } catch (const core::Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(fmt::format("byte {} ", offset)), std::string::npos) << message;
      EXPECT_NE(message.find(why), std::string::npos) << message;
    }
  }
  // Every table the import fills holds the same rows in `a` as in `b`, in the same order.
  void ExpectSameRows(const std::filesystem::path& a, const std::filesystem::path& b) {
    size_t tables = 0;
    for (const auto& row : Rows(a,
                                "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                "name NOT IN ('meta', 'sqlite_sequence') ORDER BY name")) {
      // Every row of the table as text, in the order the table holds them.
      const std::string dump = fmt::format("SELECT * FROM \"{}\"", row[0]);
      EXPECT_EQ(Rows(a, dump), Rows(b, dump)) << row[0];
      ++tables;
    }
    EXPECT_GT(tables, 10u);
  }
};

TEST_F(LargeTracePieces, EveryEventIsKeptOnItsThreadUnderItsLastName) {
  const std::string json = MakeTrace();
  ASSERT_GT(json.size(), 10u << 20);
  auto db = Import(json);
  EXPECT_EQ(One(db, "SELECT count(*) FROM cpu_slice"), std::to_string(kSlices));
  // Each thread under the name given last, with its share of the slices and their names.
  EXPECT_EQ(One(db, kSlicesPerThreadName), ExpectedThreads());
  // Slice i starts at 10 i µs and lasts 2 µs: the sum of starts is 10 µs * (0 + ... + n - 1).
  const int64_t sum_ts_ns = 10'000LL * (int64_t{kSlices} * (kSlices - 1) / 2);
  EXPECT_EQ(One(db, "SELECT sum(ts_ns) FROM cpu_slice"), std::to_string(sum_ts_ns));
  EXPECT_EQ(One(db, "SELECT count(*) FROM cpu_slice WHERE duration_ns <> 2000"), "0");
  EXPECT_EQ(One(db, "SELECT count(DISTINCT name_sid) FROM cpu_slice"), "10");
  EXPECT_EQ(One(db, kCounterSamples), kExpectedCounterSamples);
  EXPECT_EQ(One(db, "SELECT count(*) FROM instant"), "1");
}

// Parsed on one core (a fleet's workers), the same trace gives the same rows in every table the
// import fills, in the same order.
TEST_F(LargeTracePieces, OnOneCoreTheSameRowsAsOnTwo) {
  const std::string json = MakeTrace();
  const auto both = m_dir / "two.db";
  std::filesystem::rename(Import(json), both);
  importers::ImportOptions one_core;
  one_core.parse_in_parallel = false;
  const auto one = Import(json, one_core);
  ExpectSameRows(one, both);
  EXPECT_EQ(One(one, "SELECT count(*) FROM cpu_slice"), std::to_string(kSlices));
  EXPECT_EQ(One(one, kSlicesPerThreadName), ExpectedThreads());
  EXPECT_EQ(One(one, kCounterSamples), kExpectedCounterSamples);
}

// With no helper thread (the scanner run batch by batch on the importing thread, the bracket
// check before the build), the same rows, and the same refusals at the same places.
TEST_F(LargeTracePieces, WithoutHelperThreadsTheSameRowsAndRefusals) {
  const std::string json = MakeTrace();
  const auto threaded = m_dir / "threaded.db";
  std::filesystem::rename(Import(json), threaded);
  importers::ImportOptions alone;
  alone.helper_threads = false;
  const auto one = Import(json, alone);
  ExpectSameRows(one, threaded);
  EXPECT_EQ(One(one, "SELECT count(*) FROM cpu_slice"), std::to_string(kSlices));
  EXPECT_EQ(One(one, kSlicesPerThreadName), ExpectedThreads());
  EXPECT_EQ(One(one, kCounterSamples), kExpectedCounterSamples);

  const int bad = kSlices - 50;
  size_t offset = 0;
  // Each trace is made before its offset is read (an argument list has no order of evaluation).
  const std::string bad_ts = MakeTrace(bad, &offset);
  ExpectRefusedAt(bad_ts, offset, "'ts' must be a number", "bad ts", alone);
  const std::string bad_bracket = MakeTrace(bad, &offset, true);
  ExpectRefusedAt(bad_bracket, offset, "unexpected '}' (expected ']')", "bad bracket", alone);
  const size_t event = json.find("{\"ph\":\"X\"", json.size() * 3 / 5);
  ASSERT_NE(event, std::string::npos);
  ExpectRefusedAt(json.substr(0, event + 20), event, "truncated", "truncated", alone);
  importers::ImportOptions lenient = alone;
  lenient.lenient = true;
  auto db = Import(MakeTrace(bad, &offset), lenient);
  EXPECT_EQ(One(db, "SELECT count FROM import_problems WHERE name = 'json_bad_event'"), "1");
  EXPECT_EQ(One(db, kSlicesPerThreadName), ExpectedThreads(bad));
}

TEST_F(LargeTracePieces, ABadEventInTheMiddleIsNamedByItsOffsetOrSkipped) {
  for (int bad : {kSlices / 3, kSlices - 50}) {
    size_t offset = 0;
    const std::string json = MakeTrace(bad, &offset);
    ExpectRefusedAt(json, offset, "'ts' must be a number", fmt::format("slice {}", bad));
    importers::ImportOptions lenient;
    lenient.lenient = true;
    auto db = Import(json, lenient);
    EXPECT_EQ(One(db, "SELECT count FROM import_problems WHERE name = 'json_bad_event'"), "1");
    // Only the bad slice is missing; the pieces after it go on with their threads and names.
    EXPECT_EQ(One(db, kSlicesPerThreadName), ExpectedThreads(bad));
    EXPECT_EQ(One(db, kCounterSamples), kExpectedCounterSamples);
  }
}

// Brackets of the wrong kind inside a member the import never reads are still invalid JSON.
TEST_F(LargeTracePieces, AMismatchedBracketInAnUnreadMemberIsNamedByItsOffset) {
  for (int bad : {kSlices / 3, kSlices - 50}) {
    size_t offset = 0;
    const std::string json = MakeTrace(bad, &offset, true);
    ExpectRefusedAt(json, offset, "unexpected '}' (expected ']')", fmt::format("slice {}", bad));
  }
}

TEST_F(LargeTracePieces, ATruncatedLargeTraceFailsAtTheCutEvent) {
  const std::string json = MakeTrace();
  // Cut in the middle of an event at about 60%: the error names that event's first byte.
  const size_t event = json.find("{\"ph\":\"X\"", json.size() * 3 / 5);
  ASSERT_NE(event, std::string::npos);
  ExpectRefusedAt(json.substr(0, event + 20), event, "truncated");
}

}  // namespace
