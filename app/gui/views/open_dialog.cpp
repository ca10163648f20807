#include "app/gui/views/open_dialog.h"

#include <imgui.h>

#include <filesystem>

namespace app::gui::views {

std::optional<std::string> OpenDialog::Draw(const std::vector<std::string>& recent_files) {
  if (m_show) {
    ImGui::OpenPopup("Open trace");
    m_show = false;
  }
  std::optional<std::string> chosen;
  ImGui::SetNextWindowSize(ImVec2(640.0f * ImGui::GetFontSize() / 15.0f, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Open trace", nullptr)) return chosen;
  ImGui::TextUnformatted("Trace database (.db) to open:");
  ImGui::SetNextItemWidth(-1);
  bool enter = ImGui::InputText("##path", m_path.data(), m_path.size(),
                                ImGuiInputTextFlags_EnterReturnsTrue);
  std::string path = m_path.data();
  bool exists = !path.empty() && std::filesystem::exists(path);
  if (!path.empty() && !exists) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "no such file");
  if ((ImGui::Button("Open") || enter) && exists) {
    chosen = path;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  if (!recent_files.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("Recent files");
    for (const auto& file : recent_files) {
      if (ImGui::Selectable(file.c_str())) {
        chosen = file;
        ImGui::CloseCurrentPopup();
      }
    }
  }
  ImGui::EndPopup();
  return chosen;
}

}  // namespace app::gui::views
