// The ftrace importers on the gpuvis Linux capture: ../shared/traces/external/gpuvis/
// amdgpu_trace.zip (a trace-cmd .dat, kernel 4.11, amdgpu) and its `trace-cmd report` text
// (gpuvis/derived/amdgpu.dat.trace-cmd-report.txt.gz).
//
// Expected figures come from report_counts.py (next to this file), run here on the report text:
// it counts event lines, jobs per ring by (context, seqno), CPU submits and vblanks with
// regular expressions and nothing of fencescope. Both the .dat and the text are compared with
// them, and with each other through `fencescope query`.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/store/query.h"
#include "importers/common/compressed_input.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

using test_support::IntAt;
using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

namespace fs = std::filesystem;

fs::path SampleDat() { return test_support::SharedDir() / "traces/external/gpuvis/amdgpu_trace.zip"; }
fs::path SampleText() {
  return test_support::SharedDir() /
         "traces/external/gpuvis/derived/amdgpu.dat.trace-cmd-report.txt.gz";
}

std::map<std::string, int64_t> ScriptCounts() {
  return test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/external/ftrace/report_counts.py",
      SampleText());
}

// key -> count from a two-column query (key, count).
std::map<std::string, int64_t> Counts(const fs::path& db, const std::string& sql) {
  std::map<std::string, int64_t> out;
  auto r = core::store::RunQuery(db, sql);
  for (const auto& row : r.rows) out[row[0]] = std::stoll(row[1]);
  return out;
}

// Figures of the script's kind `prefix` ("started ", "vblank crtc "), keyed by what follows.
std::map<std::string, int64_t> Expected(const std::map<std::string, int64_t>& all,
                                        const std::string& prefix) {
  std::map<std::string, int64_t> out;
  for (const auto& [key, count] : all) {
    if (key.rfind(prefix, 0) == 0) out[key.substr(prefix.size())] = count;
  }
  return out;
}

std::string PerQueue(const std::string& view, const std::string& where = "1") {
  return "SELECT s.value, count(*) FROM " + view +
         " v JOIN queues q ON q.id = v.queue_id JOIN strings s ON s.id = q.name_sid WHERE " +
         where + " GROUP BY 1";
}

class FtraceSample : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = new ScratchDir();
    s_expected = new std::map<std::string, int64_t>(ScriptCounts());
    s_setup_error = new std::string();
    for (const auto& [input, db] : {std::pair{SampleDat(), "dat.db"}, {SampleText(), "text.db"}}) {
      auto r = RunFencescope("import " + Quote(input) + " -o " + Quote(*s_dir / db));
      if (r.exit_code != 0) *s_setup_error += "import of " + input.string() + " failed: " + r.err;
    }
  }
  // A failed import in SetUpTestSuite would only skip the tests; fail each of them instead.
  void SetUp() override { ASSERT_TRUE(s_setup_error->empty()) << *s_setup_error; }
  static void TearDownTestSuite() {
    delete s_expected;
    delete s_dir;
    delete s_setup_error;
  }
  static fs::path Db(const char* name) { return *s_dir / name; }

  void ExpectScriptFigures(const fs::path& db) {
    SCOPED_TRACE(db.filename().string());
    const auto& all = *s_expected;
    ASSERT_FALSE(all.empty()) << "report_counts.py gave nothing";
    EXPECT_EQ(Counts(db, "SELECT substr(name, 14), count FROM import_problems "
                         "WHERE name LIKE 'ftrace_event %'"),
              Expected(all, "events "));
    EXPECT_EQ(Counts(db, PerQueue("packet_submitted")), Expected(all, "submitted "));
    EXPECT_EQ(Counts(db, PerQueue("packet_started")), Expected(all, "started "));
    EXPECT_EQ(Counts(db, PerQueue("packet_completed")), Expected(all, "completed "));
    // CPU submits: jobs submitted by a thread (amdgpu_cs_ioctl), and those seen running.
    EXPECT_EQ(Counts(db, PerQueue("packet_submitted", "v.thread_id > 0")),
              Expected(all, "cpu_submits "));
    EXPECT_EQ(Counts(db, PerQueue("packet_submitted", "v.thread_id > 0 AND v.packet_id IN "
                                                      "(SELECT packet_id FROM packet_started)")),
              Expected(all, "cpu_submits_run "));
    EXPECT_EQ(Counts(db, PerQueue("fence_signal_executed")), Expected(all, "signals "));
    EXPECT_EQ(Counts(db, "SELECT substr(s.value, 13, length(s.value) - 13), count(*) "
                         "FROM marker m JOIN strings s ON s.id = m.name_sid "
                         "WHERE m.marker_type = 1 GROUP BY 1"),
              Expected(all, "vblank crtc "));
    // The trace starts where every CPU was recording: the script's complete_from_us.
    auto start = core::store::RunQuery(db, "SELECT min(ts_ns) / 1000 FROM events").rows;
    ASSERT_EQ(start.size(), 1u);
    EXPECT_EQ(start[0][0], std::to_string(all.at("complete_from_us")));
    // The capture has one GPU driver: every vblank is on its adapter.
    int64_t vblanks = 0;
    for (const auto& [crtc, count] : Expected(all, "vblank crtc ")) vblanks += count;
    EXPECT_EQ(Counts(db, "SELECT s.value, count(*) FROM marker m JOIN adapters a ON "
                         "a.id = m.adapter_id JOIN strings s ON s.id = a.name_sid "
                         "WHERE m.marker_type = 1 GROUP BY 1"),
              (std::map<std::string, int64_t>{{"amdgpu", vblanks}}));
  }

  static ScratchDir* s_dir;
  static std::map<std::string, int64_t>* s_expected;
  static std::string* s_setup_error;
};
ScratchDir* FtraceSample::s_dir = nullptr;
std::map<std::string, int64_t>* FtraceSample::s_expected = nullptr;
std::string* FtraceSample::s_setup_error = nullptr;

}  // namespace

TEST_F(FtraceSample, DatMatchesTheReportScript) { ExpectScriptFigures(Db("dat.db")); }

TEST_F(FtraceSample, ReportTextMatchesTheReportScript) { ExpectScriptFigures(Db("text.db")); }

TEST_F(FtraceSample, ScriptFiguresAgreeWithTheGuide) {
  // shared/guide/trace-formats.md 3.3: cs_ioctl -> sched_run_job linked 665 of 755 over the
  // whole text; crtc 0 and 1.
  const auto& all = *s_expected;
  EXPECT_EQ(all.at("events amdgpu_cs_ioctl"), 755);
  EXPECT_EQ(all.at("raw cpu_submits_run gfx"), 665);
  EXPECT_EQ(all.at("events amdgpu_sched_run_job"), 693);
  EXPECT_EQ(Expected(all, "vblank crtc ").size(), 2u);
}

TEST_F(FtraceSample, DatAndReportTextGiveTheSameTrace) {
  const std::string per_kind_and_queue =
      "SELECT k.name || ' ' || coalesce(s.value, '-'), count(*) FROM events e "
      "JOIN event_kinds k ON k.id = e.kind LEFT JOIN queues q ON q.id = e.queue_id "
      "LEFT JOIN strings s ON s.id = q.name_sid GROUP BY 1";
  const auto dat = Counts(Db("dat.db"), per_kind_and_queue);
  EXPECT_EQ(dat, Counts(Db("text.db"), per_kind_and_queue));
  EXPECT_EQ(dat.at("packet_started gfx"), s_expected->at("started gfx"));
  // Through the CLI too, as a user would compare them.
  const std::string sql = " \"SELECT kind, queue_id, count(*) FROM events GROUP BY 1, 2\"";
  auto a = RunFencescope("query --csv " + Quote(Db("dat.db")) + sql);
  auto b = RunFencescope("query --csv " + Quote(Db("text.db")) + sql);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST_F(FtraceSample, DatHeadersGiveCpusKernelAndTgids) {
  auto r = core::store::RunQuery(Db("dat.db"), "SELECT value FROM meta WHERE key = 'processors'");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0], "4");
  r = core::store::RunQuery(Db("dat.db"), "SELECT value FROM meta WHERE key = 'uname'");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_NE(r.rows[0][0].find("4.11.0"), std::string::npos);
  // The patched trace-cmd's pid/tgid option: threads grouped into fewer processes.
  r = core::store::RunQuery(Db("dat.db"),
                            "SELECT (SELECT count(*) FROM threads) > (SELECT count(*) FROM "
                            "processes), (SELECT count FROM import_problems WHERE name = "
                            "'ftrace_dat_tgid_option') > 0");
  EXPECT_EQ(r.rows[0][0], "1");
  EXPECT_EQ(r.rows[0][1], "1");
}

// The report's figures on the imported text against report_counts.py's reading of the raw
// text: busy time per ring (a ring runs its jobs in order), idle, the span, wait counts and the
// critical path's length, all in whole microseconds as the text gives them.
TEST_F(FtraceSample, ReportFiguresMatchTheScript) {
  const auto& all = *s_expected;
  const core::report::Json report =
      test_support::RunFencescopeJson("report " + Quote(Db("text.db")) + " --format json");
  const core::report::Json stats =
      test_support::RunFencescopeJson("stats " + Quote(Db("text.db")) + " --json");
  const int64_t span = all.at("span_us") * 1000;
  EXPECT_EQ(IntAt(report, "duration_ns"), span);
  for (const char* ring : {"gfx", "sdma0", "sdma1"}) {
    SCOPED_TRACE(ring);
    const std::string q = std::string("queues[\"") + ring + "\"].";
    const auto busy = all.find(std::string("busy_us ") + ring);
    const int64_t busy_ns = busy == all.end() ? 0 : busy->second * 1000;
    EXPECT_EQ(IntAt(report, q + "busy_ns"), busy_ns);
    EXPECT_EQ(IntAt(report, q + "waiting_ns"), 0);  // no GPU wait in the capture (below)
    EXPECT_EQ(IntAt(report, q + "idle_ns"), span - busy_ns);
    EXPECT_EQ(IntAt(stats, q + "busy_ns"), busy_ns);
  }
  EXPECT_EQ(all.at("gpu_waits"), 0);
  EXPECT_EQ(IntAt(report, "fences.gpu_waits_queued"), all.at("gpu_waits"));
  EXPECT_EQ(IntAt(report, "fences.cpu_waits"), all.at("cpu_waits"));
  EXPECT_EQ(IntAt(report, "critical_path.length_ns"), all.at("critical_path_us") * 1000);
  // The .dat gives the same busy time to within its runs' sub-microsecond ends.
  const core::report::Json dat =
      test_support::RunFencescopeJson("report " + Quote(Db("dat.db")) + " --format json");
  EXPECT_NEAR(static_cast<double>(IntAt(dat, "queues[\"gfx\"].busy_ns")),
              static_cast<double>(all.at("busy_us gfx") * 1000),
              1000.0 * static_cast<double>(all.at("completed gfx")));
}

TEST_F(FtraceSample, ReportsSayWhereTheCaptureIsComplete) {
  const fs::path md = *s_dir / "report.md";
  auto r = RunFencescope("report " + Quote(Db("dat.db")) + " -o " + Quote(md));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(md);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int64_t from = s_expected->at("complete_from_us");
  EXPECT_NE(text.find(fmt::format("| capture | complete from {}.{:06} s", from / 1000000,
                                  from % 1000000)),
            std::string::npos)
      << text.substr(0, 600);
  // No GPU or CPU wait in the capture (report_counts.py): said, not shown as empty tables.
  ASSERT_EQ(s_expected->at("gpu_waits") + s_expected->at("cpu_waits"), 0);
  EXPECT_NE(text.find("No queue was held by a wait in this trace."), std::string::npos);
  EXPECT_NE(text.find("No GPU or CPU wait was released in the trace"), std::string::npos);
  EXPECT_EQ(text.find("| waiting queue | signalled by |"), std::string::npos);
}

TEST(FtraceSampleDamaged, TruncatedDatNamesTheFileAndTheByte) {
  ScratchDir dir;
  const fs::path dat = dir / "amdgpu.dat";
  {
    const importers::DecodedInput member = importers::ReadInput(SampleDat());
    std::ofstream out(dat, std::ios::binary);
    out.write(member.bytes.data(), static_cast<std::streamsize>(member.bytes.size()));
  }
  const auto size = fs::file_size(dat);
  // Where each CPU's data lies and the page size, read by dat_layout.py walking the file.
  const auto layout = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/external/ftrace/dat_layout.py", SampleDat());
  ASSERT_EQ(layout.count("page_size"), 1u);
  const uint64_t page = static_cast<uint64_t>(layout.at("page_size"));
  auto cpu_data = [&](int cpu) {  // (offset, size)
    const std::string key = "cpu " + std::to_string(cpu);
    return std::pair{static_cast<uint64_t>(layout.at(key + " offset")),
                     static_cast<uint64_t>(layout.at(key + " size"))};
  };
  const auto [cpu1, cpu1_size] = cpu_data(1);
  const auto [cpu3, cpu3_size] = cpu_data(3);
  ASSERT_GT(cpu1, 0u);
  ASSERT_EQ(cpu3 + cpu3_size, size);  // the last CPU's data runs to the end of the file
  struct Cut {
    uint64_t bytes;
    std::string says;
  };
  const Cut cuts[] = {
      // 3,000 bytes end inside the ftrace formats.
      {3000, "ftrace format needs 733 bytes at byte offset 2909"},
      // Inside CPU 1's fourth page, 100 bytes into it.
      {cpu1 + 3 * page + 100,
       fmt::format("{} bytes into CPU 1's ring-buffer data (byte offset {} to {}): inside its "
                   "page 4 of {}",
                   3 * page + 100, cpu1, cpu1 + cpu1_size, cpu1_size / page)},
      // One page short of the end: inside CPU 3's last page.
      {size - page, fmt::format("CPU 3's ring-buffer data (byte offset {} to {}): inside its "
                                "page {} of {}",
                                cpu3, size, (cpu3_size - page) / page + 1, cpu3_size / page)},
  };
  for (const Cut& cut : cuts) {
    SCOPED_TRACE(cut.bytes);
    const fs::path cut_file = dir / ("cut-" + std::to_string(cut.bytes) + ".dat");
    fs::copy_file(dat, cut_file, fs::copy_options::overwrite_existing);
    fs::resize_file(cut_file, cut.bytes);
    auto run = RunFencescope("import " + Quote(cut_file) + " -o " + Quote(dir / "cut.db"));
    EXPECT_NE(run.exit_code, 0);
    EXPECT_NE(run.err.find(cut_file.filename().string()), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("truncated"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("byte offset"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(cut.says), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir / "cut.db"));
  }
}

// A page whose header claims more events than a page holds (0xff over its commit word):
// refused before libtracecmd reads past the page, naming the CPU, the page and its byte offset
// (from dat_layout.py).
TEST(FtraceSampleDamaged, DamagedPageHeaderNamesTheCpuAndThePage) {
  ScratchDir dir;
  const fs::path dat = dir / "damaged.dat";
  const auto layout = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/external/ftrace/dat_layout.py", SampleDat());
  ASSERT_EQ(layout.count("cpu 1 offset"), 1u);
  const uint64_t page = static_cast<uint64_t>(layout.at("page_size"));
  const uint64_t page4 = static_cast<uint64_t>(layout.at("cpu 1 offset")) + 3 * page;
  {
    importers::DecodedInput member = importers::ReadInput(SampleDat());
    std::string bytes(member.bytes.view());
    bytes.replace(page4 + 8, 8, std::string(8, '\xff'));  // after the page's u64 timestamp
    std::ofstream(dat, std::ios::binary) << bytes;
  }
  auto run = RunFencescope("import " + Quote(dat) + " -o " + Quote(dir / "out.db"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(fmt::format("damaged.dat: damaged trace-cmd .dat: CPU 1's ring-buffer "
                                     "page 4 of {} (byte offset {}",
                                     layout.at("cpu 1 size") / static_cast<int64_t>(page), page4)),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(fs::exists(dir / "out.db"));
}

// Perfetto's systrace samples (../shared/traces/external/perfetto), figures read off their lines.
TEST(FtraceSystrace, ContinuationLinesAreBrokenLinesAndNamesComeFromSchedSwitch) {
  ScratchDir dir;
  const fs::path perfetto = test_support::SharedDir() / "traces/external/perfetto";
  // bad_print.systrace: lines 2 and 3 continue line 1's event (its atrace markers are checked
  // in systrace_sample_test.cpp).
  auto r = RunFencescope("import " + Quote(perfetto / "bad_print.systrace") + " -o " +
                         Quote(dir / "bad.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = core::store::RunQuery(dir / "bad.db",
                                    "SELECT count, first_place FROM import_problems "
                                    "WHERE name = 'ftrace_bad_line'")
                  .rows;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "2");
  EXPECT_NE(rows[0][1].find("line 2: some = 000"), std::string::npos) << rows[0][1];
  // unknown_thread_name.systrace: `<...>-19999` is named by the sched_switch before it.
  r = RunFencescope("import " + Quote(perfetto / "unknown_thread_name.systrace") + " -o " +
                    Quote(dir / "names.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Counts(dir / "names.db", "SELECT s.value, t.tid FROM threads t JOIN strings s ON "
                                     "s.id = t.name_sid"),
            (std::map<std::string, int64_t>{{"real_name", 19999}}));
}
