// Recent files: every trace that opens goes first in the list (once, at most kMaxRecent), the list
// survives a restart through settings.txt, and File > Open recent opens the one clicked: the
// menu is driven with the mouse as a user would, in whole frames.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/state/settings.h"
#include "app/gui/views/main_window.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;      // NOLINT
using namespace test_support;  // NOLINT
using Strings = std::vector<std::string>;

TEST(RecentFiles, TheLastOpenedGoesFirstOnceAndTheListIsBounded) {
  state::Settings settings;
  for (int i = 0; i < 20; ++i) state::AddRecentFile(settings, "/t/" + std::to_string(i) + ".db");
  ASSERT_EQ(settings.recent_files.size(), state::Settings::kMaxRecent);
  EXPECT_EQ(settings.recent_files.front(), "/t/19.db");
  EXPECT_EQ(settings.recent_files.back(),
            "/t/" + std::to_string(20 - state::Settings::kMaxRecent) + ".db");
  state::AddRecentFile(settings, "/t/15.db");
  EXPECT_EQ(settings.recent_files[0], "/t/15.db");
  EXPECT_EQ(settings.recent_files[1], "/t/19.db");
  EXPECT_EQ(std::count(settings.recent_files.begin(), settings.recent_files.end(), "/t/15.db"), 1);

  ScratchDir dir;
  ASSERT_TRUE(state::SaveSettings(settings, dir / "settings.txt"));
  EXPECT_EQ(state::LoadSettings(dir / "settings.txt").recent_files, settings.recent_files);
}

// The window ImGui drew under `name` in the last frame (a menu's popup is "##Menu_00", its
// submenu "##Menu_01"), nullptr when it was not drawn.
ImGuiWindow* DrawnWindow(const char* name) {
  ImGuiWindow* window = ImGui::FindWindowByName(name);
  return window && window->Active ? window : nullptr;
}

class RecentMenuTest : public ::testing::Test {
 protected:
  void Frame() { window_.Frame(*main_); }

  // Moves the mouse along the segment from `from` to `to` in 1-pixel steps, a frame each, until
  // the item `id` is hovered; false when it never is.
  bool HoverItem(ImGuiID id, ImVec2 from, ImVec2 to) {
    const float length = std::max(std::abs(to.x - from.x), std::abs(to.y - from.y));
    for (float step = 0; step <= length; step += 1.0f) {
      const float t = length > 0 ? step / length : 0.0f;
      ImGui::GetIO().MousePos = ImVec2(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
      Frame();
      if (ImGui::GetCurrentContext()->HoveredId == id) return true;
    }
    return false;
  }
  void Click() {
    ImGui::GetIO().MouseDown[0] = true;
    Frame();
    ImGui::GetIO().MouseDown[0] = false;
    Frame();
  }
  // Hovers `label` in the drawn popup `popup` (going down its middle) and clicks it.
  ::testing::AssertionResult ClickInPopup(const char* popup, const std::string& label) {
    ImGuiWindow* window = DrawnWindow(popup);
    if (!window) return ::testing::AssertionFailure() << popup << " is not open";
    const ImGuiID id = ImHashStr(label.c_str(), 0, window->ID);
    const float x = window->Pos.x + window->Size.x * 0.5f;
    if (!HoverItem(id, ImVec2(x, window->Pos.y), ImVec2(x, window->Pos.y + window->Size.y))) {
      return ::testing::AssertionFailure() << "no item '" << label << "' in " << popup;
    }
    Click();
    return ::testing::AssertionSuccess();
  }

  // Before main_: the window saves its settings into it when it closes, after the test body.
  test_support::ScratchDir dir_;
  test_support::HeadlessWindow window_;
  std::unique_ptr<views::MainWindow> main_;
};

TEST_F(RecentMenuTest, FileOpenRecentOpensTheClickedTrace) {
  const ScratchDir& dir = dir_;
  const auto a = std::filesystem::absolute(SimulateTrace(dir / "a.db", "default --duration-ms 20"));
  const auto b = std::filesystem::absolute(
      SimulateTrace(dir / "b.db", "async_compute_graphics --duration-ms 20"));
  const auto settings_file = dir / "config" / "settings.txt";

  // A first run opens a, then b: the list is b, a, and it is saved.
  {
    state::Settings settings;
    views::MainWindow first(settings, settings_file);
    first.OpenNow(a);
    first.OpenNow(b);
  }
  ASSERT_EQ(state::LoadSettings(settings_file).recent_files, (Strings{b.string(), a.string()}));

  // The next run starts with no trace; File > Open recent lists b then a; a click on a opens it.
  main_ = std::make_unique<views::MainWindow>(state::LoadSettings(settings_file), settings_file);
  Frame();
  ASSERT_EQ(main_->document(), nullptr);
  ImGuiWindow* top = DrawnWindow("fencescope");
  ASSERT_NE(top, nullptr);
  const ImRect bar = top->MenuBarRect();
  const ImGuiID file_menu = ImHashStr("File", 0, ImHashStr("##menubar", 0, top->ID));
  const float y = (bar.Min.y + bar.Max.y) * 0.5f;
  ASSERT_TRUE(HoverItem(file_menu, ImVec2(bar.Min.x, y), ImVec2(bar.Max.x, y)))
      << "no File menu in the menu bar";
  Click();
  ASSERT_NE(DrawnWindow("##Menu_00"), nullptr) << "File did not open its menu";
  // Hovering "Open recent" opens its submenu: the recent files, most recent first.
  ImGuiWindow* file = DrawnWindow("##Menu_00");
  const float x = file->Pos.x + file->Size.x * 0.5f;
  ASSERT_TRUE(HoverItem(ImHashStr("Open recent", 0, file->ID), ImVec2(x, file->Pos.y),
                        ImVec2(x, file->Pos.y + file->Size.y)));
  Frame();
  ImGuiWindow* recent = DrawnWindow("##Menu_01");
  ASSERT_NE(recent, nullptr) << "Open recent shows no submenu";
  const float mid = recent->Pos.x + recent->Size.x * 0.5f;
  const ImVec2 top_of_list(mid, recent->Pos.y), bottom(mid, recent->Pos.y + recent->Size.y);
  ASSERT_TRUE(HoverItem(ImHashStr(b.string().c_str(), 0, recent->ID), top_of_list, bottom));
  const float b_y = ImGui::GetIO().MousePos.y;
  ASSERT_TRUE(HoverItem(ImHashStr(a.string().c_str(), 0, recent->ID), top_of_list, bottom));
  EXPECT_LT(b_y, ImGui::GetIO().MousePos.y) << "the most recent file is not listed first";
  ASSERT_TRUE(ClickInPopup("##Menu_01", a.string()));

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((main_->Loading() || !main_->document()) && std::chrono::steady_clock::now() < deadline) {
    Frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(main_->document(), nullptr) << main_->error();
  EXPECT_EQ(main_->document()->path, a);
  EXPECT_EQ(main_->settings().recent_files, (Strings{a.string(), b.string()}));
  EXPECT_EQ(state::LoadSettings(settings_file).recent_files, (Strings{a.string(), b.string()}));
}

}  // namespace
