#include "core/store/trace_outline.h"

#include <algorithm>
#include <map>

#include "core/store/trace_file.h"

namespace core::store {

TraceOutline ReadTraceOutline(const std::filesystem::path& path, size_t bins) {
  Database db = OpenTrace(path);
  TraceOutline out;
  out.bins = std::max<size_t>(bins, 1);
  const auto meta = ReadMeta(db);
  auto meta_int = [&](const char* key) -> model::TimeNs {
    auto it = meta.find(key);
    return it == meta.end() ? 0 : std::stoll(it->second);
  };
  out.start = meta_int("start_ns");
  out.end = std::max(out.start, meta_int("end_ns"));
  if (out.end == out.start) {  // no span in meta: the index's
    Statement span = db.Prepare("SELECT min(start_ns), max(end_ns) FROM event_blocks");
    if (span.Step() && !span.ColumnIsNull(0)) {
      out.start = span.ColumnInt(0);
      out.end = span.ColumnInt(1);
    }
  }

  std::map<std::pair<int, uint32_t>, size_t> index;  // (track_kind, id) -> tracks[]
  auto add = [&](int kind, const char* sql) {
    Statement s = db.Prepare(sql);
    while (s.Step()) {
      OutlineTrack t;
      t.thread = kind == 1;
      t.id = static_cast<uint32_t>(s.ColumnInt(0));
      t.label = s.ColumnText(1);
      t.events.assign(out.bins, 0);
      index[{kind, t.id}] = out.tracks.size();
      out.tracks.push_back(std::move(t));
    }
  };
  add(0,
      "SELECT q.id, coalesce(sa.value || ' / ', '') || coalesce(sq.value, 'queue ' || q.id) "
      "FROM queues q LEFT JOIN strings sq ON sq.id = q.name_sid "
      "LEFT JOIN adapters a ON a.id = q.adapter_id LEFT JOIN strings sa ON sa.id = a.name_sid "
      "ORDER BY q.id");
  add(1,
      "SELECT t.id, coalesce(sp.value || ' / ', '') || coalesce(st.value, 'thread ' || t.id) "
      "FROM threads t LEFT JOIN strings st ON st.id = t.name_sid "
      "LEFT JOIN processes p ON p.id = t.process_id LEFT JOIN strings sp ON sp.id = p.name_sid "
      "ORDER BY t.id");

  const double span = static_cast<double>(std::max<model::TimeNs>(1, out.end - out.start));
  auto bin_of = [&](model::TimeNs t) {
    const double f = static_cast<double>(t - out.start) / span;
    return std::clamp<int64_t>(static_cast<int64_t>(f * static_cast<double>(out.bins)), 0,
                               static_cast<int64_t>(out.bins) - 1);
  };
  Statement s =
      db.Prepare("SELECT track_kind, track_id, start_ns, end_ns, events FROM event_blocks");
  while (s.Step()) {
    const int kind = static_cast<int>(s.ColumnInt(0));
    const auto events = static_cast<uint64_t>(std::max<int64_t>(0, s.ColumnInt(4)));
    if (kind == 2) {
      out.events += events;
      continue;
    }
    auto it = index.find({kind, static_cast<uint32_t>(s.ColumnInt(1))});
    if (it == index.end()) continue;
    OutlineTrack& t = out.tracks[it->second];
    const int64_t first = bin_of(s.ColumnInt(2)), last = bin_of(s.ColumnInt(3));
    const auto n = static_cast<uint64_t>(last - first + 1);
    for (int64_t b = first; b <= last; ++b) {
      t.events[static_cast<size_t>(b)] += static_cast<uint32_t>(events / n + (b == first ? events % n : 0));
    }
  }
  for (auto& t : out.tracks) t.max = *std::max_element(t.events.begin(), t.events.end());
  // Tracks with no event at all (a stream only waited on) still show, greyed by the view.
  return out;
}

}  // namespace core::store
