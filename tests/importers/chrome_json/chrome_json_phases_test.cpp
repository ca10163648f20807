// Chrome trace-event JSON import on small hand-written inputs: containers, time conversion,
// every phase family, flows and their binding rules. Expectations are worked out by hand from
// the format description (shared/guide/trace-formats.md §1) and written next to each input.
#include <gtest/gtest.h>

#include <fstream>

#include "core/model/error.h"
#include "core/store/query.h"
#include "importers/import_file.h"
#include "tests/importers/chrome_json/import_fixture.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

using ChromeJson = ChromeJsonImport;

TEST_F(ChromeJson, BareArrayWithoutClosingBracketAndFractionalMicroseconds) {
  // ts 3.011 µs = 3011 ns exactly; 1.0005 µs rounds half up to 1001 ns; dur 0.5 µs = 500 ns.
  auto db = Import(R"([{"ph":"X","name":"a","pid":1,"tid":2,"ts":3.011,"dur":0.5},
                      {"ph":"X","name":"b","pid":1,"tid":2,"ts":1.0005,"dur":1},)");
  EXPECT_EQ(One(db, "SELECT group_concat(ts_ns || ':' || duration_ns) FROM "
                    "(SELECT * FROM cpu_slice ORDER BY ts_ns)"),
            "1001:1000,3011:500");
  EXPECT_EQ(Problem(db, "json_array_not_closed"), "1");
}

TEST_F(ChromeJson, BaseTimeNanosecondsIsAddedAndDisplayTimeUnitChangesNothing) {
  auto db = Import(R"({"displayTimeUnit":"ns","traceEvents":[
      {"ph":"X","name":"a","pid":1,"tid":1,"ts":2.5,"dur":1}],"baseTimeNanoseconds":1000000})");
  // 1,000,000 ns + 2.5 µs = 1,002,500 ns.
  EXPECT_EQ(One(db, "SELECT ts_ns FROM cpu_slice"), "1002500");
  EXPECT_EQ(One(db, "SELECT value FROM meta WHERE key = 'json.displayTimeUnit'"), "ns");
}

TEST_F(ChromeJson, BeginEndNestPerThreadAndUnmatchedAreCounted) {
  // Thread 1: A [0,10] holds B [2,5]; an extra E at 11; C opens at 12 and never closes (the
  // trace ends at 20 with the X on thread 2).
  auto db = Import(R"([
    {"ph":"B","name":"A","pid":1,"tid":1,"ts":0},
    {"ph":"B","name":"B","pid":1,"tid":1,"ts":2},
    {"ph":"E","pid":1,"tid":1,"ts":5},
    {"ph":"E","pid":1,"tid":1,"ts":10},
    {"ph":"E","pid":1,"tid":1,"ts":11},
    {"ph":"B","name":"C","pid":1,"tid":1,"ts":12},
    {"ph":"X","name":"D","pid":1,"tid":2,"ts":0,"dur":20}])");
  EXPECT_EQ(One(db, "SELECT group_concat(s.value || '@' || ts_ns || '+' || duration_ns || 'd' || "
                    "depth) FROM (SELECT * FROM cpu_slice ORDER BY ts_ns, depth) c "
                    "JOIN strings s ON s.id = c.name_sid WHERE thread_id = "
                    "(SELECT id FROM threads WHERE tid = 1)"),
            "A@0+10000d0,B@2000+3000d1,C@12000+8000d0");
  EXPECT_EQ(Problem(db, "json_unmatched_end"), "1");
  EXPECT_EQ(Problem(db, "json_unclosed_begin"), "1");
}

TEST_F(ChromeJson, CompleteEventsAtOneTimeNestLongestFirst) {
  auto db = Import(R"([
    {"ph":"X","name":"inner","pid":1,"tid":1,"ts":5,"dur":1},
    {"ph":"X","name":"outer","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"X","name":"next","pid":1,"tid":1,"ts":15,"dur":1}])");
  EXPECT_EQ(One(db, "SELECT group_concat(s.value || ':' || depth) FROM (SELECT * FROM cpu_slice "
                    "ORDER BY event_id) c JOIN strings s ON s.id = c.name_sid"),
            "outer:0,inner:1,next:0");
}

TEST_F(ChromeJson, MetadataNamesStringAndNegativeIds) {
  auto db = Import(R"([
    {"ph":"M","name":"process_name","pid":7,"tid":0,"args":{"name":"Browser"}},
    {"ph":"M","name":"thread_name","pid":7,"tid":-1,"args":{"name":"Main"}},
    {"ph":"M","name":"thread_sort_index","pid":7,"tid":-1,"args":{"sort_index":-5}},
    {"ph":"X","name":"a","pid":7,"tid":-1,"ts":1,"dur":1},
    {"ph":"X","name":"b","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":1}])");
  EXPECT_EQ(One(db,
                "SELECT group_concat(p.value || '/' || t.value || '/' || th.tid || '/' || "
                "th.sort_index, ' ; ') FROM threads th JOIN processes pr ON pr.id = "
                "th.process_id JOIN strings p ON p.id = pr.name_sid JOIN strings t ON t.id = "
                "th.name_sid"),
            "Browser/Main/-1/-5 ; Spans/PyTorch Profiler/0/0");
}

// Ids of 17 and 19 digits (a fuzzer's: their hash once overflowed a signed multiply, which the
// sanitizer build stops on) are kept as written.
TEST_F(ChromeJson, HugeProcessAndThreadIdsAreKeptAsWritten) {
  auto db = Import(R"([
    {"ph":"X","name":"a","pid":22222222222222100,"tid":9223372036854775807,"ts":1,"dur":1},
    {"ph":"X","name":"b","pid":-9223372036854775807,"tid":-22222222222222100,"ts":2,"dur":1}])");
  EXPECT_EQ(One(db, "SELECT group_concat(pr.pid || '/' || th.tid, ' ; ') FROM (SELECT * FROM "
                    "threads ORDER BY id) th JOIN processes pr ON pr.id = th.process_id"),
            "22222222222222100/9223372036854775807 ; -9223372036854775807/-22222222222222100");
}

TEST_F(ChromeJson, InstantsCountersAndUnknownPhases) {
  auto db = Import(R"([
    {"ph":"i","name":"t","pid":1,"tid":1,"ts":1},
    {"ph":"i","name":"p","pid":1,"tid":1,"ts":2,"s":"p"},
    {"ph":"I","name":"g","pid":1,"tid":1,"ts":3,"s":"g"},
    {"ph":"R","name":"mark","pid":1,"tid":1,"ts":4},
    {"ph":"C","name":"mem","pid":1,"tid":9,"ts":5,"id":"0x10","args":{"heap":10,"gpu":2.5}},
    {"ph":"C","name":"mem","pid":1,"tid":3,"ts":6,"id":16,"args":{"heap":11}},
    {"ph":"Q","name":"?","pid":1,"tid":1,"ts":7},
    {"ph":"O","name":"obj","pid":1,"tid":1,"ts":8,"id":1,"args":{"snapshot":{}}}])");
  // Scopes 0 thread, 1 process, 2 global (global instants have no thread).
  EXPECT_EQ(One(db, "SELECT group_concat(scope || ':' || (thread_id IS NULL)) FROM "
                    "(SELECT * FROM instant ORDER BY ts_ns)"),
            "0:0,1:0,2:1,0:0");
  // "0x10" and 16 are the same id: one series per args key, name[id].key.
  EXPECT_EQ(One(db, "SELECT group_concat(s.value || '=' || n, ' ') FROM (SELECT name_sid, "
                    "count(*) AS n FROM counter_series c JOIN counter_samples m ON m.series_id = "
                    "c.id GROUP BY c.id ORDER BY c.id) JOIN strings s ON s.id = name_sid"),
            "mem[16].heap=2 mem[16].gpu=1");
  EXPECT_EQ(Problem(db, "json_unknown_phase_Q"), "1");
  EXPECT_EQ(Problem(db, "json_object_events"), "1");
}

TEST_F(ChromeJson, AsyncNestableAndLegacy) {
  // Nestable: b/e on id 1 (cat c) from two threads, an n, an e with no b. Legacy S/T/F.
  auto db = Import(R"([
    {"ph":"b","name":"load","cat":"c","id":1,"pid":1,"tid":1,"ts":10},
    {"ph":"n","name":"step","cat":"c","id":1,"pid":1,"tid":2,"ts":12},
    {"ph":"e","name":"load","cat":"c","id":1,"pid":1,"tid":2,"ts":15},
    {"ph":"e","name":"load","cat":"c","id":2,"pid":1,"tid":2,"ts":16},
    {"ph":"S","name":"job","id":"a","pid":1,"tid":1,"ts":20},
    {"ph":"T","name":"job","id":"a","pid":1,"tid":1,"ts":21},
    {"ph":"F","name":"job","id":"a","pid":1,"tid":1,"ts":30}])");
  EXPECT_EQ(One(db, "SELECT group_concat(s.value || '@' || ts_ns || '+' || duration_ns) FROM "
                    "(SELECT * FROM async_slice ORDER BY ts_ns) a JOIN strings s ON s.id = "
                    "a.name_sid"),
            "load@10000+5000,step@12000+0,job@20000+10000");
  EXPECT_EQ(Problem(db, "json_async_unmatched_end"), "1");
  EXPECT_EQ(Problem(db, "json_async_steps"), "1");
}

TEST_F(ChromeJson, FlowV1BindingRules) {
  // Thread 1 slice A [0,10]; thread 2 slices B [20,30] and C [40,50].
  // Flow 1: s in A -> f at 25 with bp:e -> binds to B (enclosing).
  // Flow 2: s in A -> f at 35 without bp -> binds to the next slice starting on thread 2: C.
  // Flow 3: s at 100 where no slice is -> dropped (counted).
  auto db = Import(R"([
    {"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"B","pid":1,"tid":2,"ts":20,"dur":10},
    {"ph":"X","name":"C","pid":1,"tid":2,"ts":40,"dur":10},
    {"ph":"s","name":"f","cat":"x","id":1,"pid":1,"tid":1,"ts":5},
    {"ph":"f","name":"f","cat":"x","id":1,"pid":1,"tid":2,"ts":25,"bp":"e"},
    {"ph":"s","name":"f","cat":"x","id":2,"pid":1,"tid":1,"ts":6},
    {"ph":"f","name":"f","cat":"x","id":2,"pid":1,"tid":2,"ts":35},
    {"ph":"s","name":"f","cat":"x","id":3,"pid":1,"tid":1,"ts":100}])");
  EXPECT_EQ(One(db, "SELECT group_concat(a.value || '>' || b.value) FROM (SELECT * FROM flows "
                    "ORDER BY to_event) f JOIN cpu_slice x ON x.event_id = f.from_event JOIN "
                    "cpu_slice y ON y.event_id = f.to_event JOIN strings a ON a.id = x.name_sid "
                    "JOIN strings b ON b.id = y.name_sid"),
            "A>B,A>C");
  EXPECT_EQ(Problem(db, "json_flow_unbound"), "1");
}

TEST_F(ChromeJson, FlowV2BindId) {
  auto db = Import(R"([
    {"ph":"X","name":"P","pid":1,"tid":1,"ts":0,"dur":10,"bind_id":"0x1","flow_out":true},
    {"ph":"X","name":"Q","pid":1,"tid":2,"ts":20,"dur":10,"bind_id":"0x1","flow_in":true},
    {"ph":"X","name":"R","pid":1,"tid":2,"ts":40,"dur":10,"bind_id":"0x9","flow_in":true}])");
  EXPECT_EQ(One(db, "SELECT count(*) FROM flows"), "1");
  EXPECT_EQ(Problem(db, "json_flow_v2_no_producer"), "1");
}

TEST_F(ChromeJson, LenientSkipsBadEventsAndCountsThem) {
  const std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
    {"ph":"X","name":"b","pid":1,"tid":1,"ts":"oops","dur":1},
    {"ph":"X","name":"c","pid":1,"tid":1,"ts":3,"dur":1}])";
  EXPECT_THROW(Import(json), core::Error);
  importers::ImportOptions lenient;
  lenient.lenient = true;
  auto db = Import(json, lenient);
  EXPECT_EQ(One(db, "SELECT count(*) FROM cpu_slice"), "2");
  EXPECT_EQ(Problem(db, "json_bad_event"), "1");
}

TEST_F(ChromeJson, AnyFileBecomesATraceDatabaseToOpen) {
  const fs::path json = m_dir / "any.json";
  std::ofstream(json) << R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}])";
  const fs::path db = importers::TraceDatabaseFor(json, m_dir / "views");
  EXPECT_EQ(db, m_dir / "views" / "any.json.fencescope.db");
  EXPECT_EQ(One(db, "SELECT count(*) FROM cpu_slice"), "1");
  EXPECT_EQ(importers::TraceDatabaseFor(db, m_dir / "views"), db);  // already a trace
}

}  // namespace
