#include "app/gui/views/main_window.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "app/gui/platform/user_dirs.h"
#include "app/gui/state/saved_view.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/views/outline_view.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

constexpr const char* kPanelNames[] = {
    "Range statistics", "Events", "Interrupts", "PGO convergence", "Findings", "SQL", "Tracks",
    "Packets", "What-if", "Opportunities"};
constexpr const char* kPanelKeys[] = {"stats",  "events",  "interrupts", "pgo",   "findings",
                                      "sql",    "tracks",  "packets",    "whatif",
                                      "opportunities"};

// Draws the panel'th of the bottom views, which are given in Panel's order (one per panel).
template <typename... Views>
void DrawNthView(int panel, state::Document& doc, Views&... views) {
  static_assert(sizeof...(Views) == static_cast<size_t>(Panel::kCount));
  int i = 0;
  ((i++ == panel ? views.Draw(doc) : void()), ...);
}

float Scale() {
  return ImGui::GetFontSize() / 15.0f;
}

// A draggable bar between two panes; returns the drag distance this frame.
float Splitter(const char* id, ImVec2 size) {
  ImGui::InvisibleButton(id, size);
  bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) {
    ImGui::SetMouseCursor(size.x > size.y ? ImGuiMouseCursor_ResizeNS : ImGuiMouseCursor_ResizeEW);
  }
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRectFilled(
      a, b, active ? IM_COL32(90, 120, 180, 255) : IM_COL32(45, 48, 56, 255));
  if (!active) return 0.0f;
  return size.x > size.y ? ImGui::GetIO().MouseDelta.y : ImGui::GetIO().MouseDelta.x;
}

}  // namespace

const char* PanelName(Panel panel) {
  return kPanelNames[static_cast<int>(panel)];
}

std::optional<Panel> ParsePanel(const std::string& name) {
  for (int i = 0; i < static_cast<int>(Panel::kCount); ++i) {
    if (name == kPanelKeys[i]) return static_cast<Panel>(i);
  }
  return std::nullopt;
}

MainWindow::MainWindow(state::Settings settings, std::filesystem::path settings_file)
    : m_settings(std::move(settings)), m_settings_file(std::move(settings_file)) {
  // Predictions go beside the trace asked about, or with the user's data when settings are
  // kept (a trace opened from a read-only place).
  if (!m_settings_file.empty()) m_whatif.set_folder(platform::UserDataDir() / "predictions");
  m_force_panel =
      static_cast<Panel>(std::clamp(m_settings.bottom_tab, 0, static_cast<int>(Panel::kCount) - 1));
}

MainWindow::~MainWindow() {
  SaveView();
  SaveSettings();
}

std::filesystem::path MainWindow::ViewFile() const {
  if (m_settings_file.empty() || !m_doc) return {};
  return state::SavedViewPath(m_settings_file.parent_path() / "views", m_doc->path);
}

void MainWindow::SaveView() {
  auto file = ViewFile();
  if (file.empty()) return;
  // The What-if panel's question is kept with the trace it is about.
  if (m_whatif.trace() == m_doc->path) m_doc->view.whatif = {m_whatif.label(), m_whatif.edits()};
  state::SaveView(m_doc->view, m_doc->path, file);
}

void MainWindow::ShowSavedQuestion(const state::Document& doc) {
  if (!doc.view.whatif.Empty() && !m_whatif.Busy()) {
    m_whatif.Show(doc.path, doc.view.whatif.edits, doc.view.whatif.label);
  }
}

void MainWindow::SaveSettings() {
  if (m_settings_file.empty()) return;
  if (m_doc) {
    m_settings.show_arrows = m_doc->view.show_arrows;
    m_settings.show_fence_boxes = m_doc->view.show_fence_boxes;
    m_settings.show_rate_curve = m_doc->view.show_rate_curve;
    m_settings.show_vsync = m_doc->view.show_vsync;
  }
  state::SaveSettings(m_settings, m_settings_file);
}

void MainWindow::ResetPanels() {
  m_range_stats.Reset();
  m_packets.Reset();
  m_chain.doc = nullptr;  // a new document may reuse the old one's address
}

void MainWindow::Adopt(state::Document& doc) {
  doc.open_order = ++m_opened;
  // Where the user left this trace: range, bookmarks, track tree (when it is still the same).
  if (!m_settings_file.empty()) {
    const auto file = state::SavedViewPath(m_settings_file.parent_path() / "views", doc.path);
    state::LoadView(doc.view, file);
  }
  doc.view.show_arrows = m_settings.show_arrows;
  doc.view.show_fence_boxes = m_settings.show_fence_boxes;
  doc.view.show_rate_curve = m_settings.show_rate_curve;
  doc.view.show_vsync = m_settings.show_vsync;
  ++doc.view.layout_generation;
  state::AddRecentFile(m_settings, std::filesystem::absolute(doc.path).string());
  SaveSettings();
}

void MainWindow::SetDocument(std::unique_ptr<state::Document> doc) {
  SaveView();
  ResetPanels();
  m_doc = std::move(doc);
  if (m_doc) {
    Adopt(*m_doc);
    ShowSavedQuestion(*m_doc);
  }
}

void MainWindow::AddDocument(std::unique_ptr<state::Document> doc, bool show) {
  if (!doc) return;
  if (!show && m_doc) {
    Adopt(*doc);
    m_other_docs.push_back(std::move(doc));
    return;
  }
  SaveView();
  ResetPanels();
  if (m_doc) m_other_docs.push_back(std::move(m_doc));
  m_doc = std::move(doc);
  Adopt(*m_doc);
  ShowSavedQuestion(*m_doc);
}

void MainWindow::ShowOtherDocument(size_t index) {
  if (index >= m_other_docs.size()) return;
  SaveView();
  ResetPanels();
  std::swap(m_doc, m_other_docs[index]);
  if (!m_doc) m_other_docs.erase(m_other_docs.begin() + static_cast<std::ptrdiff_t>(index));
  ++m_doc->view.layout_generation;
}

void MainWindow::DrawTraceTabs() {
  if (m_other_docs.empty() || !m_doc) return;
  std::vector<state::Document*> tabs{m_doc.get()};
  for (auto& d : m_other_docs) tabs.push_back(d.get());
  std::sort(tabs.begin(), tabs.end(),
            [](const auto* a, const auto* b) { return a->open_order < b->open_order; });
  std::optional<size_t> show;
  state::Document* close = nullptr;
  if (ImGui::BeginTabBar("traces", ImGuiTabBarFlags_AutoSelectNewTabs)) {
    for (state::Document* d : tabs) {
      bool open = true;
      // The shown trace's tab is selected when the window changed it (an open, a close).
      const ImGuiTabItemFlags flags =
          d == m_doc.get() && d != m_tab_selected ? ImGuiTabItemFlags_SetSelected : 0;
      const std::string label =
          d->prediction
              ? fmt::format("what if: {}##trace{}", d->prediction->original.filename().string(),
                            d->open_order)
              : fmt::format("{}##trace{}", d->path.filename().string(), d->open_order);
      if (ImGui::BeginTabItem(label.c_str(), &open, flags)) {
        m_tab_selected = d;
        if (d != m_doc.get()) {
          for (size_t i = 0; i < m_other_docs.size(); ++i) {
            if (m_other_docs[i].get() == d) show = i;
          }
        }
        ImGui::EndTabItem();
      }
      if (ImGui::IsItemHovered()) {
        if (d->prediction) {
          ImGui::SetTooltip("%s\nthe prediction of %s with %s", d->path.string().c_str(),
                            d->prediction->original.string().c_str(),
                            d->prediction->result.edits.c_str());
        } else {
          ImGui::SetTooltip("%s", d->path.string().c_str());
        }
      }
      if (!open) close = d;
    }
    ImGui::EndTabBar();
  }
  if (close == m_doc.get()) {
    m_close_request = true;
  } else if (close) {
    std::erase_if(m_other_docs, [&](const auto& d) { return d.get() == close; });
  } else if (show) {
    ShowOtherDocument(*show);
    m_tab_selected = m_doc.get();
  }
}

void MainWindow::OpenNow(const std::filesystem::path& path) {
  SetDocument(state::LoadDocument(path));
}

void MainWindow::RequestOpen(const std::filesystem::path& path) {
  m_open_requests.push_back(path);
  m_window_after_open.reset();
}

void MainWindow::RequestOpenAt(const FleetView::OpenRequest& request) {
  m_open_requests.push_back(request.database);
  m_window_after_open = state::TimeRange{request.start, request.end};
}

void MainWindow::ApplyRequests() {
  if (m_close_request) {
    SaveView();
    ResetPanels();
    m_doc.reset();
    if (!m_other_docs.empty()) {  // the trace opened last among the others is shown
      auto last = std::max_element(m_other_docs.begin(), m_other_docs.end(),
                                   [](const auto& a, const auto& b) {
                                     return a->open_order < b->open_order;
                                   });
      m_doc = std::move(*last);
      m_other_docs.erase(last);
    }
    m_chain.doc = nullptr;
    m_close_request = false;
  }
  for (const auto& path : m_open_requests) {
    m_loaders.push_back(std::make_unique<state::DocumentLoader>());
    m_loaders.back()->Start(path);
    m_newest_load = m_loaders.back().get();
  }
  m_open_requests.clear();
}

void MainWindow::CollectWhatIf() {
  if (m_doc) {
    auto question = m_timeline.TakeQuestion();
    if (!question) question = m_packets.TakeQuestion();
    if (question) {
      const auto& original = m_doc->prediction ? m_doc->prediction->original : m_doc->path;
      m_whatif.Ask(original, std::move(question->edits), std::move(question->label));
      m_force_panel = Panel::kWhatIf;
    }
  }
  if (m_whatif.TakeShowCriticalPaths() && m_doc) {
    // Each trace's critical path is the chain of causes of the packet it ends at.
    auto select_path_end = [](state::Document& doc) {
      const uint32_t packet = core::analysis::CriticalPathEndPacket(doc.analysis.recon);
      if (packet != core::analysis::kNoIndex) {
        doc.view.selection = {state::SelectionKind::kPacket, packet, 0};
      }
    };
    select_path_end(*m_doc);
    if (m_doc->prediction) {
      for (auto& other : m_other_docs) {
        if (other->path == m_doc->prediction->original) select_path_end(*other);
      }
    }
  }
  if (auto step = m_whatif.TakeStepClicked(); step && m_doc && m_doc->prediction) {
    // The step in the prediction (shown) and in the original (behind its tab).
    const auto& p = *m_doc->prediction;
    if (const auto* after = state::FindStep(p.steps_after, *step)) {
      state::ZoomTo(m_doc->view, {after->start, after->end});
    }
    if (const auto* before = state::FindStep(p.steps_before, *step)) {
      for (auto& other : m_other_docs) {
        if (other->path == p.original) state::ZoomTo(other->view, {before->start, before->end});
      }
    }
  }
  if (auto pick = m_opportunities.TakePick()) {
    m_whatif.Ask(pick->trace, pick->opportunity.edits, pick->question);
    m_force_panel = Panel::kWhatIf;
  }
  if (auto prediction = m_whatif.TakePrediction()) {
    AddDocument(std::move(prediction), true);
    m_force_panel = Panel::kWhatIf;
  }
}

void MainWindow::DrawFrame() {
  CollectLoads();
  CollectWhatIf();
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_MenuBar |
                                      ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4, 4));
  ImGui::Begin("fencescope", nullptr, kFlags);
  ImGui::PopStyleVar();
  DrawMenuBar();
  const state::DocumentLoader* load = CurrentLoad();
  auto outline = load ? load->Outline() : nullptr;
  m_showing_outline = !m_doc && outline;
  DrawTraceTabs();
  if (m_doc) {
    DrawWorkspace();
  } else if (outline) {
    // Progressive opening: the trace's outline while the rest loads.
    DrawOutline(load->path(), *outline, load->Progress());
  } else {
    ImGui::Spacing();
    ImGui::TextUnformatted("No trace open.");
    ImGui::TextDisabled(
        "File > Open, drop a trace file onto this window, or run `fencescope` "
        "with no arguments to simulate the default scenario.");
    for (const auto& file : m_settings.recent_files) {
      if (ImGui::Selectable(file.c_str())) RequestOpen(file);
    }
  }
  if (auto path = m_open_dialog.Draw(m_settings.recent_files)) RequestOpen(*path);
  if (auto path = m_simulate_dialog.Draw(m_settings)) RequestOpen(*path);
  if (m_fleet) {
    if (auto request = m_fleet->Draw()) RequestOpenAt(*request);
  }
  DrawLoadingOverlay();
  if (!m_error.empty()) {
    ImGui::OpenPopup("Error");
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
      ImGui::TextUnformatted(m_error.c_str());
      if (ImGui::Button("OK")) {
        m_error.clear();
        ImGui::CloseCurrentPopup();
      }
      ImGui::EndPopup();
    }
  }
  ImGui::End();
}

void MainWindow::DrawMenuBar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) m_open_dialog.Show();
    if (ImGui::MenuItem("Simulate...")) m_simulate_dialog.Show(m_settings);
    if (ImGui::BeginMenu("Open recent", !m_settings.recent_files.empty())) {
      for (const auto& file : m_settings.recent_files) {
        if (ImGui::MenuItem(file.c_str())) RequestOpen(file);
      }
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Close", nullptr, false, m_doc != nullptr)) m_close_request = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) m_quit = true;
    ImGui::EndMenu();
  }
  if (m_doc && ImGui::BeginMenu("View")) {
    auto& view = m_doc->view;
    if (ImGui::MenuItem("Fit whole trace", "Home")) state::FitAll(view);
    if (ImGui::MenuItem("Zoom to selected range", "Z", false, view.selected_range.Valid())) {
      state::ZoomTo(view, view.selected_range);
    }
    if (ImGui::MenuItem("Clear selection", "Esc")) {
      view.selection = {};
      view.selected_range = {};
    }
    ImGui::Separator();
    bool changed = false;
    changed |= ImGui::MenuItem("Dependency arrows", nullptr, &view.show_arrows);
    changed |= ImGui::MenuItem("Fence signal / wait boxes", nullptr, &view.show_fence_boxes);
    changed |= ImGui::MenuItem("Interrupt rate curve", nullptr, &view.show_rate_curve);
    changed |= ImGui::MenuItem("VSync lines", nullptr, &view.show_vsync);
    if (changed) ++view.layout_generation;
    ImGui::Separator();
    for (int i = 0; i < static_cast<int>(Panel::kCount); ++i) {
      if (ImGui::MenuItem(kPanelNames[i])) m_force_panel = static_cast<Panel>(i);
    }
    ImGui::EndMenu();
  }
  if (m_doc && ImGui::BeginMenu("Bookmarks")) {
    auto& view = m_doc->view;
    if (ImGui::MenuItem("Add at view centre", "B")) {
      view.bookmarks.push_back({view.visible.start + view.visible.Length() / 2,
                                fmt::format("bookmark {}", view.bookmarks.size() + 1)});
    }
    if (ImGui::MenuItem("Clear all", nullptr, false, !view.bookmarks.empty()))
      view.bookmarks.clear();
    ImGui::Separator();
    // Each bookmark: go to it, rename it, remove it (bookmarks are kept with the trace's view).
    std::optional<size_t> remove;
    for (size_t i = 0; i < view.bookmarks.size(); ++i) {
      auto& mark = view.bookmarks[i];
      std::string label = fmt::format("{}  {}##bookmark{}", mark.label,
                                      widgets::FormatTime(mark.ts, m_doc->model.start), i);
      if (!ImGui::BeginMenu(label.c_str())) continue;
      if (ImGui::MenuItem("Go to")) {
        state::Pan(view, mark.ts - (view.visible.start + view.visible.Length() / 2));
      }
      char name[128];
      std::snprintf(name, sizeof(name), "%s", mark.label.c_str());
      ImGui::SetNextItemWidth(200.0f * Scale());
      if (ImGui::InputText("name", name, sizeof(name))) mark.label = name;
      if (ImGui::MenuItem("Remove")) remove = i;
      ImGui::EndMenu();
    }
    if (remove) view.bookmarks.erase(view.bookmarks.begin() + static_cast<ptrdiff_t>(*remove));
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::TextUnformatted(
        "wheel: zoom at cursor    Shift+wheel: scroll tracks\n"
        "drag: pan    right-drag / Shift+drag / drag on ruler: select range\n"
        "click: select    double-click: zoom to item\n"
        "W/S: zoom    A/D: pan    Home: fit    Z: zoom to range\n"
        "B: bookmark    Esc: clear selection");
    ImGui::EndMenu();
  }
  if (m_doc) {
    ImGui::Separator();
    ImGui::TextDisabled("%s  |  %zu events  |  %zu draw items", m_doc->path.filename().c_str(),
                        m_doc->store.events.size(), m_timeline.cache().items());
  }
  ImGui::EndMenuBar();
  ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && ImGui::IsKeyPressed('O', false)) m_open_dialog.Show();
  if (io.KeyCtrl && ImGui::IsKeyPressed('Q', false)) m_quit = true;
}

void MainWindow::DrawWorkspace() {
  state::Document& doc = *m_doc;
  const float s = Scale();
  const float bar = 5.0f * s;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float timeline_h =
      std::clamp(avail.y * m_settings.timeline_fraction, 100.0f * s, avail.y - 120.0f * s);
  float details_w = std::clamp(m_settings.details_width * s, 150.0f * s, avail.x * 0.5f);

  ImGui::BeginChild("timeline_pane", ImVec2(avail.x - details_w - bar, timeline_h), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  m_timeline.set_label_width(m_settings.label_width);
  state::UpdateSelectionChain(doc, m_chain);
  m_timeline.Draw(doc, m_chain);
  m_settings.label_width = m_timeline.label_width();
  ImGui::EndChild();
  ImGui::SameLine(0, 0);
  float dx = Splitter("##vsplit", ImVec2(bar, timeline_h));
  if (dx != 0) m_settings.details_width = std::max(150.0f, m_settings.details_width - dx / s);
  ImGui::SameLine(0, 0);
  ImGui::BeginChild("details_pane", ImVec2(details_w, timeline_h), true);
  m_details.Draw(doc);
  state::UpdateSelectionChain(doc, m_chain);  // a click in the timeline may have changed it
  m_chain_steps.Draw(doc, m_chain);
  ImGui::EndChild();
  float dy = Splitter("##hsplit", ImVec2(avail.x, bar));
  if (dy != 0) {
    m_settings.timeline_fraction =
        std::clamp(m_settings.timeline_fraction + dy / avail.y, 0.2f, 0.9f);
  }
  ImGui::BeginChild("panels_pane", ImVec2(0, 0), false);
  DrawPanels(doc);
  ImGui::EndChild();
}

void MainWindow::DrawPanels(state::Document& doc) {
  if (!ImGui::BeginTabBar("panels")) return;
  for (int i = 0; i < static_cast<int>(Panel::kCount); ++i) {
    ImGuiTabItemFlags flags = 0;
    if (m_force_panel && static_cast<int>(*m_force_panel) == i) {
      flags |= ImGuiTabItemFlags_SetSelected;
    }
    if (!ImGui::BeginTabItem(kPanelNames[i], nullptr, flags)) continue;
    m_settings.bottom_tab = i;
    DrawNthView(i, doc, m_range_stats, m_events, m_interrupts, m_pgo, m_findings, m_sql, m_tracks,
                m_packets, m_whatif, m_opportunities);
    ImGui::EndTabItem();
  }
  m_force_panel.reset();
  ImGui::EndTabBar();
}

void MainWindow::CollectLoads() {
  // A loader whose thread is done holds its result; each is taken once, then the loader goes
  // (its destructor joins a finished thread at once).
  for (auto it = m_loaders.begin(); it != m_loaders.end();) {
    if ((*it)->Busy()) {
      ++it;
      continue;
    }
    std::string error;
    auto doc = (*it)->TakeResult(error);
    // The trace asked for last is shown; one asked for earlier opens as a tab behind it.
    const bool newest = it->get() == m_newest_load;
    if (newest) m_newest_load = nullptr;
    if (doc) {
      AddDocument(std::move(doc), newest);
      // A fleet cell's trace opens at that step (RequestOpenAt).
      if (newest && m_window_after_open && m_window_after_open->Valid()) {
        state::ZoomTo(m_doc->view, *m_window_after_open);
        m_doc->view.visible = *m_window_after_open;
      }
    } else if (!error.empty()) {
      m_error = error;
    }
    if (newest) m_window_after_open.reset();
    it = m_loaders.erase(it);
  }
}

const state::DocumentLoader* MainWindow::CurrentLoad() const {
  return m_newest_load;  // until its result is taken
}

void MainWindow::DrawLoadingOverlay() {
  const state::DocumentLoader* load = CurrentLoad();
  if (!load || (!m_doc && load->Outline())) return;  // the outline shows the progress
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                 viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::Begin("Loading", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::Text("Loading %s", load->path().string().c_str());
  ImGui::ProgressBar(static_cast<float>(load->Progress()), ImVec2(400.0f * Scale(), 0));
  ImGui::End();
}

}  // namespace app::gui::views
