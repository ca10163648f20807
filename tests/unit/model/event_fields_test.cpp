// The typed records and field tables (core/model/event_types.h, event_fields.h) against the
// per-kind SQL views of schemas/event_kinds.sql: same field names in the same order, each read
// from the same generic column. The views are the documented meaning of a trace; the typed
// records are how the code reads and writes it; this test keeps them one definition.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <set>
#include <string>
#include <vector>

#include "core/model/event_fields.h"
#include "core/model/event_types.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

using namespace core::model;
using test_support::ScratchDir;

namespace {

// A record of `kind` whose generic columns all hold different values, so a view column read
// from the wrong generic column cannot match by accident.
EventRecord DistinctRecord(EventKind kind, int salt) {
  EventRecord r;
  r.ts = 1000 + salt;
  r.kind = kind;
  r.queue = 1;
  r.thread = 1;
  r.fence = 1;
  r.value = 40001 + static_cast<uint64_t>(salt);
  r.op = 50002 + salt;
  r.arg0 = 60003 + salt;
  r.arg1 = 70004 + salt;
  r.arg2 = 80005 + salt;
  r.flags = 5 + static_cast<uint32_t>(salt);
  return r;
}

struct ViewRow {
  std::vector<std::string> names;
  std::vector<int64_t> values;
};

ViewRow ReadView(sqlite3* db, std::string_view view) {
  ViewRow row;
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = "SELECT * FROM " + std::string(view);
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << view;
  if (!stmt) return row;
  EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW) << view;
  for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
    row.names.emplace_back(sqlite3_column_name(stmt, c));
    row.values.push_back(sqlite3_column_int64(stmt, c));
  }
  sqlite3_finalize(stmt);
  return row;
}

}  // namespace

TEST(EventFields, EveryKindsFieldsAreItsSqlViewColumnByColumn) {
  ScratchDir dir;
  const auto path = dir / "kinds.db";
  int count = 0;
  const EventKind* kinds = AllEventKinds(&count);
  std::vector<EventRecord> written;
  {
    core::store::TraceWriter w(path, "unit-test");
    const AdapterId a = w.AddAdapter({"gpu"});
    const EngineId e = w.AddEngine({a, EngineType::k3D, 0, "3D"});
    const ProcessId p = w.AddProcess({1, "p"});
    w.AddQueue({e, a, QueueType::k3D, 0, p, "q", 0});
    w.AddThread({p, 1, ThreadKind::kApplication, "t", 0});
    w.AddFence({"f"});
    for (int i = 0; i < count; ++i) {
      written.push_back(DistinctRecord(kinds[i], i));
      w.Append(written.back());
    }
    w.Commit();
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  for (int i = 0; i < count; ++i) {
    const EventKind kind = kinds[i];
    const auto fields = FieldsOf(kind);
    ASSERT_FALSE(fields.empty()) << EventKindName(kind);
    const ViewRow row = ReadView(db, EventKindName(kind));
    ASSERT_EQ(row.names.size(), fields.size() + 2) << EventKindName(kind);
    EXPECT_EQ(row.names[0], "event_id");
    EXPECT_EQ(row.names[1], "ts_ns");
    EXPECT_EQ(row.values[1], written[i].ts);
    for (size_t f = 0; f < fields.size(); ++f) {
      EXPECT_EQ(row.names[f + 2], fields[f].name) << EventKindName(kind);
      EXPECT_EQ(row.values[f + 2], FieldValue(written[i], fields[f]))
          << EventKindName(kind) << "." << fields[f].name;
    }
  }
  sqlite3_close(db);
}

TEST(EventFields, TypedRecordsRoundTripTheColumnsTheyName) {
  int count = 0;
  const EventKind* kinds = AllEventKinds(&count);
  for (int i = 0; i < count; ++i) {
    // Small values: enum fields (one byte) hold them unchanged.
    const EventRecord original{100 + i, kinds[i], 1, 2, 3, 4, 5, 6, 7, 8, 9};
    EventRecord expected;  // only the kind's own columns survive a typed round trip
    expected.ts = original.ts;
    expected.kind = original.kind;
    for (const EventField& f : FieldsOf(original.kind)) {
      SetColumnValue(expected, f.column, ColumnValue(original, f.column));
    }
    EventRecord round;
    switch (original.kind) {
#define ROUND_TRIP(Kind, id, sql)                               \
  case EventKind::Kind:                                         \
    round = events::Kind::Of(original).Record();                \
    EXPECT_EQ(events::Kind::kKind, EventKind::Kind);            \
    break;
      FENCESCOPE_EVENT_KINDS(ROUND_TRIP)
#undef ROUND_TRIP
    }
    for (EventColumn c : {EventColumn::kQueue, EventColumn::kThread, EventColumn::kFence,
                          EventColumn::kValue, EventColumn::kOp, EventColumn::kArg0,
                          EventColumn::kArg1, EventColumn::kArg2, EventColumn::kFlags}) {
      EXPECT_EQ(ColumnValue(round, c), ColumnValue(expected, c))
          << EventKindName(original.kind) << " column " << static_cast<int>(c);
    }
    EXPECT_EQ(round.ts, expected.ts);
    EXPECT_EQ(round.kind, expected.kind);
  }
}

TEST(EventFields, NamedFieldsReadTheDocumentedColumns) {
  // Spot checks written from schemas/event_kinds.sql by hand.
  const EventRecord r{10, EventKind::FenceWaitUnblocked, 3, 0, 4, 9, 77, 8, 55, 2, 1};
  const auto w = events::FenceWaitUnblocked::Of(r);
  EXPECT_EQ(w.ts_ns, 10);
  EXPECT_EQ(w.queue_id, 3u);
  EXPECT_EQ(w.fence_id, 4u);
  EXPECT_EQ(w.fence_value, 9u);
  EXPECT_EQ(w.wait_id, 77);
  EXPECT_EQ(w.observed_ns, 8);
  EXPECT_EQ(w.released_by_signal_id, 55);
  EXPECT_EQ(w.release_link, ReleaseLink::kInferred);
  EXPECT_EQ(w.wait_path, WaitPath::kCpuHeld);
  const auto made = events::CpuSlice{.ts_ns = 5, .thread_id = 2, .duration_ns = 40,
                                     .name_sid = 7, .category_sid = 8, .depth = 1}
                        .Record();
  EXPECT_EQ(made.kind, EventKind::CpuSlice);
  EXPECT_EQ(made.value, 40u);
  EXPECT_EQ(made.arg0, 7);
  EXPECT_EQ(made.arg1, 8);
  EXPECT_EQ(made.arg2, 1);
}

TEST(EventFields, ShiftTimeFieldsMovesEveryGivenTimeAndNothingElse) {
  int count = 0;
  const EventKind* kinds = AllEventKinds(&count);
  std::set<std::string> shifted;
  for (int i = 0; i < count; ++i) {
    const EventRecord original = DistinctRecord(kinds[i], i);
    EventRecord moved = original;
    ShiftTimeFields(moved, 1'000'000);
    EXPECT_EQ(moved.ts, original.ts) << "ts is the caller's to move";
    // HasTimeFields (the simulator skips the shift when false) says whether anything moved.
    bool any_time_field = false;
    for (const EventField& f : FieldsOf(kinds[i])) any_time_field |= f.role == FieldRole::kTime;
    EXPECT_EQ(core::model::HasTimeFields(kinds[i]), any_time_field) << EventKindName(kinds[i]);
    for (const EventField& f : FieldsOf(kinds[i])) {
      const int64_t delta = ColumnValue(moved, f.column) - ColumnValue(original, f.column);
      EXPECT_EQ(delta, f.role == FieldRole::kTime ? 1'000'000 : 0)
          << EventKindName(kinds[i]) << "." << f.name;
      if (delta != 0)
        shifted.insert(std::string(EventKindName(kinds[i])) + "." + std::string(f.name));
    }
    EventRecord not_given = original;
    for (const EventField& f : FieldsOf(kinds[i])) {
      if (f.role == FieldRole::kTime) SetColumnValue(not_given, f.column, 0);
    }
    EventRecord still = not_given;
    ShiftTimeFields(still, 1'000'000);
    for (const EventField& f : FieldsOf(kinds[i])) {
      EXPECT_EQ(ColumnValue(still, f.column), ColumnValue(not_given, f.column))
          << "0 means not given: " << EventKindName(kinds[i]) << "." << f.name;
    }
  }
  EXPECT_EQ(shifted,
            (std::set<std::string>{"fence_wait_unblocked.observed_ns",
                                   "log_overrun.missing_since_ns", "log_write.observed_ns"}));
}

TEST(EventFields, EnumFieldsAreNamedAsEnumValuesNamesThem) {
  ScratchDir dir;
  const auto path = dir / "enums.db";
  {
    core::store::TraceWriter w(path, "unit-test");
    w.Commit();
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  int count = 0;
  const EventKind* kinds = AllEventKinds(&count);
  std::set<std::string_view> enums;
  for (int i = 0; i < count; ++i) {
    for (const EventField& f : FieldsOf(kinds[i])) {
      if (f.role == FieldRole::kEnum) enums.insert(f.enum_name);
    }
  }
  ASSERT_FALSE(enums.empty());
  enums.insert("severity");  // not an event field: the import_problems table's column
  for (std::string_view name : enums) {
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT value, name FROM enum_values WHERE enum_name = ?1", -1,
                                 &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
    int rows = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      ++rows;
      const auto text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
      EXPECT_EQ(EnumValueName(name, sqlite3_column_int64(stmt, 0)), text) << name;
    }
    sqlite3_finalize(stmt);
    EXPECT_GT(rows, 0) << name;
    EXPECT_EQ(EnumValueName(name, 200), "unknown") << name;
  }
  EXPECT_EQ(EnumValueName("no_such_enum", 0), "");
  sqlite3_close(db);
}
