#include "app/gui/widgets/list_table.h"

#include <imgui.h>

namespace app::gui::widgets {

bool BeginListTable(const char* id, std::initializer_list<const char*> columns) {
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()), kFlags)) return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : columns) ImGui::TableSetupColumn(c);
  ImGui::TableHeadersRow();
  return true;
}

}  // namespace app::gui::widgets
