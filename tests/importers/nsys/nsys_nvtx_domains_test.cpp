// NVTX marks and domains in a hand-made export (make_nsys_sqlite.py's nvtx_domains scenario):
// each expected row worked out by hand from the scenario the script's docstring describes.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;
using test_support::RowsText;

TEST(NsysNvtxDomains, MarksAreInstantsAndRangesCarryTheirDomain) {
  test_support::ScratchDir dir;
  const fs::path sqlite = dir / "domains.sqlite";
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " nvtx_domains " + Quote(sqlite));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const fs::path trace = dir / "domains.db";
  const auto r = test_support::RunFencescope("import " + Quote(sqlite) + " --output " +
                                             Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Each range with its domain: "MPI" by name (created as domain 1), domains 2 (never created)
  // and 3 (created with an empty name) by their ids, nothing for the default domain.
  EXPECT_EQ(RowsText(trace, "SELECT n.value, c.ts_ns, c.duration_ns, th.tid, "
                            "(SELECT t.value FROM event_args a JOIN strings k ON k.id = "
                            "a.key_sid JOIN strings t ON t.id = a.text_sid WHERE a.event_rowid "
                            "= c.event_id AND k.value = 'domain'), "
                            "(SELECT a.int_value FROM event_args a JOIN strings k ON k.id = "
                            "a.key_sid WHERE a.event_rowid = c.event_id AND k.value = "
                            "'domain_id') FROM cpu_slice c JOIN strings n ON n.id = c.name_sid "
                            "JOIN threads th ON th.id = c.thread_id ORDER BY c.ts_ns"),
            "MPI_Send|100|100|101|MPI|\n"
            "io|300|100|101||2\n"
            "plain|500|100|101||\n"
            "unnamed|700|100|101||3\n");
  // The marks: instants on thread 101, the one of domain 1 with its name.
  EXPECT_EQ(RowsText(trace, "SELECT n.value, i.ts_ns, th.tid, cat.value, "
                            "(SELECT t.value FROM event_args a JOIN strings t ON t.id = "
                            "a.text_sid WHERE a.event_rowid = i.event_id) FROM instant i "
                            "JOIN strings n ON n.id = i.name_sid JOIN strings cat ON "
                            "cat.id = i.category_sid JOIN threads th ON th.id = i.thread_id "
                            "ORDER BY i.ts_ns"),
            "checkpoint|150|101|nvtx|\n"
            "MPI barrier|250|101|nvtx|MPI\n");
  EXPECT_EQ(test_support::FirstCell(trace, "SELECT count FROM import_problems WHERE name = "
                                           "'nsys_nvtx_marks'"),
            "2");
}

}  // namespace
