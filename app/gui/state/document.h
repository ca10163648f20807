// Document: one loaded trace with everything the window derives from it and the ViewState of
// what the user looks at. The analyses are the ones `stats` runs plus what the findings read
// (core::report::AnalyseForFindings): the panels draw those results, or call the same
// core/analysis functions with the selected range, so a figure cannot differ between the window
// and the reports. Loading runs on a worker thread (DocumentLoader); the window only ever sees a
// complete Document.
//
// Memory: once everything that needs whole event columns is built, a document made from a trace
// file releases the bulk columns (EventColumns::ReleaseBulkColumns): only store.events.ts, .kind,
// .rowid and store.index_of_rowid stay valid. The raw fields of the few records the window shows
// (event table rows, the selected record) are read from the file through `records`, and the
// event table's text filter runs as SQL over the file on `filter`'s thread.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/state/event_filter_worker.h"
#include "app/gui/state/view_state.h"
#include "app/gui/timeline/timeline_model.h"
#include "core/analysis/packet_stats.h"
#include "core/analysis/range_stats.h"
#include "core/cache/cached_trace.h"
#include "core/report/report_data.h"
#include "core/store/event_args_reader.h"
#include "core/store/record_reader.h"
#include "core/store/trace_outline.h"
#include "core/store/trace_store.h"
#include "importers/common/compressed_input.h"

namespace app::gui::state {

// What the panels show before a range is selected, computed with the document (in the loader,
// not in a frame) and kept in the trace's packed cache.
struct WholeTraceFigures {
  core::analysis::RangeStats range;                     // over TraceSpan(recon)
  std::vector<core::analysis::PacketNameStats> packets;  // every completed packet
};
WholeTraceFigures ComputeWholeTraceFigures(const core::store::TraceStore& store,
                                           const core::analysis::Reconstruction& recon);

struct Prediction;

struct Document {
  std::filesystem::path path;
  uint64_t open_order = 0;  // when the window opened it (orders its tabs)
  core::store::TraceStore store;
  // The reconstruction (analysis.recon), the `stats` analyses and the findings' inputs, computed
  // at load while the event columns are resident. analysis.store points at `store`.
  core::report::ReportData analysis;
  timeline::TimelineModel model;
  WholeTraceFigures whole;
  ViewState view;
  // Whole records of events, from memory or (columns released) from the file. UI thread only.
  std::unique_ptr<core::store::RecordReader> records;
  // The extra arguments importers kept for an event (event_args), read from the file for the
  // details panel. UI thread only.
  std::unique_ptr<core::store::EventArgsReader> args;
  // What the open read from the trace's packed cache and what it computed and wrote
  // (core/cache/cached_trace.h notes; empty for a document made in memory).
  std::vector<std::string> cache_notes;
  // Seconds per step of the open (core::cache::CachedTrace::timings, then the window's own).
  std::vector<core::cache::CachedTrace::Timing> open_timings;
  // Set on a prediction opened beside the trace it was asked of (state/prediction.h).
  std::shared_ptr<const Prediction> prediction;
  // The event table's text filter (its thread reads `store`, so it stops before the store goes).
  std::unique_ptr<EventFilterWorker> filter;
  // The packed cache being written into the trace file after a first open (declared last: the
  // document waits for the write before it goes; the write reads none of the members above).
  std::future<std::vector<std::string>> cache_write;
};

// Loads a fencescope trace file, reconstructs and builds the timeline model, through the file's
// packed cache (core/cache/cached_trace.h: read when valid, written when not); the view shows
// the whole trace. Any other file is imported first (importers/import_file.h) into the user's
// data directory, and `path` of the document is that trace database. `progress` gets fractions
// in [0, 1] (may be empty). Throws core::Error.
// `max_inflated`: see ImportOptions::max_inflated.
// `on_database` (may be empty) is called with the trace database's path once it exists (after
// an import), before it is loaded: the loader reads the trace's outline there.
std::unique_ptr<Document> LoadDocument(
    const std::filesystem::path& path, const std::function<void(double)>& progress = {},
    uint64_t max_inflated = importers::kDefaultMaxInflated,
    const std::function<void(const std::filesystem::path&)>& on_database = {});

// Builds a Document around an already loaded store (the bench and tests use this). The bulk
// columns are released when the store has its trace file to read records from. `progress` gets
// the analysis's fractions in [0, 1] (may be empty).
std::unique_ptr<Document> MakeDocument(core::store::TraceStore store,
                                       const std::function<void(double)>& progress = {});

// Loads one document on a worker thread. Start() while busy is ignored (the window starts
// another loader for a second trace). As soon as the trace database exists its outline
// (core/store/trace_outline.h) is read, for the window to draw while the rest loads.
class DocumentLoader {
 public:
  ~DocumentLoader();
  void Start(const std::filesystem::path& path);
  bool Busy() const { return m_busy.load(); }
  double Progress() const { return m_progress.load(); }
  const std::filesystem::path& path() const { return m_path; }
  // The finished document (once), or nullptr. On failure returns nullptr and fills `error`.
  std::unique_ptr<Document> TakeResult(std::string& error);
  // The outline of the trace being loaded, nullptr until it is read (or when it cannot be).
  std::shared_ptr<const core::store::TraceOutline> Outline() const;

 private:
  std::shared_ptr<const core::store::TraceOutline> m_outline;
  std::thread m_thread;
  std::atomic<bool> m_busy{false};
  std::atomic<double> m_progress{0.0};
  std::filesystem::path m_path;
  mutable std::mutex m_mutex;
  std::unique_ptr<Document> m_result;
  std::string m_error;
  bool m_done = false;
};

}  // namespace app::gui::state
