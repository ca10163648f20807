#include "app/gui/window_runner.h"

#include <fmt/format.h>
#include <imgui.h>

#include <charconv>

#include "app/gui/platform/user_dirs.h"
#include "app/gui/platform/window.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/state/whatif_job.h"
#include "app/gui/views/main_window.h"
#include "core/analysis/time_input.h"
#include "core/model/error.h"
#include "core/store/output_file.h"
#include "core/store/trace_file.h"
#include "importers/import_file.h"

namespace app::gui {
namespace {

using state::Selection;
using state::SelectionKind;

// Parses "kind:id" (or a bare rowid) into a selection of `doc`. Throws core::Error.
Selection ParseSelect(const state::Document& doc, const std::string& text) {
  std::string kind = "event";
  std::string number = text;
  if (auto colon = text.find(':'); colon != std::string::npos) {
    kind = text.substr(0, colon);
    number = text.substr(colon + 1);
  }
  int64_t id = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), id);
  if (ec != std::errc() || ptr != number.data() + number.size()) {
    throw core::Error(fmt::format("--select '{}': expected KIND:ID with a number", text));
  }
  const auto& r = doc.analysis.recon;
  // The item of `items` whose id field (`id_field`, a pointer to member) is `id`.
  auto find = [&](const auto& items, auto id_field, SelectionKind k) -> Selection {
    for (uint32_t i = 0; i < items.size(); ++i) {
      if (items[i].*id_field == id) return {k, i, 0};
    }
    throw core::Error(
        fmt::format("--select '{}': no {} with id {} in {}", text, kind, id, doc.path.string()));
  };
  if (kind == "event") {
    size_t index = doc.store.IndexOfRowId(id);
    if (index == SIZE_MAX) {
      throw core::Error(fmt::format("--select '{}': no record with rowid {}", text, id));
    }
    return {SelectionKind::kEvent, static_cast<uint32_t>(index), 0};
  }
  namespace ca = core::analysis;
  if (kind == "packet") return find(r.packets, &ca::Packet::packet_id, SelectionKind::kPacket);
  if (kind == "signal") return find(r.signals, &ca::SignalBox::signal_id, SelectionKind::kSignal);
  if (kind == "wait") return find(r.waits, &ca::WaitBox::wait_id, SelectionKind::kWait);
  if (kind == "cpu_wait") {
    return find(r.cpu_waits, &ca::CpuWait::waiter_id, SelectionKind::kCpuWait);
  }
  if (kind == "task") return find(r.tasks, &ca::BackgroundTask::task_id, SelectionKind::kTask);
  throw core::Error(
      fmt::format("--select '{}': unknown kind '{}' (event, packet, signal, wait, "
                  "cpu_wait, task)",
                  text, kind));
}

}  // namespace

void ApplyOptions(views::MainWindow& main, const RunOptions& options, bool screenshot) {
  if (!options.panel.empty()) {
    auto panel = views::ParsePanel(options.panel);
    if (!panel) {
      throw core::Error(
          fmt::format("--panel '{}': expected stats, events, interrupts, pgo, "
                      "findings, sql, tracks, packets, whatif or opportunities",
                      options.panel));
    }
    main.ShowPanel(*panel);
  }
  state::Document* doc = main.document();
  if (!doc) return;
  if (!options.whatif.Empty() && !doc->prediction) {
    // The question asked on the command line: a screenshot shows its prediction's tab (over
    // the trace's: --select and --window apply to it), the window predicts it as it opens.
    if (screenshot) {
      std::shared_ptr<state::ReplaySource> source;
      state::WhatIfRequest request{doc->path, options.whatif,
                                   platform::UserDataDir() / "predictions" /
                                       (doc->path.stem().string() + "-whatif.db")};
      std::filesystem::create_directories(request.output.parent_path());
      main.AddDocument(state::Predict(request, source), true);
      main.whatif().Show(request.trace, options.whatif,
                         "asked on the command line: " + options.whatif.Describe());
      doc = main.document();
    } else {
      main.whatif().Ask(doc->path, options.whatif,
                        "asked on the command line: " + options.whatif.Describe());
    }
    main.ShowPanel(views::Panel::kWhatIf);
  }
  if (!options.select.empty()) {
    Selection sel = ParseSelect(*doc, options.select);
    doc->view.selection = sel;
    state::ZoomTo(doc->view, state::SelectionTimeRange(*doc, sel));
  }
  const core::analysis::TraceClock clock =
      core::analysis::ClockOf(doc->store, doc->path.filename().string());
  if (options.range.size() == 2) {
    const auto r =
        core::analysis::ParseRangeInTrace("--range", options.range[0], options.range[1], clock);
    doc->view.selected_range = {r.start, r.end};
  }
  if (options.window.size() == 2) {
    const auto w =
        core::analysis::ParseRangeInTrace("--window", options.window[0], options.window[1], clock);
    const state::TimeRange window{w.start, w.end};
    state::ZoomTo(doc->view, window);
    doc->view.visible = window;
  }
  if (!options.sql.empty()) {
    main.sql_console().Run(*doc, options.sql);
    // a screenshot shows the result, not the running query
    if (screenshot) main.sql_console().Wait();
  }
}

int RunWindow(const RunOptions& options) {
  const bool screenshot = !options.screenshot.empty();
  // refuse a device, FIFO or directory before anything is loaded or a window opens
  if (screenshot) core::store::ResolveOutputTarget(options.screenshot);
  state::Settings settings;
  std::filesystem::path settings_file;
  platform::WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  if (!screenshot) {
    settings_file = platform::UserConfigDir() / "settings.txt";
    settings = state::LoadSettings(settings_file);
    window_options.ini_path = platform::UserConfigDir() / "imgui.ini";
  }
  // A trace database opens progressively: the window draws its outline at once and the
  // timeline when it has loaded (the file is checked first, so a file that is not a trace
  // fails here, with no window flashing). Files to import, and screenshots (which show the
  // loaded trace), load before the window opens. Further files open as tabs behind the first,
  // the same way. A fleet directory opens its first rank, with the fleet window over it.
  std::unique_ptr<views::FleetView> fleet;
  std::vector<std::filesystem::path> files;
  if (!options.trace.empty()) files.push_back(options.trace);
  files.insert(files.end(), options.more_traces.begin(), options.more_traces.end());
  if (!files.empty() && views::IsFleetDirectory(files.front())) {
    fleet = views::LoadFleet(files.front());
    files.front() = fleet->FirstDatabase();
    if (!options.fleet_tab.empty()) fleet->ShowTab(views::FleetView::TabNamed(options.fleet_tab));
  } else if (!options.fleet_tab.empty()) {
    throw core::Error("--fleet-tab is for a fleet directory (`fleet import -o DIR`)");
  }
  std::vector<std::unique_ptr<state::Document>> docs;
  std::vector<std::filesystem::path> in_background;
  for (const auto& file : files) {
    if (!screenshot && std::filesystem::is_regular_file(file) &&
        importers::IsTraceDatabaseFile(file)) {
      core::store::OpenTrace(file);  // throws for a file that is not a trace
      in_background.push_back(file);
    } else {
      docs.push_back(state::LoadDocument(file, {}, options.max_inflated));
    }
  }

  views::MainWindow main(settings, settings_file);
  // The first file is the one shown: opened last (a new tab is shown), or first as a document.
  for (size_t i = 0; i < docs.size(); ++i) main.AddDocument(std::move(docs[i]), i == 0);
  for (auto it = in_background.rbegin(); it != in_background.rend(); ++it) main.RequestOpen(*it);
  main.ApplyRequests();
  main.SetFleet(std::move(fleet));
  bool options_applied = in_background.empty();
  if (options_applied) ApplyOptions(main, options, screenshot);
  platform::Window window(window_options);
  // A screenshot shows the trace, not where the X pointer happens to be: the window is mapped
  // under it on a shared display, and whether the pointer's enter event arrives before the one
  // frame drawn (a hover highlight, a tooltip) would depend on timing.
  if (screenshot) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;

  for (int frame = 0; !window.ShouldClose() && !main.WantsQuit(); ++frame) {
    for (const auto& file : window.TakeDroppedFiles()) main.RequestOpen(file);
    window.BeginFrame(screenshot ? 0.0 : 0.25);
    main.DrawFrame();
    if (!options_applied && main.document()) {  // the trace opened in the background
      ApplyOptions(main, options, screenshot);
      options_applied = true;
    }
    window.Render();
    if (screenshot && frame + 1 >= std::max(options.frames, 1)) {
      core::store::WriteFileAtomically(options.screenshot, [&](const std::filesystem::path& temp) {
        window.WriteScreenshot(temp);
        return true;
      });
      break;
    }
    window.SwapBuffers();
    main.ApplyRequests();
    if (screenshot) main.WaitForPanels();
  }
  return 0;
}

}  // namespace app::gui
