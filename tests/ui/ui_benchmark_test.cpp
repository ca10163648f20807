// `fencescope bench ui` on small traces: the heap the window keeps per event (event columns
// kept after the release, packed reconstruction, packed timeline) is a deterministic figure, so
// it is checked against the 32-byte budget here; the resident and timing figures vary
// with the machine and are only printed by the bench.
#include <gtest/gtest.h>

#include <sstream>

#include "app/gui/bench/ui_benchmark.h"

namespace {

using app::gui::bench::RunUiBenchmark;

TEST(UiBenchmark, HeapPerEventStaysWithinTheBudget) {
  std::ostringstream out;
  auto cases = RunUiBenchmark({20'000, 60'000}, 1, out);
  ASSERT_EQ(cases.size(), 2u);
  for (const auto& c : cases) {
    EXPECT_GE(c.events, 20'000u);
    // Every part is there and holds something.
    EXPECT_GT(c.columns_bytes_per_event, 0.0);
    EXPECT_GT(c.reconstruction_bytes_per_event, 0.0);
    EXPECT_GT(c.ui_bytes_per_event, 0.0);
    // Only ts, kind and rowid stay: about 6 bytes per event (all columns would be about 20).
    EXPECT_LT(c.columns_bytes_per_event, 8.0) << c.events;
    // Plain structs took 52-62 bytes per event; packed about 11.
    EXPECT_LT(c.reconstruction_bytes_per_event, 16.0) << c.events;
    EXPECT_LT(c.columns_bytes_per_event + c.reconstruction_bytes_per_event +
                  c.ui_bytes_per_event,
              32.0)
        << c.events;
    EXPECT_LE(c.net_bytes_per_event, c.rss_bytes_per_event);
    EXPECT_GT(c.zoomed_out_items, 0u);
    // A prediction tab's outlines fold as the packets' lane does: no more than the draw items.
    EXPECT_GT(c.prediction_outlines, 0u);
    EXPECT_LE(c.prediction_outlines, c.zoomed_out_items);
  }
  EXPECT_NE(out.str().find("every open trace holds"), std::string::npos);
  EXPECT_NE(out.str().find("net B/ev"), std::string::npos);
}

}  // namespace
