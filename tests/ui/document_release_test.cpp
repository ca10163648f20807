// A loaded Document keeps only the event columns the window reads every frame (ts, kind, rowid)
// and still shows every field of a selected record, read from the file: checked against the
// row as a plain SELECT of the kind's SQL view returns it, field by field under the view's
// names, with whole frames of the window drawn around it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <map>

#include "app/gui/platform/headless_context.h"
#include "app/gui/state/record_fields.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/views/details_view.h"
#include "app/gui/views/main_window.h"
#include "app/gui/widgets/time_format.h"
#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::EventKind;

std::map<std::string, std::string> AsMap(const std::vector<std::pair<std::string, std::string>>& v) {
  return {v.begin(), v.end()};
}

// The last record of `kind` in the trace.
uint32_t LastOfKind(const core::store::EventColumns& e, EventKind kind) {
  uint32_t chosen = UINT32_MAX;
  for (uint32_t i = 0; i < e.size(); ++i) {
    if (e.kind[i] == kind) chosen = i;
  }
  return chosen;
}

// Selects record `event` and draws two frames of each of `panels`.
void SelectAndDraw(views::MainWindow& main, uint32_t event,
                   std::initializer_list<views::Panel> panels) {
  state::JumpTo(*main.document(), {state::SelectionKind::kEvent, event, 0});
  for (views::Panel panel : panels) {
    main.ShowPanel(panel);
    for (int frame = 0; frame < 2; ++frame) {
      ImGui::NewFrame();
      main.DrawFrame();
      ImGui::Render();
      main.ApplyRequests();
    }
  }
}

// The window, headless, with a trace of the default scenario open.
class DocumentRelease : public testing::Test {
 protected:
  void SetUp() override {
    test_support::SimulateTrace(path, "default");
    main.OpenNow(path);
    ASSERT_NE(main.document(), nullptr);
  }
  test_support::ScratchDir dir;
  const std::string path = (dir / "default.db").string();
  platform::HeadlessContext context{1280, 800};
  views::MainWindow main{{}, {}};
};

TEST_F(DocumentRelease, BulkColumnsAreReleasedAndDetailsComeFromTheFile) {
  state::Document& doc = *main.document();
  const auto& e = doc.store.events;
  ASSERT_GT(e.size(), 1000u);
  EXPECT_TRUE(e.bulk_released);
  EXPECT_EQ(e.HeapBytes(), e.ts.HeapBytes() + e.kind.HeapBytes() + e.rowid.HeapBytes());
  EXPECT_EQ(e.ts.size(), e.size());
  EXPECT_EQ(e.kind.size(), e.size());
  EXPECT_TRUE(doc.records->reads_file());

  // The last executed fence signal of the trace: select it and draw the window around it.
  const uint32_t chosen = LastOfKind(e, EventKind::FenceSignalExecuted);
  ASSERT_NE(chosen, UINT32_MAX);
  SelectAndDraw(main, chosen, {views::Panel::kEvents, views::Panel::kFindings, views::Panel::kPgo});
  EXPECT_EQ(doc.view.selection.index, chosen);

  // The row as the kind's SQL view has it.
  core::store::Database db(path, core::store::Database::Mode::kReadOnly);
  core::store::Statement s = db.Prepare(
      "SELECT v.ts_ns, v.fence_value, v.signal_id, v.previous_value, s.value "
      "FROM fence_signal_executed v JOIN fences f ON f.id = v.fence_id "
      "JOIN strings s ON s.id = f.name_sid WHERE v.event_id = ?");
  s.BindInt(1, e.RowIdOf(chosen));
  ASSERT_TRUE(s.Step());
  auto fields = AsMap(views::RecordFields(doc, chosen));
  std::vector<std::string> names;
  for (const auto& [name, text] : fields) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"fence_id", "fence_value", "kind", "previous_value",
                                             "queue_id", "rowid", "signal_id", "ts_ns"}));
  EXPECT_EQ(fields["rowid"], fmt::format("{}", e.RowIdOf(chosen)));
  EXPECT_EQ(fields["kind"], "fence_signal_executed");
  EXPECT_NE(fields["ts_ns"].find(fmt::format("(@{} ns)", s.ColumnInt(0))), std::string::npos);
  EXPECT_EQ(fields["fence_value"], fmt::format("{}", static_cast<uint64_t>(s.ColumnInt(1))));
  EXPECT_EQ(fields["signal_id"], fmt::format("{}", s.ColumnInt(2)));
  EXPECT_EQ(fields["previous_value"], fmt::format("{}", static_cast<uint64_t>(s.ColumnInt(3))));
  EXPECT_EQ(fields["fence_id"].rfind(s.ColumnText(4), 0), 0u) << fields["fence_id"];
}

// A fence_wait_unblocked record in the details panel and the event table: its fields under their
// names, observed_ns as a time on the trace's origin, release_link by its enum name.
TEST_F(DocumentRelease, AnUnblockedWaitShowsItsNamedFields) {
  state::Document& doc = *main.document();
  const uint32_t chosen = LastOfKind(doc.store.events, EventKind::FenceWaitUnblocked);
  ASSERT_NE(chosen, UINT32_MAX);
  SelectAndDraw(main, chosen, {views::Panel::kEvents});

  core::store::Database db(path, core::store::Database::Mode::kReadOnly);
  core::store::Statement s = db.Prepare(
      "SELECT v.observed_ns, v.released_by_signal_id, e.name, v.wait_path "
      "FROM fence_wait_unblocked v "
      "JOIN enum_values e ON e.enum_name = 'release_link' AND e.value = v.release_link "
      "WHERE v.event_id = ?");
  s.BindInt(1, doc.store.events.RowIdOf(chosen));
  ASSERT_TRUE(s.Step());
  const int64_t observed = s.ColumnInt(0);
  ASSERT_NE(observed, 0) << "the simulator gives every unblocked wait its observed time";
  const std::string observed_text = widgets::FormatTime(observed, doc.model.start);

  auto fields = AsMap(views::RecordFields(doc, chosen));
  EXPECT_EQ(fields["kind"], "fence_wait_unblocked");
  EXPECT_EQ(fields["observed_ns"], fmt::format("{} (@{} ns)", observed_text, observed));
  EXPECT_EQ(fields["released_by_signal_id"], fmt::format("{}", s.ColumnInt(1)));
  EXPECT_EQ(fields["release_link"].rfind(s.ColumnText(2) + " (", 0), 0u) << fields["release_link"];
  EXPECT_EQ(fields["wait_path"], fmt::format("{}", s.ColumnInt(3)));
  for (const char* name : {"queue_id", "fence_id", "fence_value", "wait_id"}) {
    EXPECT_EQ(fields.count(name), 1u) << name;
  }
  EXPECT_EQ(fields.size(), 11u);  // rowid, kind, ts_ns and the view's eight fields

  // The event table's line for the row: the fields other than queue, thread and fence.
  const std::string line = state::FieldsLine(doc, doc.records->Read(chosen));
  EXPECT_EQ(line.rfind("fence_value=", 0), 0u) << line;
  EXPECT_NE(line.find("observed_ns=" + observed_text), std::string::npos) << line;
  EXPECT_NE(line.find("release_link=" + s.ColumnText(2)), std::string::npos) << line;
  EXPECT_EQ(line.find("queue_id="), std::string::npos) << line;
}

}  // namespace
