// CachedTrace: opening a trace through its packed cache (trace_cache.h). Every reader of a trace
// file (stats, report, compare, the window) loads the store and the analyses through here: from
// the cache's sections when they are valid, else from the rows, in which case the sections made
// from the rows are queued and Flush writes them into the file for the next open.
//
// Sections
//   store              topology, strings, counters, flows, import problems, and the event
//                      columns the window keeps (ts, kind, rowid)
//   events             the other event columns (queue, thread, fence, value, op, args, flags)
//   recon              the reconstruction
//   analysis:findings  the window's analyses (core::report::AnalyseForFindings), without recon
//   analysis:full      the reports' analyses (AnalyseTrace full), without recon
//   timeline           the window's timeline model (written by the window)
// The data read from the cache is the data the rows give: tests compare the two.
//
// FENCESCOPE_NO_CACHE=1 in the environment neither reads nor writes the cache.
#pragma once

#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/serialize.h"
#include "core/cache/trace_cache.h"
#include "core/report/report_data.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"

namespace core::cache {

// Whether a store section's event columns (ts, kind, rowid, events_by_rowid) have one length, as
// those the rows give always do; a section where they do not is damaged and is not used.
bool EventColumnsAgree(const store::TraceStore& s);

enum class EventColumnsNeeded {
  kAll,   // every column (the reports read raw fields of some records)
  kKept,  // ts, kind and rowid: what a window keeps once its models are built
};

enum class AnalysisKind { kFindings, kFull };

class CachedTrace {
 public:
  // Opens and validates `path` (store::OpenTrace; throws core::Error like it).
  explicit CachedTrace(std::filesystem::path path);

  // True when section `name` is present and valid for type T (without reading its blocks).
  template <typename T>
  bool Has(std::string_view name) {
    return HasLayout(name, LayoutHash<T>());
  }
  // True when the analyses of `kind` (and the reconstruction) are cached: Analyse then needs no
  // bulk event column.
  bool HasAnalysis(AnalysisKind kind);

  // The trace's store. With kKept and a valid cache, the bulk event columns are not read and
  // events.bulk_released is set.
  store::TraceStore LoadStore(EventColumnsNeeded columns, const store::LoadProgress& progress = {});

  // The analyses of `store` (loaded by LoadStore). path_until other than kUnknownTime is never
  // cached (the analyses are computed, from a cached reconstruction when there is one).
  // `alongside` (may be empty) is called with the reconstruction on a thread of its own while
  // the analyses are computed, and has returned when Analyse returns (its exception is thrown
  // from here): what else a caller derives from the reconstruction, at no extra wait.
  report::ReportData Analyse(
      const store::TraceStore& store, AnalysisKind kind,
      const report::AnalyseProgress& progress = {},
      model::TimeNs path_until = analysis::kUnknownTime,
      const std::function<void(const analysis::Reconstruction&)>& alongside = {});

  // Any other section: reads it into `value` (true), or false when absent, stale or damaged.
  // `value` may be a std::tie of the fields to read. On failure it may be half read: the
  // caller starts it again from the rows.
  template <typename T>
  bool Read(std::string_view name, T&& value) {
    auto bytes = ReadBytes(name, LayoutHash<std::remove_cvref_t<T>>());
    if (!bytes) return false;
    try {
      const double t0 = NowSeconds();
      FromBytes(bytes->data.get(), bytes->size, value);
      Note(std::string(name) + ": decoded " + std::to_string(bytes->size) + " bytes in " +
           std::to_string(NowSeconds() - t0) + " s");
      return true;
    } catch (const CacheDamaged& e) {
      Note(std::string(name) + ": " + e.what() + ", rebuilt");
      return false;
    }
  }
  // Queues section `name` to be written by Flush (replacing one queued under that name).
  template <typename T>
  void Queue(std::string name, const T& value) {
    if (!m_enabled) return;
    const double t0 = NowSeconds();
    QueueSection(MakeSection(std::move(name), value));
    Time("serialising the cache sections", t0);
  }

  // Writes the queued sections into the file (nothing when none is queued) and waits. The file
  // is opened for writing only here, after this object's reading connection is closed. When
  // the file cannot be written (the cache is optional) the notes say why.
  void Flush();
  // The same on a thread of its own (the sections are already bytes: the thread reads nothing
  // of the caller's data), so that a window can show the trace while its cache is written. The
  // future's result is the notes of what was written; its destructor waits for the write.
  std::future<std::vector<std::string>> FlushInBackground();

  // Sections read from the cache, sections rebuilt and why, in order: for `info`, the bench
  // and tests.
  const std::vector<std::string>& notes() const { return m_notes; }
  // True when the store came from the cache.
  bool store_from_cache() const { return m_store_from_cache; }

  // Seconds spent per step of the open (the rows read, the reconstruction, the analyses, the
  // sections serialised, and the caller's own through Time), in the order first seen.
  struct Timing {
    std::string what;
    double seconds = 0;
  };
  const std::vector<Timing>& timings() const { return m_timings; }
  // Adds the time since `since` (a NowSeconds() reading), or `seconds`, to step `what`.
  void Time(std::string_view what, double since);
  void AddSeconds(std::string_view what, double seconds);
  static double NowSeconds();

 private:
  template <typename T>
  static CacheSection MakeSection(std::string name, const T& value) {
    return {std::move(name), LayoutHash<T>(), ToBytes(value)};
  }
  void QueueSection(CacheSection section);
  std::optional<SectionBytes> ReadBytes(std::string_view name, uint64_t layout);
  bool HasLayout(std::string_view name, uint64_t layout);
  void Note(std::string text) { m_notes.push_back(std::move(text)); }

  std::filesystem::path m_path;
  store::Database m_db;
  bool m_enabled = true;
  bool m_store_from_cache = false;
  uint64_t m_events_hash = 0;
  // The store was read from the rows and its sections are still to be queued: Analyse, which
  // has the store at its final place, serializes them beside the reconstruction.
  bool m_store_sections_due = false;
  std::vector<CacheSection> m_pending;
  std::vector<std::string> m_notes;
  std::vector<Timing> m_timings;
};

}  // namespace core::cache
