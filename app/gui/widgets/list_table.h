// The bottom panels' lists: a scrolling, resizable table whose header row stays in view.
#pragma once

#include <initializer_list>

namespace app::gui::widgets {

// Begins the list table `id` with one column per name and draws its header row. False when the
// table is not visible: then, as with ImGui::BeginTable, draw nothing and do not end it.
bool BeginListTable(const char* id, std::initializer_list<const char*> columns);

}  // namespace app::gui::widgets
