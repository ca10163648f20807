// core/analysis/time_input.h: the one parser of typed times.
#include "core/analysis/time_input.h"

#include <gtest/gtest.h>

#include "core/model/error.h"
#include "tests/support/test_support.h"

using namespace core::analysis;

namespace {

const TraceClock kClock{1'000'000'000, 3'000'000'000, "t.db"};  // 1 s .. 3 s on its clock

using test_support::ErrorOf;

}  // namespace

TEST(TimeInput, RelativeToTheTraceStartByDefault) {
  EXPECT_EQ(ParseTraceTime("--t", "0", kClock), 1'000'000'000);
  EXPECT_EQ(ParseTraceTime("--t", "1500", kClock), 1'000'001'500);
  EXPECT_EQ(ParseTraceTime("--t", "1.5ms", kClock), 1'001'500'000);
  EXPECT_EQ(ParseTraceTime("--t", "2us", kClock), 1'000'002'000);
  EXPECT_EQ(ParseTraceTime("--t", "0.000000001s", kClock), 1'000'000'001);
  EXPECT_EQ(ParseTraceTime("--t", "-20ns", kClock), 999'999'980);
  EXPECT_EQ(ParseTraceTime("--t", "+7", kClock), 1'000'000'007);
}

TEST(TimeInput, AbsoluteWithAnAt) {
  EXPECT_EQ(ParseTraceTime("--t", "@1500", kClock), 1500);
  EXPECT_EQ(ParseTraceTime("--t", "@2s", kClock), 2'000'000'000);
}

TEST(TimeInput, NotATime) {
  for (const char* text : {"", "@", "ms", "1.5 ms", "1h", "x1", "1e9", "99999999999999999999"}) {
    EXPECT_NE(ErrorOf([&] { ParseTraceTime("--t", text, kClock); }).find("not a time"),
              std::string::npos)
        << text;
  }
}

TEST(TimeInput, RangesMustOverlapTheTraceAndTimesLieInIt) {
  const TimeRange r = ParseRangeInTrace("--window", "1s", "@3500000000", kClock);
  EXPECT_EQ(r.start, 2'000'000'000);
  EXPECT_EQ(r.end, 3'500'000'000);
  EXPECT_EQ(ErrorOf([] { ParseRangeInTrace("--window", "5s", "6s", kClock); }),
            "--window 5s 6s: outside the trace; t.db spans 0 .. 2.000 s from "
            "its start (@1000000000 .. @3000000000 ns) (times count from the trace start; write "
            "@NS for an absolute clock value)");
  EXPECT_NE(ErrorOf([] {
              ParseRangeInTrace("--range", "5", "5", kClock);
            }).find("the end must be after the start"),
            std::string::npos);
  EXPECT_EQ(ParseTimeInTrace("--path-until", "2s", kClock), 3'000'000'000);
  EXPECT_NE(ErrorOf([] {
              ParseTimeInTrace("--path-until", "@999999999", kClock);
            }).find("outside the trace"),
            std::string::npos);
}

TEST(TimeInput, ReadBackFromTheStartBesideTheAbsoluteValue) {
  EXPECT_EQ(FormatTraceTime(1'001'250'000, kClock.start), "+1.250 ms (@1001250000 ns)");
  EXPECT_EQ(FormatTraceTime(999'999'000, kClock.start), "-1.000 us (@999999000 ns)");
}
