// The window's one top-level surface: menu bar, timeline, details panel on the right, and the
// panels under the timeline as tabs. Owns the open Document, the views (one object per window,
// listed in one place below) and the queue of requests made mid-frame (open, close, quit), which
// are applied after ImGui::Render() (the ExampleAppDocuments::CloseQueue pattern).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "app/gui/state/document.h"
#include "app/gui/state/selection_chain.h"
#include "app/gui/state/settings.h"
#include "app/gui/views/chain_steps_view.h"
#include "app/gui/views/details_view.h"
#include "app/gui/views/event_table_view.h"
#include "app/gui/views/findings_view.h"
#include "app/gui/views/fleet_view.h"
#include "app/gui/views/interrupts_view.h"
#include "app/gui/views/open_dialog.h"
#include "app/gui/views/opportunities_view.h"
#include "app/gui/views/packets_view.h"
#include "app/gui/views/pgo_view.h"
#include "app/gui/views/range_stats_view.h"
#include "app/gui/views/simulate_dialog.h"
#include "app/gui/views/sql_console_view.h"
#include "app/gui/views/timeline_view.h"
#include "app/gui/views/tracks_view.h"
#include "app/gui/views/whatif_view.h"

namespace app::gui::views {

// The panels under the timeline, in tab order (new ones go last: the settings keep the open tab
// by number).
enum class Panel : int {
  kRangeStats = 0,
  kEvents,
  kInterrupts,
  kPgo,
  kFindings,
  kSql,
  kTracks,
  kPackets,
  kWhatIf,
  kOpportunities,
  kCount
};
const char* PanelName(Panel panel);
// Parses a panel name as accepted by --panel ("stats", "events", ...); nullopt when unknown.
std::optional<Panel> ParsePanel(const std::string& name);

class MainWindow {
 public:
  // `settings_file` empty: settings are neither read nor written (screenshots, tests).
  MainWindow(state::Settings settings, std::filesystem::path settings_file);
  ~MainWindow();

  // Opens synchronously (command line, tests). Throws core::Error.
  void OpenNow(const std::filesystem::path& path);
  // Replaces the shown trace (the other tabs stay).
  void SetDocument(std::unique_ptr<state::Document> doc);
  // Adds a trace as a tab: shown at once (the shown one stays open behind it), or as a tab
  // behind the shown one.
  void AddDocument(std::unique_ptr<state::Document> doc, bool show);
  // Closes the shown trace after this frame (File > Close, its tab's close button); the trace
  // opened last among the others is shown.
  void RequestClose() { m_close_request = true; }
  // The open traces: the shown one and those behind the other tabs.
  size_t OpenDocuments() const { return (m_doc ? 1 : 0) + m_other_docs.size(); }
  // Opens on the worker thread; the frame shows progress meanwhile.
  void RequestOpen(const std::filesystem::path& path);
  // The same, then shows [start, end] of the opened trace (a fleet cell: a rank at a step).
  void RequestOpenAt(const FleetView::OpenRequest& request);
  // A fleet (`view FLEETDIR`): its window is drawn over the main one; a click on a cell opens
  // that rank at that step.
  void SetFleet(std::unique_ptr<FleetView> fleet) { m_fleet = std::move(fleet); }
  FleetView* fleet() { return m_fleet.get(); }

  // Builds the whole UI for one frame (between NewFrame and Render).
  void DrawFrame();
  // Applies requests queued during DrawFrame(). Call after Render.
  void ApplyRequests();
  bool WantsQuit() const { return m_quit; }
  // True while a trace is being opened.
  bool Loading() const { return CurrentLoad() != nullptr; }
  // True when the last frame drew the outline of the trace being opened (no trace open yet).
  bool ShowingOutline() const { return m_showing_outline; }
  // The last open error shown ("" when none).
  const std::string& error() const { return m_error; }

  state::Document* document() { return m_doc.get(); }
  void ShowPanel(Panel panel) { m_force_panel = panel; }
  SqlConsoleView& sql_console() { return m_sql; }
  const TimelineView& timeline() const { return m_timeline; }
  // The selected item's chain of causes, as of the last frame.
  const state::SelectionChain& chain() const { return m_chain; }
  RangeStatsView& range_stats() { return m_range_stats; }
  // Waits for the figures panels compute off the UI thread (a screenshot shows them).
  void WaitForPanels() {
    m_range_stats.Wait();
    m_packets.Wait();
  }
  FindingsView& findings() { return m_findings; }
  WhatIfView& whatif() { return m_whatif; }
  OpportunitiesView& opportunities() { return m_opportunities; }
  const state::Settings& settings() const { return m_settings; }

 private:
  void DrawMenuBar();
  void DrawWorkspace();
  void DrawPanels(state::Document& doc);
  void DrawLoadingOverlay();
  // The tab bar of the open traces (when more than one is open); a click shows that trace.
  void DrawTraceTabs();
  // Shows m_other_docs[index], the shown trace going to the other tabs.
  void ShowOtherDocument(size_t index);
  // What every trace gets when it opens: its saved view, the window's settings, a recent-file
  // entry and its place among the tabs.
  void Adopt(state::Document& doc);
  // Panels computing a range read the shown document: they finish before it changes.
  void ResetPanels();
  // Takes finished loads: the newest one's document (or error) is shown, older ones dropped.
  void CollectLoads();
  // A question picked in the timeline goes to the What-if panel; a finished prediction opens in
  // its own tab.
  void CollectWhatIf();
  // The load of the trace asked for last, nullptr when none is running.
  const state::DocumentLoader* CurrentLoad() const;
  void SaveSettings();
  // The open document's view, kept per trace (state/saved_view.h); nothing without a settings
  // file (screenshots, tests).
  std::filesystem::path ViewFile() const;
  void SaveView();
  // The What-if question saved with `doc`'s view, in the panel (not predicted until asked).
  void ShowSavedQuestion(const state::Document& doc);

  state::Settings m_settings;
  std::filesystem::path m_settings_file;
  std::unique_ptr<state::Document> m_doc;  // the trace shown (the active tab)
  // The other open traces, each a tab; tabs are drawn in the order their traces opened.
  std::vector<std::unique_ptr<state::Document>> m_other_docs;
  uint64_t m_opened = 0;  // traces opened so far (orders the tabs)
  const state::Document* m_tab_selected = nullptr;  // the tab ImGui shows selected
  state::SelectionChain m_chain;  // of m_doc's selection, recomputed when it changes
  // Traces being opened, the last asked for last. A trace can be opened while another still
  // loads: the last one asked for opens, earlier ones finish in the background and are dropped.
  std::vector<std::unique_ptr<state::DocumentLoader>> m_loaders;
  const state::DocumentLoader* m_newest_load = nullptr;  // the one whose result is shown
  bool m_showing_outline = false;  // the last frame drew a loading trace's outline
  std::string m_error;  // last open error, shown until dismissed

  // The views (one per window).
  TimelineView m_timeline;
  DetailsView m_details;
  ChainStepsView m_chain_steps;
  RangeStatsView m_range_stats;
  EventTableView m_events;
  InterruptsView m_interrupts;
  PgoView m_pgo;
  FindingsView m_findings;
  SqlConsoleView m_sql;
  TracksView m_tracks;
  PacketsView m_packets;
  WhatIfView m_whatif;
  OpportunitiesView m_opportunities;
  OpenDialog m_open_dialog;
  SimulateDialog m_simulate_dialog;

  // Requests made mid-frame.
  std::vector<std::filesystem::path> m_open_requests;
  std::optional<state::TimeRange> m_window_after_open;  // RequestOpenAt's range
  std::unique_ptr<FleetView> m_fleet;
  bool m_close_request = false;
  bool m_quit = false;
  std::optional<Panel> m_force_panel;
};

}  // namespace app::gui::views
