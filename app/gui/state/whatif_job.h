// Asks a what-if question off the UI thread: the trace is loaded with every event column (the
// window's document has let go of them), its program replayed with the edits
// (core::replay::RunWhatIf, the function `fencescope whatif` calls) into a predicted trace file,
// and that file opened as a Document carrying its Prediction. Progress goes from 0 to 1 over
// the three; Cancel() stops the replay at its next progress report (RunWhatIf leaves no
// prediction file). The loaded trace is kept for the next question about the same file.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/gui/state/document.h"
#include "core/replay/whatif_edits.h"

namespace app::gui::state {

struct WhatIfRequest {
  std::filesystem::path trace;   // a trace database
  core::replay::Edits edits;
  std::filesystem::path output;  // the predicted trace (replaced)
};

// A trace loaded for replaying, kept between questions.
struct ReplaySource;

// Synchronously (the command line's `view --scale ...`, tests). `source` may hold the trace
// loaded by an earlier call (it is loaded and kept there when it is not). `progress` may throw
// to cancel. Throws core::Error.
std::unique_ptr<Document> Predict(const WhatIfRequest& request,
                                  std::shared_ptr<ReplaySource>& source,
                                  const std::function<void(double)>& progress = {});

class WhatIfJob {
 public:
  WhatIfJob();
  ~WhatIfJob();  // cancels a running question and waits for it
  // Ignored while busy.
  void Start(WhatIfRequest request);
  void Cancel() { m_cancel = true; }
  bool Busy() const { return m_busy.load(); }
  double Progress() const { return m_progress.load(); }
  // Once finished: the prediction (nullptr when cancelled or failed, with `error` set on
  // failure); nullopt while running or idle.
  std::optional<std::unique_ptr<Document>> TakeResult(std::string& error);

 private:
  std::thread m_thread;
  std::atomic<bool> m_busy{false};
  std::atomic<bool> m_cancel{false};
  std::atomic<double> m_progress{0.0};
  std::mutex m_mutex;
  bool m_done = false;
  std::unique_ptr<Document> m_result;
  std::string m_error;
  std::shared_ptr<ReplaySource> m_source;  // the worker's only while it runs
};

}  // namespace app::gui::state
