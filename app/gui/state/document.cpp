#include "app/gui/state/document.h"

#include <fmt/format.h>

#include <functional>
#include <future>

#include "app/gui/platform/user_dirs.h"
#include "app/version.h"
#include "core/cache/cached_trace.h"
#include "core/model/error.h"
#include "core/store/trace_file.h"
#include "importers/import_file.h"

namespace app::gui::state {
namespace {

// Where an importable file (Chrome JSON, Kineto, ETL, gzip / zip of them) is converted to before
// it is opened: <data dir>/imported/<name>-<hash of its absolute path>.db. The conversion is
// reused while it is newer than the source file and this build made it (kConvertedByKey).
std::filesystem::path ImportedTracePath(const std::filesystem::path& source) {
  std::filesystem::path dir = platform::UserDataDir() / "imported";
  std::filesystem::create_directories(dir);
  size_t hash = std::hash<std::string>{}(std::filesystem::absolute(source).string());
  return dir / fmt::format("{}-{:016x}.db", source.filename().string(), hash);
}

// The meta key under which a conversion records the version of fencescope that made it: another
// version's importers may read the source differently (a fix, a new mapping), so a conversion
// made by another version is made again rather than reused.
constexpr const char* kConvertedByKey = "converted_by";

bool ConvertedByThisBuild(const std::filesystem::path& trace) {
  try {
    core::store::Database db = core::store::OpenTrace(trace);
    const auto meta = core::store::ReadMeta(db);
    auto it = meta.find(kConvertedByKey);
    return it != meta.end() && it->second == app::Version();
  } catch (const core::Error&) {
    return false;  // not readable as a trace: convert again
  }
}

void MarkConvertedByThisBuild(const std::filesystem::path& trace) {
  core::store::Database db(trace.string(), core::store::Database::Mode::kReadWrite);
  core::store::Statement st = db.Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
  st.BindText(1, kConvertedByKey);
  st.BindText(2, app::Version());
  st.Run();
}

}  // namespace

namespace {

// What every document does once its store, analyses and model are in place: from here on the
// window reads the raw fields of the records it shows from the file (a store made in memory,
// with no file, keeps its columns).
void FinishDocument(Document& doc) {
  std::error_code ec;
  const bool from_file =
      !doc.store.path.empty() && std::filesystem::is_regular_file(doc.store.path, ec);
  if (from_file) doc.store.events.ReleaseBulkColumns();
  doc.records = std::make_unique<core::store::RecordReader>(doc.store);
  doc.args = std::make_unique<core::store::EventArgsReader>(
      from_file ? doc.store.path : std::filesystem::path());
  doc.filter = std::make_unique<EventFilterWorker>(doc.store);
  ResetView(doc.view, {doc.model.start, doc.model.end}, doc.model.tracks.size(),
            doc.model.groups.size());
}

constexpr const char* kTimelineSection = "timeline";
constexpr const char* kWholeSection = "window:whole-trace";

// A trace file through its packed cache (core/cache/cached_trace.h): the store, the analyses
// and the timeline model are read from the cache when it is valid (then the bulk event columns
// are never read), else computed from the rows and written to the cache for the next open.
// kept_columns false: every column, whatever the cache says (after a cached section failed to
// read).
std::unique_ptr<Document> LoadThroughCache(const std::filesystem::path& path,
                                           const std::function<void(double)>& progress,
                                           bool kept_columns) {
  core::cache::CachedTrace trace(path);
  const bool cached = kept_columns &&
                      trace.HasAnalysis(core::cache::AnalysisKind::kFindings) &&
                      trace.Has<timeline::TimelineModel>(kTimelineSection) &&
                      trace.Has<WholeTraceFigures>(kWholeSection);
  auto doc = std::make_unique<Document>();
  doc->path = path;
  // without a cache, reading the rows is about half of the work
  const double analyse_from = cached ? 0.3 : 0.5;
  doc->store = trace.LoadStore(
      cached ? core::cache::EventColumnsNeeded::kKept : core::cache::EventColumnsNeeded::kAll,
      [&](double f) {
        if (progress) progress(analyse_from * f);
      });
  auto need_columns = [&](const char* what) {
    if (doc->store.events.bulk_released) {
      throw core::cache::CacheDamaged("cache: the " + std::string(what) + " of " +
                                      path.string() + " do not read");
    }
  };
  const bool whole_cached = trace.Read(kWholeSection, doc->whole);
  const bool model_cached = trace.Read(kTimelineSection, doc->model);
  // The panels' figures and the timeline model only read the store and the reconstruction:
  // computed side by side, beside the analyses.
  double derive_seconds = 0;
  auto derive = [&](const core::analysis::Reconstruction& recon) {
    const double t0 = core::cache::CachedTrace::NowSeconds();
    std::future<void> whole;
    if (!whole_cached) {
      need_columns("panel figures");
      whole = std::async(std::launch::async,
                         [&] { doc->whole = ComputeWholeTraceFigures(doc->store, recon); });
    }
    // (whole waits for its task when it goes, also when the model throws)
    if (!model_cached) {
      need_columns("timeline lanes");
      doc->model = timeline::BuildTimelineModel(doc->store, recon);
    }
    if (whole.valid()) whole.get();
    derive_seconds = core::cache::CachedTrace::NowSeconds() - t0;
  };
  doc->analysis = trace.Analyse(
      doc->store, core::cache::AnalysisKind::kFindings,
      [&](double f) {
        if (progress) progress(analyse_from + (0.9 - analyse_from) * f);
      },
      core::analysis::kUnknownTime, derive);
  trace.AddSeconds("timeline model and panel figures (beside the analyses)", derive_seconds);
  if (!whole_cached) trace.Queue(kWholeSection, doc->whole);
  if (!model_cached) trace.Queue(kTimelineSection, doc->model);
  doc->cache_notes = trace.notes();
  doc->open_timings = trace.timings();
  // Written while the window shows the trace.
  doc->cache_write = trace.FlushInBackground();
  FinishDocument(*doc);
  return doc;
}

}  // namespace

WholeTraceFigures ComputeWholeTraceFigures(const core::store::TraceStore& store,
                                           const core::analysis::Reconstruction& recon) {
  WholeTraceFigures w;
  w.range = core::analysis::ComputeRangeStats(store, recon, core::analysis::TraceSpan(recon));
  w.packets = core::analysis::ComputePacketStats(store, recon);
  return w;
}

std::unique_ptr<Document> MakeDocument(core::store::TraceStore store,
                                       const std::function<void(double)>& progress) {
  auto doc = std::make_unique<Document>();
  doc->path = store.path;
  doc->store = std::move(store);
  doc->analysis = core::report::AnalyseForFindings(doc->store, [&](double f) {
    if (progress) progress(0.9 * f);
  });
  doc->model = timeline::BuildTimelineModel(doc->store, doc->analysis.recon);
  doc->whole = ComputeWholeTraceFigures(doc->store, doc->analysis.recon);
  FinishDocument(*doc);
  return doc;
}

std::unique_ptr<Document> LoadDocument(
    const std::filesystem::path& path, const std::function<void(double)>& progress,
    uint64_t max_inflated, const std::function<void(const std::filesystem::path&)>& on_database) {
  if (!std::filesystem::exists(path)) throw core::Error(path.string() + ": no such file");
  std::filesystem::path trace = path;
  double load_from = 0.0;
  if (!importers::IsTraceDatabaseFile(path)) {
    // Not a trace database (another format, or another tool's SQLite export such as Nsight
    // Systems' or rocpd's): import it (the importer names the file and place on bad input).
    trace = ImportedTracePath(path);
    std::error_code ec;
    bool fresh =
        std::filesystem::exists(trace, ec) &&
        std::filesystem::last_write_time(trace, ec) >= std::filesystem::last_write_time(path, ec) &&
        ConvertedByThisBuild(trace);
    if (!fresh) {
      importers::ImportOptions options;
      options.max_inflated = max_inflated;
      options.progress = [&](double f) {
        if (progress) progress(0.5 * f);
      };
      importers::ImportFile(path, trace, options);
      MarkConvertedByThisBuild(trace);
    }
    load_from = 0.5;
  }
  if (on_database) on_database(trace);
  auto scaled = [&](double f) {
    if (progress) progress(load_from + (1.0 - load_from) * f);
  };
  std::unique_ptr<Document> doc;
  try {
    doc = LoadThroughCache(trace, scaled, /*kept_columns=*/true);
  } catch (const core::cache::CacheDamaged&) {
    doc = LoadThroughCache(trace, scaled, /*kept_columns=*/false);
  }
  if (progress) progress(1.0);
  return doc;
}

DocumentLoader::~DocumentLoader() {
  if (m_thread.joinable()) m_thread.join();
}

void DocumentLoader::Start(const std::filesystem::path& path) {
  if (m_busy.load()) return;
  if (m_thread.joinable()) m_thread.join();
  m_busy = true;
  m_progress = 0.0;
  m_path = path;
  {
    std::lock_guard lock(m_mutex);
    m_done = false;
    m_result.reset();
    m_error.clear();
  }
  {
    std::lock_guard lock(m_mutex);
    m_outline.reset();
  }
  m_thread = std::thread([this, path] {
    std::unique_ptr<Document> doc;
    std::string error;
    try {
      doc = LoadDocument(
          path, [this](double f) { m_progress = f; }, importers::kDefaultMaxInflated,
          [this](const std::filesystem::path& db) {
            try {
              auto outline =
                  std::make_shared<const core::store::TraceOutline>(core::store::ReadTraceOutline(db));
              std::lock_guard lock(m_mutex);
              m_outline = std::move(outline);
            } catch (const std::exception&) {
              // no outline: the load itself names what is wrong with the file
            }
          });
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(m_mutex);
    m_result = std::move(doc);
    m_error = std::move(error);
    m_done = true;
    m_busy = false;
  });
}

std::shared_ptr<const core::store::TraceOutline> DocumentLoader::Outline() const {
  std::lock_guard lock(m_mutex);
  return m_outline;
}

std::unique_ptr<Document> DocumentLoader::TakeResult(std::string& error) {
  std::lock_guard lock(m_mutex);
  if (!m_done) return nullptr;
  m_done = false;
  error = std::move(m_error);
  return std::move(m_result);
}

}  // namespace app::gui::state
