// EventArgsReader: an event's extra arguments read back from the trace file by rowid, as they
// were written below (integers, reals and texts), none for an event without any, none for a
// trace that is not a file.
#include "core/store/event_args_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace {

using namespace core::store;  // NOLINT
using Args = std::vector<std::pair<std::string, std::string>>;

TEST(EventArgsReader, ReadsEachArgumentOfTheEventAskedFor) {
  test_support::ScratchDir dir;
  const auto path = dir / "args.db";
  {
    TraceWriter w(path, "hand");
    const ProcessId p = w.AddProcess({1, "app"});
    const ThreadId t = w.AddThread({p, 7, ThreadKind::kApplication, "main", 0});
    EventRecord slice{10, EventKind::CpuSlice, 0, t, 0, 5, 0, 0, 0, 0, 0};
    const EventRowId first = w.Append(slice);
    slice.ts = 20;
    const EventRowId second = w.Append(slice);
    w.AddEventArg(first, "bytes", int64_t{4096});
    w.AddEventArg(first, "direction", std::string_view("HtoD"));
    w.AddEventArg(first, "bandwidth", 1.5);
    w.AddEventArg(second, "domain", std::string_view("MPI"));
    w.Commit();
    ASSERT_EQ(first, 1);
    ASSERT_EQ(second, 2);
  }
  EventArgsReader reader(path);
  EXPECT_EQ(reader.Read(1), (Args{{"bytes", "4096"}, {"direction", "HtoD"}, {"bandwidth", "1.5"}}));
  EXPECT_EQ(reader.Read(2), (Args{{"domain", "MPI"}}));
  EXPECT_EQ(reader.Read(1).size(), 3u);
  EXPECT_TRUE(reader.Read(3).empty());
  EXPECT_TRUE(EventArgsReader({}).Read(1).empty());
  EXPECT_TRUE(EventArgsReader(dir / "missing.db").Read(1).empty());
}

}  // namespace
