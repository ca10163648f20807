#include "app/gui/widgets/palette.h"

#include <cmath>

namespace app::gui::widgets {
namespace {

// Hues spread by the golden ratio so that neighbouring keys (context 1, 2, 3) differ clearly.
ImU32 HueColor(uint32_t key, float saturation, float value) {
  float hue = std::fmod(0.58f + static_cast<float>(key) * 0.6180339887f, 1.0f);
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(hue, saturation, value, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

ImU32 Darken(ImU32 color, float factor) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x * factor, c.y * factor, c.z * factor, c.w));
}

}  // namespace

ImU32 SpanColor(SpanStyle style, uint32_t key) {
  switch (style) {
    case SpanStyle::kPacket:
      return HueColor(key, 0.55f, 0.85f);
    case SpanStyle::kPacketPaging:
      return IM_COL32(150, 110, 60, 255);
    case SpanStyle::kSignalBox:
      return IM_COL32(62, 92, 180, 255);
    case SpanStyle::kWaitBox:
      return IM_COL32(175, 200, 235, 255);
    case SpanStyle::kCpuWait:
      return IM_COL32(210, 90, 80, 255);
    case SpanStyle::kTask:
      return HueColor(key + 7, 0.45f, 0.80f);
    case SpanStyle::kTaskCancelled:
      return IM_COL32(120, 120, 120, 255);
    case SpanStyle::kCpuSlice:
      return HueColor(key + 3, 0.35f, 0.75f);
    case SpanStyle::kOverrun:
      return IM_COL32(200, 40, 40, 70);
    case SpanStyle::kPreempted:
      return IM_COL32(230, 200, 60, 255);
  }
  return IM_COL32(255, 0, 255, 255);
}

ImU32 FoldedColor(SpanStyle style, uint32_t key) {
  return Darken(SpanColor(style, key), 0.62f);
}

ImU32 MarkColor(MarkStyle style) {
  switch (style) {
    case MarkStyle::kInterrupt:
      return IM_COL32(250, 210, 70, 255);
    case MarkStyle::kInterruptSpurious:
      return IM_COL32(240, 90, 200, 255);
    case MarkStyle::kModeChange:
      return IM_COL32(90, 220, 120, 255);
    case MarkStyle::kCommit:
      return IM_COL32(80, 200, 240, 255);
    case MarkStyle::kPreemption:
      return IM_COL32(255, 140, 30, 255);
    case MarkStyle::kMarker:
      return IM_COL32(200, 200, 200, 255);
    case MarkStyle::kSignalQueued:
      return IM_COL32(90, 120, 200, 255);
    case MarkStyle::kWaitQueued:
      return IM_COL32(170, 200, 240, 255);
    case MarkStyle::kVsync:
      return IM_COL32(120, 230, 230, 255);
    case MarkStyle::kPresent:
      return IM_COL32(255, 160, 60, 255);
    case MarkStyle::kError:
      return IM_COL32(255, 50, 50, 255);
  }
  return IM_COL32(255, 0, 255, 255);
}

ImU32 TextOn(ImU32 fill) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
  float luma = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
  return luma > 0.55f ? IM_COL32(20, 20, 20, 255) : IM_COL32(240, 240, 240, 255);
}

ImU32 TrackBackground(int row) {
  return row % 2 == 0 ? IM_COL32(32, 34, 40, 255) : IM_COL32(38, 40, 47, 255);
}
ImU32 TrackHeaderText() {
  return IM_COL32(220, 222, 228, 255);
}
ImU32 RulerBackground() {
  return IM_COL32(24, 25, 30, 255);
}
ImU32 RulerTick() {
  return IM_COL32(120, 124, 135, 255);
}
ImU32 RulerText() {
  return IM_COL32(200, 202, 210, 255);
}
ImU32 SelectionFill() {
  return IM_COL32(90, 150, 255, 40);
}
ImU32 SelectionEdge() {
  return IM_COL32(120, 170, 255, 200);
}
ImU32 HoverOutline() {
  return IM_COL32(255, 255, 255, 230);
}
ImU32 ArrowColor(bool highlighted, bool crowded) {
  if (highlighted) return IM_COL32(255, 240, 120, 255);
  return crowded ? IM_COL32(230, 230, 240, 80) : IM_COL32(230, 230, 240, 150);
}
ImU32 ArrowHover() {
  return IM_COL32(150, 220, 255, 230);
}
ImU32 ChainArrow() {
  return IM_COL32(255, 70, 130, 255);
}
ImU32 ChainStepFill() {
  return IM_COL32(255, 70, 130, 45);
}
ImU32 ArrowBundle(bool crowded) {
  return crowded ? IM_COL32(200, 205, 225, 90) : IM_COL32(200, 205, 225, 130);
}
ImU32 ArrowBundleText() {
  return IM_COL32(235, 238, 250, 255);
}
ImU32 ArrowBundleLabel() {
  return IM_COL32(40, 44, 56, 215);
}
ImU32 VsyncLine() {
  return IM_COL32(120, 230, 230, 70);
}
ImU32 RateCurve() {
  return IM_COL32(250, 210, 70, 200);
}
ImU32 CounterFill() {
  return IM_COL32(120, 190, 140, 190);
}
ImU32 CounterBaseline() {
  return IM_COL32(120, 190, 140, 90);
}
ImU32 CounterText() {
  return IM_COL32(200, 230, 210, 230);
}
ImU32 BookmarkColor() {
  return IM_COL32(120, 230, 160, 220);
}
ImU32 CursorLine() {
  return IM_COL32(255, 255, 255, 70);
}

ImU32 BaselineOutline() {
  return IM_COL32(120, 210, 255, 210);
}

ImU32 BeforeBar() {
  return IM_COL32(150, 155, 170, 255);
}

ImU32 AfterBar() {
  return IM_COL32(90, 190, 120, 255);
}

void ApplyTheme(float dpi_scale) {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 2.0f;
  style.FrameRounding = 2.0f;
  style.ScrollbarRounding = 2.0f;
  style.WindowBorderSize = 1.0f;
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.105f, 0.12f, 1.0f);
  style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.22f, 0.34f, 1.0f);
  style.ScaleAllSizes(dpi_scale);
}

}  // namespace app::gui::widgets
