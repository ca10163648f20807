// `fencescope view FILE.sqlite` on an Nsight Systems export: the window imports it like any other
// capture instead of taking it for a trace database. The expected packets are the kernel, memcpy
// and memset rows of the export, counted with Python's sqlite3 over the file itself.
#include <gtest/gtest.h>

#include <string>

#include "app/gui/state/document.h"
#include "tests/support/test_support.h"

namespace {

using test_support::Quote;

int64_t ActivityRows(const std::filesystem::path& sqlite) {
  const auto r = test_support::RunCommand(
      "python3 -c \"import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
      "names={n for (n,) in c.execute(\\\"SELECT name FROM sqlite_master WHERE type='table'\\\")}; "
      "print(sum(c.execute('SELECT count(*) FROM '+t).fetchone()[0] for t in "
      "('CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET') "
      "if t in names))\" " +
      Quote(sqlite));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? std::stoll(r.out) : -1;
}

}  // namespace

TEST(NsysExportWindow, AnExportOpensInTheWindowAsAnImportedCapture) {
  test_support::ScratchDir dir;
  const auto sqlite = dir / "report1.sqlite";
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " stream_waits " + Quote(sqlite));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const int64_t expected = ActivityRows(sqlite);
  ASSERT_GT(expected, 0);
  const auto before = test_support::ReadFile(sqlite);
  auto doc = app::gui::state::LoadDocument(sqlite);
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(static_cast<int64_t>(doc->analysis.recon.packets.size()), expected);
  EXPECT_EQ(test_support::ReadFile(sqlite), before);  // the export is never written
}
