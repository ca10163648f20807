// Damaged and hostile Nsight Systems exports: each import fails with an error naming the file
// and the table (and row), exits non-zero, leaves no trace database and never changes its
// input; an .nsys-rep report is exported by the nsys on PATH or refused naming the command.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;

// The hand-made export `scenario` (make_nsys_sqlite.py, with `options`), then `then_sql` run
// over it.
fs::path Made(const test_support::ScratchDir& dir, const std::string& scenario,
              const std::string& then_sql = "", const std::string& options = "") {
  const fs::path sqlite = dir / (scenario + ".sqlite");
  auto r = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " " + scenario + " " + Quote(sqlite) + " " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (!then_sql.empty()) {
    r = test_support::RunCommand("python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]);"
                                 " d.executescript(sys.argv[2]); d.commit()' " +
                                 Quote(sqlite) + " \"" + then_sql + "\"");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return sqlite;
}

// Imports `input`, which must fail saying every one of `needles`, leaving no output and the
// input's bytes as they were.
void ExpectRefused(const test_support::ScratchDir& dir, const fs::path& input,
                   std::initializer_list<std::string> needles) {
  const std::string before = test_support::ReadFile(input);
  const fs::path out = dir / "out.db";
  const auto r = test_support::RunFencescope("import " + Quote(input) + " --output " +
                                             Quote(out));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(input.string()), std::string::npos) << r.err;
  for (const std::string& needle : needles) {
    EXPECT_NE(r.err.find(needle), std::string::npos) << "missing '" << needle << "' in " << r.err;
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(test_support::ReadFile(input), before);
  // Opened immutable: no journal or WAL file was made beside it.
  EXPECT_FALSE(fs::exists(input.string() + "-journal"));
  EXPECT_FALSE(fs::exists(input.string() + "-wal"));
}

TEST(NsysBadInput, ATruncatedFileIsNamedDamagedWithTheSchemaPageItLacks) {
  test_support::ScratchDir dir;
  const fs::path sqlite = Made(dir, "stream_waits");
  // SQLite spreads the schema's pages over the file: cut, its tables cannot be listed.
  fs::resize_file(sqlite, fs::file_size(sqlite) / 2);
  ExpectRefused(dir, sqlite, {"damaged database", "sqlite_master"});
}

TEST(NsysBadInput, ADamagedTablePageNamesTheTable) {
  test_support::ScratchDir dir;
  // The kernel table's root page overwritten with 0xff bytes.
  const fs::path sqlite =
      Made(dir, "stream_waits", "", "--damage-table CUPTI_ACTIVITY_KIND_KERNEL");
  ExpectRefused(dir, sqlite, {"table CUPTI_ACTIVITY_KIND_KERNEL: damaged database"});
}

TEST(NsysBadInput, ATableWithoutAColumnTheImporterNeedsIsNamed) {
  test_support::ScratchDir dir;
  const fs::path sqlite = Made(
      dir, "graph",
      "CREATE TABLE k2 AS SELECT start, end, deviceId, contextId, correlationId, globalPid, "
      "demangledName, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL; "
      "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; "
      "ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;");
  ExpectRefused(dir, sqlite, {"table CUPTI_ACTIVITY_KIND_KERNEL has no column 'streamId'"});
}

TEST(NsysBadInput, ANullWhereAValueIsNeededNamesTheRow) {
  test_support::ScratchDir dir;
  const fs::path sqlite = Made(
      dir, "graph",
      "CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; "
      "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; "
      "ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL; "
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid = 2;");
  ExpectRefused(dir, sqlite, {"table CUPTI_ACTIVITY_KIND_KERNEL, row 2: column 'start' is NULL"});
}

TEST(NsysBadInput, AHugeValueIsRefusedNotReadIntoMemory) {
  test_support::ScratchDir dir;
  // A 20 MB string, past the 16 MiB bound on a value.
  const fs::path sqlite = Made(
      dir, "graph", "UPDATE StringIds SET value = printf('%.*c', 20000000, 'x') WHERE id = 1;");
  ExpectRefused(dir, sqlite, {"table StringIds", "too big"});
}

TEST(NsysBadInput, ViewsAndTriggersOfTheFileAreNeitherReadNorRun) {
  test_support::ScratchDir dir;
  // A view in the place of a table the importer reads, and a trigger that would write.
  const fs::path sqlite = Made(
      dir, "graph",
      "CREATE VIEW CUPTI_ACTIVITY_KIND_MEMSET AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; "
      "CREATE TRIGGER t AFTER INSERT ON StringIds BEGIN DELETE FROM StringIds; END;");
  const std::string before = test_support::ReadFile(sqlite);
  const fs::path out = dir / "out.db";
  const auto r =
      test_support::RunFencescope("import " + Quote(sqlite) + " --output " + Quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The three kernels, none of them again as memsets.
  EXPECT_EQ(test_support::FirstCell(out, "SELECT count(*) FROM packet_completed"), "3");
  EXPECT_EQ(test_support::ReadFile(sqlite), before);
}

TEST(NsysBadInput, StringIdsThatPointNowhereAreNamedAndCounted) {
  test_support::ScratchDir dir;
  const fs::path sqlite =
      Made(dir, "graph", "DELETE FROM StringIds WHERE value = 'node2';");
  const fs::path out = dir / "out.db";
  const auto r =
      test_support::RunFencescope("import " + Quote(sqlite) + " --output " + Quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test_support::FirstCell(out, "SELECT count FROM import_problems WHERE name = "
                                         "'nsys_string_missing'"),
            "1");
  EXPECT_EQ(test_support::FirstCell(out, "SELECT count(*) FROM strings WHERE value LIKE "
                                         "'(string % missing)'"),
            "1");
}

// A CUDA_EVENT row (with a device timestamp) of a process no other row names: found by
// fuzz_nsys_sqlite as an abort (the process had no number for its correlation ids). The record
// concerns no call, stream wait or sync of the trace, so the import gives the trace it gives
// without the row.
TEST(NsysBadInput, AnEventRecordOfAProcessWithNothingElseChangesNothing) {
  test_support::ScratchDir dir;
  test_support::ScratchDir other;
  const fs::path plain = Made(dir, "stream_waits");
  const fs::path with_row =
      Made(other, "stream_waits",
           "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT VALUES (500, 0, 1, 7, 77, " +
               std::to_string(int64_t{999} << 24) + ", 9, 0);");
  std::string stats[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path out = dir / ("out" + std::to_string(i) + ".db");
    const auto r = test_support::RunFencescope("import " + Quote(i ? with_row : plain) +
                                               " --output " + Quote(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto s = test_support::RunFencescope("stats --json " + Quote(out));
    ASSERT_EQ(s.exit_code, 0) << s.err;
    stats[i] = s.out;
  }
  EXPECT_EQ(stats[1], stats[0]);
}

// An .nsys-rep report: the first bytes of one, which only nsys reads.
fs::path FakeReport(const test_support::ScratchDir& dir) {
  const fs::path report = dir / "report1.nsys-rep";
  std::ofstream(report, std::ios::binary) << "NVIDIA Tegra Profiler Report 2025@1@1@110 body";
  return report;
}

TEST(NsysReport, WithoutNsysOnPathTheErrorNamesTheCommandToRun) {
  test_support::ScratchDir dir;
  const fs::path report = FakeReport(dir);
  const auto r = test_support::RunCommand("PATH=" + Quote(dir.path()) + " " +
                                          Quote(FENCESCOPE_EXECUTABLE) + " import " +
                                          Quote(report) + " --output " + Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nsys export --type sqlite"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(report.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

TEST(NsysReport, TheNsysOnPathExportsItAndTheExportIsImported) {
  test_support::ScratchDir dir;
  const fs::path report = FakeReport(dir);
  const fs::path exported = Made(dir, "graph");
  // A stand-in for nsys: writes the prepared export where --output says, and logs its call.
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin/nsys")
      << "#!/bin/sh\necho \"$@\" > " << Quote(dir / "args") << "\n"
      << "while [ $# -gt 0 ]; do if [ \"$1\" = --output ]; then cp " << Quote(exported)
      << " \"$2\"; fi; shift; done\n";
  fs::permissions(dir / "bin/nsys", fs::perms::owner_all);
  const auto r = test_support::RunCommand("PATH=" + Quote(dir / "bin") + ":/usr/bin:/bin " +
                                          Quote(FENCESCOPE_EXECUTABLE) + " import " +
                                          Quote(report) + " --output " + Quote(dir / "t.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test_support::FirstCell(dir / "t.db", "SELECT count(*) FROM packet_completed"), "3");
  const std::string args = test_support::ReadFile(dir / "args");
  EXPECT_EQ(args.rfind("export --type sqlite", 0), 0u) << args;
  // The temporary export is gone.
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().string().find("nsys-export"), std::string::npos) << entry.path();
  }
}

}  // namespace
