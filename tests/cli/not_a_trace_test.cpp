// A file that is neither a fencescope trace nor importable is refused saying what it is (told by
// its content, not its name) and what fencescope imports instead; traces carry the schema's
// application_id, and traces written before it was set still open.
#include <gtest/gtest.h>

#include <fstream>

#include "core/store/schema_sql.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using test_support::ExpectFailure;
using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

void WriteBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

void Sql(const std::filesystem::path& db, const std::string& sql) {
  EXPECT_EQ(test_support::ExecSql(db, sql), "") << sql;
}

// What `fencescope import FILE` says, with the import list checked once per message.
std::string ImportRefusal(const ScratchDir& dir, const std::filesystem::path& file) {
  auto r = RunFencescope("import " + Quote(file) + " -o " + Quote(dir / "out.db"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("ETW captures (.etl)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Chrome trace-event JSON"), std::string::npos) << r.err;
  // every importer's format is in the list, the ROCm ones too
  for (const char* format : {"Nsight Systems exports", "rocprofv3 captures (rocpd databases",
                             "rocprof kernel-trace CSV", "XSpace profiles", ".dat", ".html"}) {
    EXPECT_NE(r.err.find(format), std::string::npos) << format << " in " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.db"));
  return r.err;
}

}  // namespace

TEST(NotATrace, ImportNamesWhatTheFileIsByItsContent) {
  ScratchDir dir;
  // named .json, .etl and .db: the name is not what decides
  WriteBytes(dir / "picture.json", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  WriteBytes(dir / "program.etl", std::string("\x7f"
                                              "ELF\x02\x01\x01\0",
                                              8) +
                                      std::string(64, '\0'));
  WriteBytes(dir / "paper.db", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  WriteBytes(dir / "notes.txt", "shopping list\nmilk\n");
  EXPECT_NE(ImportRefusal(dir, dir / "picture.json").find("it is a PNG image"), std::string::npos);
  EXPECT_NE(ImportRefusal(dir, dir / "program.etl").find("it is an ELF executable"),
            std::string::npos);
  EXPECT_NE(ImportRefusal(dir, dir / "paper.db").find("it is a PDF document"), std::string::npos);
  EXPECT_NE(ImportRefusal(dir, dir / "notes.txt")
                .find("text of no format it reads (starting "
                      "\"shopping list\")"),
            std::string::npos);
}

TEST(NotATrace, ZipWithoutATraceNamesItsMember) {
  ScratchDir dir;
  auto r = test_support::RunCommand(
      "cd " + Quote(dir.path()) +
      " && python3 -c \"import zipfile; z = zipfile.ZipFile('pics.zip', 'w'); "
      "z.writestr('logo.png', b'\\x89PNG\\r\\n\\x1a\\n0000'); z.close()\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ImportRefusal(dir, dir / "pics.zip")
                .find("a zip archive without a trace: its member 'logo.png' is a PNG image"),
            std::string::npos);
}

TEST(NotATrace, AnotherProgramsSqliteDatabaseIsNamedAsSuch) {
  ScratchDir dir;
  Sql(dir / "geo.gpkg", "PRAGMA application_id = 1196444487; CREATE TABLE gpkg_contents(x);");
  const std::string err = ImportRefusal(dir, dir / "geo.gpkg");
  EXPECT_NE(err.find("an SQLite database of another program (application_id 0x47504b47; "
                     "tables: gpkg_contents)"),
            std::string::npos)
      << err;
  // every command reading traces says the same
  ExpectFailure(RunFencescope("info " + Quote(dir / "geo.gpkg")), 1,
                "an SQLite database of another program");
}

// A meta row read as a number (the span, the schema version) that holds something else: every
// command refuses the trace naming the row and its text, not with a bare library message.
TEST(NotATrace, AMetaRowThatShouldBeANumberIsNamedWhenItIsNot) {
  ScratchDir dir;
  const auto trace = test_support::SimulateTrace(dir / "t.db", "default --duration-ms 2");
  Sql(trace, "UPDATE meta SET value = 'soon' WHERE key = 'start_ns'");
  for (const char* command : {"stats ", "info ", "report --format json "}) {
    ExpectFailure(RunFencescope(std::string(command) + Quote(trace)), 1,
                  trace.string() + ": meta row start_ns = 'soon' is not a whole number");
  }
  Sql(trace, "UPDATE meta SET value = '12x' WHERE key = 'start_ns'");
  ExpectFailure(RunFencescope("stats " + Quote(trace)), 1, "meta row start_ns = '12x'");
  Sql(trace, "UPDATE meta SET value = '0' WHERE key = 'start_ns'; "
             "UPDATE meta SET value = '99999999999999999999' WHERE key = 'end_ns'");
  ExpectFailure(RunFencescope("stats " + Quote(trace)), 1,
                "meta row end_ns = '99999999999999999999' is not a whole number");
}

TEST(NotATrace, TracesCarryTheApplicationIdAndOldOnesWithoutItStillOpen) {
  ScratchDir dir;
  auto trace = test_support::SimulateTrace(dir / "t.db", "default --duration-ms 2");
  auto r = RunFencescope("query " + Quote(trace) + " 'PRAGMA application_id'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(std::to_string(core::store::kApplicationId)), std::string::npos) << r.out;
  // the bytes "fenc" at offset 68, where shared-mime-info and file(1) look
  EXPECT_EQ(test_support::ReadFile(trace).substr(68, 4), "fenc");
  // a trace from before the id was set
  Sql(trace, "PRAGMA application_id = 0");
  EXPECT_EQ(test_support::ReadFile(trace).substr(68, 4), std::string(4, '\0'));
  r = RunFencescope("stats " + Quote(trace) + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = RunFencescope("info " + Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(NotATrace, VersionNamesTheBuildAndTheSchema) {
  auto r = RunFencescope("--version");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("fencescope ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("trace schema version " + std::to_string(core::store::kSchemaVersion) +
                       " (SQLite application_id 0x66656e63)"),
            std::string::npos)
      << r.out;
}
