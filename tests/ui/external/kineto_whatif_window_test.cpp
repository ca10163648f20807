// What-if in the window on a real Kineto capture (../shared/traces/external/kineto/worker0, a
// PyTorch profiler trace): its longest kernel made twice as fast from the kernel's context menu;
// the prediction tab shows the figures `fencescope whatif --json` prints for the same edit.
#include <gtest/gtest.h>

#include "core/store/query.h"
#include "tests/ui/whatif_driver.h"

namespace {

using namespace app::gui;  // NOLINT

TEST(KinetoWhatIfWindow, AKernelTwiceAsFastAskedFromItsMenuPredictsWhatTheCommandPrints) {
  test_support::ScratchDir dir;
  const auto db = dir / "worker0.db";
  const auto capture =
      test_support::SharedDir() / "traces/external/kineto/worker0.1623143089861.pt.trace.json.gz";
  const auto imported =
      test_support::RunFencescope("import " + test_support::Quote(capture) + " -o " +
                                  test_support::Quote(db));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  test_support::HeadlessWindow window{1600, 1000};
  views::MainWindow main{{}, {}};
  main.OpenNow(db);
  ASSERT_NE(main.document(), nullptr);
  window.Frames(main, 2);
  state::Document& doc = *main.document();
  const uint32_t packet = test_support::LongestPacket(doc);
  const std::string name =
      doc.store.String(doc.analysis.recon.packets.Get<&core::analysis::Packet::name>(packet));
  ASSERT_EQ(name.find('\''), std::string::npos) << "the name is quoted for the shell below";
  const auto asked = test_support::AskAboutPacket(window, main, packet, 0);
  ASSERT_NE(asked.prediction, nullptr) << main.whatif().error();
  EXPECT_GT(asked.frames_while_replaying, 0);
  EXPECT_TRUE(asked.zoomed_while_replaying);
  test_support::ExpectSameAsCommand(*asked.prediction, db, "--scale '" + name + "=0.5'",
                                    dir / "cli.db");
  // Its steps are those of the capture's ProfilerStep#N slices, counted with SQL.
  const auto counted = core::store::RunQuery(
      db, "SELECT count(*) FROM cpu_slice c JOIN strings s ON s.id = c.name_sid "
          "WHERE s.value LIKE 'ProfilerStep#%'");
  ASSERT_EQ(counted.rows.size(), 1u);
  EXPECT_EQ(asked.prediction->result.steps.size(), std::stoull(counted.rows[0][0]));
  // A click on a step of the chart zooms the prediction to that step, and the original (behind
  // its tab) to its own: a step as the prediction measures it, worked out here with SQL from its
  // ProfilerStep#N slice: from the later of the slice's start and the end of the step before
  // (its slice or the work launched within it, whichever ends later) to the later of the
  // slice's end and the end of the packets submitted within it.
  const int64_t step = asked.prediction->result.steps[1].id;
  const std::string sql =
      "WITH slice AS (SELECT c.ts_ns AS b, c.ts_ns + c.duration_ns AS e, s.value AS name "
      "  FROM cpu_slice c JOIN strings s ON s.id = c.name_sid "
      "  WHERE s.value LIKE 'ProfilerStep#%'), "
      "done AS (SELECT name, b, max(e, coalesce((SELECT max(pc.ts_ns) FROM packet_submitted ps "
      "  JOIN packet_completed pc USING (packet_id) WHERE ps.ts_ns >= slice.b AND "
      "  ps.ts_ns < slice.e), e)) AS d FROM slice) "
      "SELECT max(b, coalesce((SELECT p.d FROM done p WHERE p.b < done.b ORDER BY p.b DESC "
      "  LIMIT 1), b)), d FROM done WHERE name = 'ProfilerStep#" +
      std::to_string(step) + "'";
  const auto before_rows = core::store::RunQuery(db, sql);
  const auto after_rows = core::store::RunQuery(main.document()->path, sql);
  ASSERT_FALSE(before_rows.rows.empty());
  ASSERT_FALSE(after_rows.rows.empty());
  const auto& s1 = asked.prediction->result.steps[1];
  EXPECT_EQ(s1.before_ns, std::stoll(before_rows.rows[0][1]) - std::stoll(before_rows.rows[0][0]));
  EXPECT_EQ(s1.after_ns, std::stoll(after_rows.rows[0][1]) - std::stoll(after_rows.rows[0][0]));
  main.ShowPanel(views::Panel::kWhatIf);
  window.Frames(main, 2);
  ASSERT_EQ(main.whatif().step_centres().size(), asked.prediction->result.steps.size());
  test_support::Click(window, main, main.whatif().step_centres()[1], 0);
  const auto& shown = main.document()->view.visible;
  EXPECT_LE(shown.start, std::stoll(after_rows.rows[0][0]));
  EXPECT_GE(shown.end, std::stoll(after_rows.rows[0][1]));
  EXPECT_LT(shown.Length(), 2 * (std::stoll(after_rows.rows[0][1]) - std::stoll(after_rows.rows[0][0])));
}

}  // namespace
