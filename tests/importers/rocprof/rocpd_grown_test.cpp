// The hand-made rocpd database grown by repeating its rows (grow_rocpd.py, what `bench import`
// is measured on at 1 GB), at 2 MB: every repeated row imported, the counts from the script's
// own count of the file's rows and the hand-made database's links (make_rocpd.py --syncs: one
// hipStreamWaitEvent, and a hipEventSynchronize and a hipDeviceSynchronize, in each copy).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

using test_support::FirstCell;
using test_support::Quote;

TEST(RocpdGrown, EveryRepeatedRowIsImported) {
  test_support::ScratchDir dir;
  const auto rows = test_support::CommandFigures(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/rocprof/grow_rocpd.py") +
      " " + Quote(dir / "grown.db") + " 2");
  ASSERT_GE(rows.at("copies_of_base"), 512);
  const auto trace = dir / "trace.db";
  const auto r = test_support::RunFencescope("import " + Quote(dir / "grown.db") + " -o " +
                                             Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const int64_t packets = rows.at("dispatches") + rows.at("copies");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM packet_submitted"), std::to_string(packets));
  // Every kernel and copy launched by its HIP call, every region a slice of its thread.
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM flows WHERE kind = 1"),
            std::to_string(packets));
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM cpu_slice"), std::to_string(rows.at("regions")));
  const int64_t copies = rows.at("copies_of_base");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM fence_wait_queued"), std::to_string(copies));
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM cpu_wait_begin"), std::to_string(2 * copies));
}

}  // namespace
