#include "core/cache/cached_trace.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/cache/section_fields.h"
#include "core/store/trace_file.h"

namespace core::cache {
namespace {

bool CacheEnabled() {
  const char* off = std::getenv("FENCESCOPE_NO_CACHE");
  return off == nullptr || *off == '\0' || std::strcmp(off, "0") == 0;
}

static_assert(LayoutHash<decltype(StoreFields(std::declval<store::TraceStore&>()))>() ==
              LayoutHash<decltype(StoreFields(std::declval<const store::TraceStore&>()))>());
static_assert(LayoutHash<decltype(BulkFields(std::declval<store::EventColumns&>()))>() ==
              LayoutHash<decltype(BulkFields(std::declval<const store::EventColumns&>()))>());

const char* AnalysisSection(AnalysisKind kind) {
  return kind == AnalysisKind::kFull ? "analysis:full" : "analysis:findings";
}

}  // namespace

bool EventColumnsAgree(const store::TraceStore& s) {
  const size_t n = s.events.ts.size();
  return s.events.kind.size() == n && (s.events.rowid.empty() || s.events.rowid.size() == n) &&
         (s.events_by_rowid.empty() || s.events_by_rowid.size() == n);
}

CachedTrace::CachedTrace(std::filesystem::path path)
    : m_path(std::move(path)), m_db(store::OpenTrace(m_path)), m_enabled(CacheEnabled()) {}

std::optional<SectionBytes> CachedTrace::ReadBytes(std::string_view name, uint64_t layout) {
  if (!m_enabled || !m_db.handle()) return std::nullopt;
  std::string why;
  const double t0 = NowSeconds();
  auto bytes = ReadCacheSection(m_db, name, layout, &why);
  if (bytes) {
    Note(std::string(name) + ": read from the cache in " + std::to_string(NowSeconds() - t0) +
         " s");
  } else if (!why.empty()) {
    Note(std::string(name) + ": " + why + ", rebuilt");
  }
  return bytes;
}

void CachedTrace::Time(std::string_view what, double since) {
  AddSeconds(what, NowSeconds() - since);
}

void CachedTrace::AddSeconds(std::string_view what, double seconds) {
  for (Timing& t : m_timings) {
    if (t.what == what) {
      t.seconds += seconds;
      return;
    }
  }
  m_timings.push_back({std::string(what), seconds});
}

double CachedTrace::NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool CachedTrace::HasLayout(std::string_view name, uint64_t layout) {
  return m_enabled && m_db.handle() && CacheSectionUsable(m_db, name, layout);
}

bool CachedTrace::HasAnalysis(AnalysisKind kind) {
  return Has<analysis::Reconstruction>(kReconSection) &&
         Has<report::ReportData>(AnalysisSection(kind));
}

store::TraceStore CachedTrace::LoadStore(EventColumnsNeeded columns,
                                        const store::LoadProgress& progress) {
  store::TraceStore s;
  const bool bulk = columns == EventColumnsNeeded::kAll;
  // (a section whose event columns disagree in length is not used: only damage makes one)
  if (Read(kStoreSection, StoreFields(s)) && EventColumnsAgree(s)) {
    const bool complete = !bulk || (Read(kEventsSection, BulkFields(s.events)) &&
                                    std::apply(
                                        [&](const auto&... c) {
                                          return ((c.size() == s.events.size()) && ...);
                                        },
                                        BulkFields(s.events)));
    if (complete) {
      s.events.bulk_released = !bulk;
      s.path = m_path;
      m_events_hash = s.events_hash;
      m_store_from_cache = true;
      if (progress) progress(1.0);
      return s;
    }
    s = {};  // read from the rows, below
  }
  const double t0 = NowSeconds();
  s = store::LoadTrace(m_path, progress);
  Time("reading the rows", t0);
  m_events_hash = s.events_hash;
  // Serialized by Analyse: `s` is moved to the caller's object on return.
  m_store_sections_due = m_enabled;
  return s;
}

report::ReportData CachedTrace::Analyse(
    const store::TraceStore& store, AnalysisKind kind, const report::AnalyseProgress& progress,
    model::TimeNs path_until,
    const std::function<void(const analysis::Reconstruction&)>& alongside) {
  // The sections of a store read from the rows are serialized on a thread of their own while
  // the reconstruction (one thread) runs; they are queued before Analyse returns, whichever way
  // it does (a future of std::async waits for its task when it goes, an exception included).
  struct Serialized {
    std::vector<CacheSection> sections;
    double seconds = 0;
  };
  std::future<Serialized> store_sections;
  if (std::exchange(m_store_sections_due, false)) {
    store_sections = std::async(std::launch::async, [&store] {
      const double t0 = NowSeconds();
      Serialized out;
      out.sections.push_back(MakeSection(kStoreSection, StoreFields(store)));
      out.sections.push_back(MakeSection(kEventsSection, BulkFields(store.events)));
      out.seconds = NowSeconds() - t0;
      return out;
    });
  }
  auto queue_store_sections = [&] {
    if (!store_sections.valid()) return;
    Serialized done = store_sections.get();
    for (CacheSection& section : done.sections) QueueSection(std::move(section));
    AddSeconds("serialising the store sections (beside the reconstruction)", done.seconds);
  };
  const bool cacheable = path_until == analysis::kUnknownTime;
  analysis::Reconstruction recon;
  const bool have_recon = Read(kReconSection, recon);
  if (have_recon && cacheable) {
    report::ReportData d;
    if (Read(AnalysisSection(kind), d)) {
      d.store = &store;
      d.recon = std::move(recon);
      if (alongside) alongside(d.recon);
      queue_store_sections();
      if (progress) progress(1.0);
      return d;
    }
  }
  if (store.events.bulk_released) {
    // Loaded without the bulk columns because the analyses were cached, but they did not read.
    throw CacheDamaged("cache: the analyses of " + m_path.string() + " do not read");
  }
  if (!have_recon) {
    if (progress) progress(0.05);
    const double t0 = NowSeconds();
    recon = analysis::Reconstruct(store);
    Time("reconstruction", t0);
  }
  queue_store_sections();  // before the analyses take both cores
  if (!have_recon) Queue(kReconSection, recon);
  report::ReportData d;
  d.store = &store;
  d.recon = std::move(recon);
  // d.recon stays where it is until both are done (the future, declared after d, waits for its
  // task when it goes, also when the analyses throw).
  std::future<void> side;
  if (alongside) {
    side = std::async(std::launch::async, [&alongside, &d] { alongside(d.recon); });
  }
  const double t0 = NowSeconds();
  report::AnalyseInPlace(
      d, kind == AnalysisKind::kFull ? report::AnalysisSet::kFull : report::AnalysisSet::kFindings,
      progress, path_until);
  Time("analyses", t0);
  if (side.valid()) side.get();
  if (cacheable) {
    // Saved without its reconstruction (the recon section has it).
    analysis::Reconstruction own = std::move(d.recon);
    d.recon = {};
    Queue(AnalysisSection(kind), d);
    d.recon = std::move(own);
  }
  return d;
}

void CachedTrace::QueueSection(CacheSection section) {
  std::erase_if(m_pending, [&](const CacheSection& s) { return s.name == section.name; });
  m_pending.push_back(std::move(section));
}

std::future<std::vector<std::string>> CachedTrace::FlushInBackground() {
  m_db.Close();
  return std::async(std::launch::async, [path = m_path, pending = std::move(m_pending),
                                         hash = m_events_hash]() {
    std::vector<std::string> notes;
    if (pending.empty()) return notes;
    std::string why;
    const bool written = WriteCacheSections(path, pending, hash, &why);
    for (const auto& section : pending) {
      notes.push_back(section.name +
                      (written ? ": written to the cache" : ": not written (" + why + ")"));
    }
    return notes;
  });
}

void CachedTrace::Flush() {
  const auto notes = FlushInBackground().get();
  m_notes.insert(m_notes.end(), notes.begin(), notes.end());
}

}  // namespace core::cache
