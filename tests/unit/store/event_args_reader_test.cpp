// EventArgsReader: an event's extra arguments read back from the trace file by rowid, as they
// were written below (integers, reals and texts), none for an event without any, none for a
// trace that is not a file.
#include "core/store/event_args_reader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/store/sqlite_db.h"
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

// The writer inserts arguments a batch at a time: several batches and a part of one, of every
// type, each read back as written (the values are made from the loop's own counter).
TEST(EventArgsReader, ArgumentsOfManyBatchesAreEachReadBackAsWritten) {
  test_support::ScratchDir dir;
  const auto path = dir / "many_args.db";
  constexpr int kEvents = 5000;  // 15,000 arguments: more than three batches of 4,096
  {
    TraceWriter w(path, "hand");
    const ProcessId p = w.AddProcess({1, "app"});
    const ThreadId t = w.AddThread({p, 7, ThreadKind::kApplication, "main", 0});
    for (int i = 0; i < kEvents; ++i) {
      EventRecord slice{10 + i, EventKind::CpuSlice, 0, t, 0, 5, 0, 0, 0, 0, 0};
      const EventRowId row = w.Append(slice);
      w.AddEventArg(row, "index", int64_t{i} * 3);
      w.AddEventArg(row, "half", i / 2.0);
      w.AddEventArg(row, "name", std::string_view(i % 2 ? "odd" : "even"));
    }
    w.Commit();
  }
  EventArgsReader reader(path);
  for (int i : {0, 1, 4095, 4096, 4097, 4999}) {
    const Args expected{{"index", std::to_string(i * 3)},
                        {"half", fmt::format("{}", i / 2.0)},
                        {"name", i % 2 ? "odd" : "even"}};
    EXPECT_EQ(reader.Read(i + 1), expected) << "event " << i + 1;
  }
  Database db(path.string(), Database::Mode::kReadOnly);
  auto count = db.Prepare(
      "SELECT count(*), sum(int_value), count(real_value), count(text_sid) FROM event_args");
  ASSERT_TRUE(count.Step());
  EXPECT_EQ(count.ColumnInt(0), 3 * kEvents);
  EXPECT_EQ(count.ColumnInt(1), int64_t{3} * kEvents * (kEvents - 1) / 2);
  EXPECT_EQ(count.ColumnInt(2), kEvents);
  EXPECT_EQ(count.ColumnInt(3), kEvents);
}

}  // namespace
