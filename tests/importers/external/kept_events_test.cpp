// Real PyTorch captures imported as a fleet's worker imports them (the events kept by the writer
// and the store made from them, LoadTraceWithEvents; JSON parsed on one core) against the same
// file imported as `fencescope import` does and read back from its rows (LoadTrace): every
// column of every event, the events hash and the whole report JSON agree. Importers that write
// as they read (ETL, ftrace) keep nothing: their events are read back.
#include <gtest/gtest.h>

#include <string>

#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/event_row_packer.h"
#include "core/store/trace_store.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

void ExpectKeptEqualsRead(const std::string& relative) {
  SCOPED_TRACE(relative);
  test_support::ScratchDir dir;
  const auto input = test_support::SharedDir() / "traces/external" / relative;
  const auto db = dir / "trace.db";
  importers::ImportFile(input, db);
  const core::store::TraceStore read = core::store::LoadTrace(db);

  const auto worker_db = dir / "worker.db";
  core::store::EventRowPacker kept;
  importers::ImportOptions worker;
  worker.kept_events = &kept;
  worker.parse_in_parallel = false;
  importers::ImportFile(input, worker_db, worker);
  ASSERT_GT(kept.rows, 0u);
  core::store::TraceStore made = core::store::LoadTraceWithEvents(worker_db, std::move(kept));
  made.path = db;  // the report names its file
  EXPECT_EQ(made.events_hash, read.events_hash);
  ASSERT_EQ(made.events.size(), read.events.size());
  size_t differing = 0;
  for (size_t i = 0; i < read.events.size(); ++i) {
    bool same = made.events.ts[i] == read.events.ts[i] &&
                made.events.kind[i] == read.events.kind[i] &&
                made.events.RowIdOf(i) == read.events.RowIdOf(i) &&
                made.IndexOfRowId(read.events.RowIdOf(i)) == i;
    for (auto column : {core::model::EventColumn::kQueue, core::model::EventColumn::kThread,
                        core::model::EventColumn::kFence, core::model::EventColumn::kValue,
                        core::model::EventColumn::kOp, core::model::EventColumn::kArg0,
                        core::model::EventColumn::kArg1, core::model::EventColumn::kArg2,
                        core::model::EventColumn::kFlags}) {
      same = same && made.events.ColumnValue(column, i) == read.events.ColumnValue(column, i);
    }
    differing += !same;
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(made.meta, read.meta);
  EXPECT_EQ(made.strings, read.strings);
  EXPECT_EQ(made.flows.size(), read.flows.size());
  EXPECT_EQ(made.problems.size(), read.problems.size());

  const std::string from_kept =
      core::report::ReportJson(core::report::AnalyseTrace(made, /*full=*/true)).Dump();
  const std::string from_rows =
      core::report::ReportJson(core::report::AnalyseTrace(read, /*full=*/true)).Dump();
  EXPECT_EQ(from_kept, from_rows);
}

}  // namespace

TEST(KeptEvents, KinetoTraceKeptByTheWriterIsTheTraceReadBack) {
  ExpectKeptEqualsRead("kineto/worker0.1623143089861.pt.trace.json.gz");
}

TEST(KeptEvents, HtaTraceKeptByTheWriterIsTheTraceReadBack) {
  ExpectKeptEqualsRead(
      "hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz");
}

TEST(KeptEvents, ImportersThatWriteAsTheyReadKeepNothing) {
  for (const char* relative : {"gpuvis/windows_etl.zip", "gpuvis/amdgpu_trace.zip"}) {
    test_support::ScratchDir dir;
    core::store::EventRowPacker kept;
    importers::ImportOptions worker;
    worker.kept_events = &kept;
    const importers::ImportSummary imported = importers::ImportFile(
        test_support::SharedDir() / "traces/external" / relative, dir / "t.db", worker);
    EXPECT_GT(imported.events_written, 0u) << relative;
    EXPECT_EQ(kept.rows, 0u) << relative;
  }
}
