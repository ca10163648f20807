// Document: one loaded trace with everything the window derives from it (reconstruction,
// timeline model) and the ViewState of what the user looks at. Loading runs on a worker thread
// (DocumentLoader); the window only ever sees a complete Document.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/gui/state/view_state.h"
#include "app/gui/timeline/timeline_model.h"
#include "core/analysis/reconstruction.h"
#include "core/store/trace_store.h"

namespace app::gui::state {

struct Document {
  std::filesystem::path path;
  core::store::TraceStore store;
  core::analysis::Reconstruction reconstruction;
  timeline::TimelineModel model;
  ViewState view;
};

// Loads a fencescope trace file, reconstructs and builds the timeline model; the view shows
// the whole trace. Any other file is imported first (importers/import_file.h) into the user's
// data directory, and `path` of the document is that trace database. `progress` gets fractions
// in [0, 1] (may be empty). Throws core::Error.
std::unique_ptr<Document> LoadDocument(const std::filesystem::path& path,
                                       const std::function<void(double)>& progress = {});

// Builds a Document around an already loaded store (the bench and tests use this).
std::unique_ptr<Document> MakeDocument(core::store::TraceStore store);

// Loads one document on a worker thread. Start() while busy is ignored.
class DocumentLoader {
 public:
  ~DocumentLoader();
  void Start(const std::filesystem::path& path);
  bool Busy() const { return m_busy.load(); }
  double Progress() const { return m_progress.load(); }
  const std::filesystem::path& path() const { return m_path; }
  // The finished document (once), or nullptr. On failure returns nullptr and fills `error`.
  std::unique_ptr<Document> TakeResult(std::string& error);

 private:
  std::thread m_thread;
  std::atomic<bool> m_busy{false};
  std::atomic<double> m_progress{0.0};
  std::filesystem::path m_path;
  std::mutex m_mutex;
  std::unique_ptr<Document> m_result;
  std::string m_error;
  bool m_done = false;
};

}  // namespace app::gui::state
