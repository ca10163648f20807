// Whole window frames with no backend (ImGui's example_null pattern: NewFrame, the window,
// Render), for the window's tests.
#pragma once

#include <imgui.h>

#include "app/gui/platform/headless_context.h"
#include "app/gui/views/main_window.h"

namespace test_support {

class HeadlessWindow {
 public:
  HeadlessWindow(float width = 1280, float height = 800) : m_context(width, height) {}
  void Frame(app::gui::views::MainWindow& main) {
    ImGui::NewFrame();
    main.DrawFrame();
    ImGui::Render();
    main.ApplyRequests();
  }
  void Frames(app::gui::views::MainWindow& main, int n) {
    for (int i = 0; i < n; ++i) Frame(main);
  }

 private:
  app::gui::platform::HeadlessContext m_context;
};

}  // namespace test_support
