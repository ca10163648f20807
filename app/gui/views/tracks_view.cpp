#include "app/gui/views/tracks_view.h"

#include <imgui.h>

#include <algorithm>

namespace app::gui::views {

bool MoveTrack(state::Document& doc, int track, int delta) {
  auto& order = doc.view.track_order;
  auto it = std::find(order.begin(), order.end(), track);
  if (it == order.end()) return false;
  long pos = it - order.begin();
  long other = pos + delta;
  if (other < 0 || other >= static_cast<long>(order.size())) return false;
  if (doc.model.tracks[order[other]].group != doc.model.tracks[track].group) return false;
  std::swap(order[pos], order[other]);
  ++doc.view.layout_generation;
  return true;
}

void TracksView::Draw(state::Document& doc) {
  auto& view = doc.view;
  bool changed = false;
  changed |= ImGui::Checkbox("dependency arrows", &view.show_arrows);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("fence signal / wait boxes", &view.show_fence_boxes);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("interrupt rate curve", &view.show_rate_curve);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("vsync lines", &view.show_vsync);
  ImGui::SameLine();
  if (ImGui::Button("Show all tracks")) {
    std::fill(view.track_hidden.begin(), view.track_hidden.end(), 0);
    std::fill(view.group_collapsed.begin(), view.group_collapsed.end(), 0);
    changed = true;
  }
  ImGui::TextDisabled("Right-click a track's name on the timeline to hide it.");
  if (!ImGui::BeginTable("tracks", 3, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg)) {
    if (changed) ++view.layout_generation;
    return;
  }
  ImGui::TableSetupColumn("shown", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("track");
  ImGui::TableSetupColumn("order", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  int last_group = -2;
  for (size_t pos = 0; pos < view.track_order.size(); ++pos) {
    int t = view.track_order[pos];
    const auto& track = doc.model.tracks[t];
    ImGui::PushID(t);
    if (track.group != last_group) {
      last_group = track.group;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(1);
      std::string path;
      for (int g = track.group; g >= 0; g = doc.model.groups[g].parent) {
        path = doc.model.groups[g].label + (path.empty() ? "" : " > " + path);
      }
      ImGui::TextDisabled("%s", path.c_str());
    }
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    bool shown = !view.track_hidden[t];
    if (ImGui::Checkbox("##shown", &shown)) {
      view.track_hidden[t] = shown ? 0 : 1;
      changed = true;
    }
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(track.label.c_str());
    ImGui::TableSetColumnIndex(2);
    if (ImGui::ArrowButton("##up", ImGuiDir_Up)) MoveTrack(doc, t, -1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##down", ImGuiDir_Down)) MoveTrack(doc, t, +1);
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (changed) ++view.layout_generation;
}

}  // namespace app::gui::views
