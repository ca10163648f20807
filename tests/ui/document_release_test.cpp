// A loaded Document keeps only the event columns the window reads every frame (ts, kind, rowid)
// and still shows every field of a selected record, read from the file: checked against the
// row as a plain SELECT of our own returns it, with whole frames of the window drawn around it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <map>

#include "app/gui/platform/headless_context.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/views/details_view.h"
#include "app/gui/views/main_window.h"
#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::EventKind;

std::map<std::string, std::string> AsMap(const std::vector<std::pair<std::string, std::string>>& v) {
  return {v.begin(), v.end()};
}

TEST(DocumentRelease, BulkColumnsAreReleasedAndDetailsComeFromTheFile) {
  test_support::ScratchDir dir;
  auto path = dir / "default.db";
  auto sim = test_support::RunFencescope("simulate default -o '" + path.string() + "'");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;

  platform::HeadlessContext context(1280, 800);
  views::MainWindow main({}, {});
  main.OpenNow(path);
  ASSERT_NE(main.document(), nullptr);
  state::Document& doc = *main.document();
  const auto& e = doc.store.events;
  ASSERT_GT(e.size(), 1000u);
  EXPECT_TRUE(e.bulk_released);
  EXPECT_EQ(e.queue.HeapBytes() + e.thread.HeapBytes() + e.fence.HeapBytes() +
                e.value.HeapBytes() + e.op.HeapBytes() + e.arg0.HeapBytes() +
                e.arg1.HeapBytes() + e.arg2.HeapBytes() + e.flags.HeapBytes(),
            0u);
  EXPECT_EQ(e.ts.size(), e.size());
  EXPECT_EQ(e.kind.size(), e.size());
  EXPECT_TRUE(doc.records->reads_file());

  // The last executed fence signal of the trace: select it and draw the window around it.
  uint32_t chosen = UINT32_MAX;
  for (uint32_t i = 0; i < e.size(); ++i) {
    if (e.kind[i] == EventKind::FenceSignalExecuted) chosen = i;
  }
  ASSERT_NE(chosen, UINT32_MAX);
  state::JumpTo(doc, {state::SelectionKind::kEvent, chosen, 0});
  for (views::Panel panel : {views::Panel::kEvents, views::Panel::kFindings, views::Panel::kPgo}) {
    main.ShowPanel(panel);
    for (int frame = 0; frame < 2; ++frame) {
      ImGui::NewFrame();
      main.DrawFrame();
      ImGui::Render();
      main.ApplyRequests();
    }
  }
  EXPECT_EQ(doc.view.selection.index, chosen);

  // The row as SQLite has it.
  core::store::Database db(path.string(), core::store::Database::Mode::kReadOnly);
  core::store::Statement s = db.Prepare(
      "SELECT e.ts_ns, e.value, e.op_id, e.arg0, e.arg1, e.arg2, e.flags, s.value "
      "FROM events e JOIN fences f ON f.id = e.fence_id JOIN strings s ON s.id = f.name_sid "
      "WHERE e.rowid = ?");
  s.BindInt(1, e.RowIdOf(chosen));
  ASSERT_TRUE(s.Step());
  auto fields = AsMap(views::RecordFields(doc, chosen));
  EXPECT_EQ(fields["rowid"], fmt::format("{}", e.RowIdOf(chosen)));
  EXPECT_EQ(fields["kind"], "fence_signal_executed");
  EXPECT_NE(fields["ts_ns"].find(fmt::format("({} ns)", s.ColumnInt(0))), std::string::npos);
  EXPECT_EQ(fields["value"], fmt::format("{}", static_cast<uint64_t>(s.ColumnInt(1))));
  EXPECT_EQ(fields["op_id"], fmt::format("{}", s.ColumnInt(2)));
  EXPECT_EQ(fields["arg0"], fmt::format("{}", s.ColumnInt(3)));
  EXPECT_EQ(fields["arg1"], fmt::format("{}", s.ColumnInt(4)));
  EXPECT_EQ(fields["arg2"], fmt::format("{}", s.ColumnInt(5)));
  EXPECT_EQ(fields["flags"], fmt::format("{:#x}", s.ColumnInt(6)));
  EXPECT_EQ(fields["fence_id"].rfind(s.ColumnText(7), 0), 0u) << fields["fence_id"];
}

}  // namespace
