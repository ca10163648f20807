// What-if: the edits of the current question (asked from the timeline's context menu or the
// Opportunities panel; each can be removed, a factor changed with a slider or typed), Predict
// (the replay on a worker thread, with progress and Cancel; Esc cancels), and beside the
// result, always, the replay's fidelity on this trace as `fencescope whatif` prints it. The
// result: span before -> after, a per-step before / after chart (click a step to zoom to it in
// the prediction and in the original) and each queue's busy / waiting / idle before and after.
// A finished prediction opens in its own tab (state/prediction.h); the panel shows the
// prediction of the tab shown, or the last one asked of the trace shown.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/state/document.h"
#include "app/gui/state/prediction.h"
#include "app/gui/state/whatif_job.h"
#include "core/replay/whatif_edits.h"

namespace app::gui::views {

class WhatIfView {
 public:
  // Predictions are written under `folder` (created when needed).
  explicit WhatIfView(std::filesystem::path folder = {}) : m_folder(std::move(folder)) {}
  void set_folder(std::filesystem::path folder) { m_folder = std::move(folder); }
  // A question about `trace`: its edits become the panel's and are predicted at once.
  void Ask(const std::filesystem::path& trace, core::replay::Edits edits, std::string label);
  // The same without predicting: the question of a prediction made elsewhere (a screenshot's).
  void Show(const std::filesystem::path& trace, core::replay::Edits edits, std::string label);
  void Draw(state::Document& doc);
  // A finished prediction, to open in its own tab (once); nullptr when none.
  std::unique_ptr<state::Document> TakePrediction();
  bool Busy() const { return m_job.Busy(); }
  double Progress() const { return m_job.Progress(); }
  void Cancel() { m_job.Cancel(); }
  const std::string& error() const { return m_error; }
  // "Critical paths" was clicked (once): the window selects each trace's critical path.
  // The step clicked in the chart (its id, once): the window zooms both traces to it.
  std::optional<int64_t> TakeStepClicked() {
    auto step = m_step_clicked;
    m_step_clicked.reset();
    return step;
  }
  // The middle of each step's bars in the last frame (tests click them).
  const std::vector<ImVec2>& step_centres() const { return m_step_centres; }
  bool TakeShowCriticalPaths() {
    const bool asked = m_show_paths;
    m_show_paths = false;
    return asked;
  }
  const core::replay::Edits& edits() const { return m_edits; }
  const std::string& label() const { return m_label; }
  // The trace the panel's question is about (empty before the first).
  const std::filesystem::path& trace() const { return m_trace; }
  // Frames drawn while a prediction ran (the window keeps drawing meanwhile).
  uint64_t frames_while_busy() const { return m_frames_while_busy; }

 private:
  void Predict();
  void CollectResult();
  void DrawEdits();
  void DrawResult(const state::Prediction& p);
  void DrawStepChart(const state::Prediction& p);
  void DrawQueues(const state::Prediction& p);

  std::filesystem::path m_folder;
  std::filesystem::path m_trace;  // the trace the question is about
  std::string m_label;
  core::replay::Edits m_edits;
  state::WhatIfJob m_job;
  uint64_t m_runs = 0;
  std::unique_ptr<state::Document> m_finished;  // to open as a tab
  std::shared_ptr<const state::Prediction> m_last;
  std::string m_error;
  uint64_t m_frames_while_busy = 0;
  bool m_show_paths = false;
  bool m_pending = false;  // a question asked while another ran: predicted once that stops
  std::optional<int64_t> m_step_clicked;
  std::vector<ImVec2> m_step_centres;
  char m_pattern[128] = "";  // the Add row's packet name or glob
};

}  // namespace app::gui::views
