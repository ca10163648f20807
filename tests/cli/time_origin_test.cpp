// Times typed on the command line count from the trace's start; absolute clock values are
// written @NS; a time outside the trace is an error naming its span. The trace here starts at
// 5000 s on its clock, so a relative time and an absolute one never coincide.
#include <gtest/gtest.h>

#include "tests/support/hand_trace.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

constexpr int64_t kBase = 5'000'000'000'000;  // 5000 s

// One queue: packet 1 runs [base+100, base+200], packet 2 [base+300, base+400]; the trace spans
// base .. base+500.
std::string Trace(const ScratchDir& dir) {
  const auto path = dir / "late.db";
  hand_trace::HandTrace t(path);
  const auto q = t.Queue("gfx");
  const auto th = t.Thread("main");
  t.Packet(q, th, 1, kBase + 50, kBase + 100, kBase + 200);
  t.Packet(q, th, 2, kBase + 250, kBase + 300, kBase + 400);
  t.Finish(kBase, kBase + 500);
  return Quote(path);
}

std::string PathEnd(const std::string& json) {
  const auto at = json.find("\"critical_path\"");
  const auto end = json.find("\"end_ns\":", at);
  return json.substr(end + 9, json.find_first_of(",}", end) - end - 9);
}

}  // namespace

TEST(TimeOrigin, PathUntilCountsFromTheTraceStartOrTakesAnAbsoluteValue) {
  ScratchDir dir;
  const std::string trace = Trace(dir);
  const auto whole = RunFencescope("report " + trace + " --format json");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto relative = RunFencescope("report " + trace + " --format json --path-until 250");
  ASSERT_EQ(relative.exit_code, 0) << relative.err;
  const auto absolute = RunFencescope("report " + trace + " --format json --path-until @" +
                                      std::to_string(kBase + 250));
  ASSERT_EQ(absolute.exit_code, 0) << absolute.err;
  const auto unit = RunFencescope("report " + trace + " --format json --path-until 0.25us");
  ASSERT_EQ(unit.exit_code, 0) << unit.err;
  // The whole path ends with packet 2; walked back from base+250 it ends with packet 1.
  EXPECT_NE(PathEnd(whole.out), PathEnd(relative.out));
  EXPECT_LE(std::stoll(PathEnd(relative.out)), kBase + 250);
  EXPECT_GE(std::stoll(PathEnd(relative.out)), kBase + 200);
  EXPECT_EQ(PathEnd(relative.out), PathEnd(absolute.out));
  EXPECT_EQ(PathEnd(relative.out), PathEnd(unit.out));
}

TEST(TimeOrigin, PathUntilOutsideTheTraceIsAnErrorNamingItsSpan) {
  ScratchDir dir;
  const std::string trace = Trace(dir);
  for (const std::string until : {"600", "@250", "-1", "1s"}) {
    const auto r = RunFencescope("report " + trace + " --format json --path-until=" + until);
    EXPECT_NE(r.exit_code, 0) << until;
    EXPECT_NE(r.err.find("outside the trace"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("late.db spans 0 .. 500 ns from its start (@5000000000000 .. "
                         "@5000000000500 ns)"),
              std::string::npos)
        << r.err;
  }
  const auto bad = RunFencescope("report " + trace + " --path-until 12parsecs");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("not a time"), std::string::npos) << bad.err;
}
