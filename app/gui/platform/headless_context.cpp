#include "app/gui/platform/headless_context.h"

#include <imgui.h>

#include "app/gui/platform/window.h"
#include "app/gui/widgets/palette.h"

namespace app::gui::platform {

HeadlessContext::HeadlessContext(float width, float height) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = 1.0f / 60.0f;
  // Stands in for the OpenGL 3 renderer, which draws large draw lists in pieces (vertex offsets,
  // OpenGL >= 3.2), so frames built here hold what a window's frames hold.
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  widgets::ApplyTheme(1.0f);
  LoadFonts(1.0f);
  unsigned char* pixels = nullptr;
  int texture_width = 0, texture_height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &texture_width, &texture_height);
}

HeadlessContext::~HeadlessContext() {
  ImGui::DestroyContext();
}

}  // namespace app::gui::platform
