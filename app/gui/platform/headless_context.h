// An ImGui context with no window and no renderer (ImGui's example_null): NewFrame / Render build
// draw data on the CPU only. Used by `bench ui` and the headless UI tests. Owns the context.
#pragma once

namespace app::gui::platform {

class HeadlessContext {
 public:
  HeadlessContext(float width, float height);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;
};

}  // namespace app::gui::platform
