// The report and `stats --json` say which Nsight Systems version exported the file. The expected
// text is read from each real export's own META_DATA_EXPORT / EXPORT_META_DATA table with
// Python's sqlite3.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;

std::string VersionsFromTheFile(const fs::path& sqlite) {
  const auto r = test_support::RunCommand(
      "python3 -c \"import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
      "names={n for (n,) in c.execute(\\\"SELECT name FROM sqlite_master WHERE type='table'\\\")}; "
      "t='META_DATA_EXPORT' if 'META_DATA_EXPORT' in names else 'EXPORT_META_DATA'; "
      "m=dict(c.execute('SELECT name, value FROM '+t)); "
      "print('Nsight Systems %s (export schema %s)' % (m['EXPORT_PRODUCT_VERSION'], "
      "m['EXPORT_SCHEMA_VERSION']), end='')\" " +
      Quote(sqlite));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

}  // namespace

TEST(NsysExportedBy, TheReportNamesTheVersionThatExportedEachRealFile) {
  for (const char* file : {"test-cuda/report1.sqlite", "nvfuser/report1.sqlite",
                           "pipit/perlmutter-cloverleaf-cuda.sqlite",
                           "pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"}) {
    SCOPED_TRACE(file);
    const fs::path sqlite = test_support::SharedDir() / "traces/external" / file;
    const std::string expected = VersionsFromTheFile(sqlite);
    ASSERT_NE(expected.find("Nsight Systems 20"), std::string::npos) << expected;
    test_support::ScratchDir dir;
    auto r = test_support::RunFencescope("import " + Quote(sqlite) + " -o " + Quote(dir / "t.db"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test_support::RunFencescope("stats " + Quote(dir / "t.db") + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const core::report::Json stats = test_support::ParseJsonText(r.out);
    ASSERT_NE(stats.Find("exported_by"), nullptr);
    EXPECT_EQ(stats.Find("exported_by")->String(), expected);
    r = test_support::RunFencescope("report " + Quote(dir / "t.db") + " --format md -o " +
                                    Quote(dir / "r.md"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(test_support::ReadFile(dir / "r.md").find("| exported by | " + expected + " |"),
              std::string::npos);
  }
}
