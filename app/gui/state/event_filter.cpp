#include "app/gui/state/event_filter.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/model/error.h"
#include "core/model/event_kind.h"
#include "core/store/event_row.h"

namespace app::gui::state {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Per id (index = id; 0 = none): does the name contain `needle` (lower case)?
template <typename Table>
std::vector<uint8_t> NamesMatching(const Table& table, const std::string& needle) {
  std::vector<uint8_t> match(table.size() + 1, 0);
  for (const auto& row : table) {
    if (row.id < match.size()) match[row.id] = Lower(row.name).find(needle) != std::string::npos;
  }
  return match;
}

// The columns a number is looked for in: those that hold the kinds' operation ids, values,
// times and other numbers (every field that is not a queue, thread or fence id, nor flags).
constexpr core::model::EventColumn kNumberColumns[] = {
    core::model::EventColumn::kOp, core::model::EventColumn::kValue,
    core::model::EventColumn::kArg0, core::model::EventColumn::kArg1,
    core::model::EventColumn::kArg2};

// Which records a text filter keeps: those whose kind, queue, thread or fence name contains the
// text (case-insensitive), or, when the text is a number, that hold it in one of kNumberColumns.
class TextMatcher {
 public:
  TextMatcher(const core::store::TraceStore& store, const std::string& text)
      : m_events(store.events), m_needle(Lower(text)) {
    m_queues = NamesMatching(store.queues, m_needle);
    m_threads = NamesMatching(store.threads, m_needle);
    m_fences = NamesMatching(store.fences, m_needle);
    int count = 0;
    const core::model::EventKind* kinds = core::model::AllEventKinds(&count);
    for (int i = 0; i < count; ++i) {
      auto id = static_cast<size_t>(kinds[i]);
      if (m_kinds.size() <= id) m_kinds.resize(id + 1, 0);
      m_kinds[id] = Lower(core::model::EventKindName(kinds[i])).find(m_needle) != std::string::npos;
    }
    const std::optional<int64_t> number = FilterNumber(text);
    m_is_number = number.has_value();
    m_number = number.value_or(0);
  }

  bool operator()(size_t i) const {
    auto kind = static_cast<size_t>(m_events.kind[i]);
    if (kind < m_kinds.size() && m_kinds[kind]) return true;
    if (Has(m_queues, m_events.queue[i]) || Has(m_threads, m_events.thread[i]) ||
        Has(m_fences, m_events.fence[i])) {
      return true;
    }
    if (!m_is_number) return false;
    for (core::model::EventColumn column : kNumberColumns) {
      if (m_events.ColumnValue(column, i) == m_number) return true;
    }
    return false;
  }

 private:
  static bool Has(const std::vector<uint8_t>& match, uint32_t id) {
    return id < match.size() && match[id];
  }
  const core::store::EventColumns& m_events;
  std::string m_needle;
  std::vector<uint8_t> m_kinds, m_queues, m_threads, m_fences;
  bool m_is_number = false;
  int64_t m_number = 0;
};

// One query for the whole filter. Names are matched in SQL against the file's own tables
// (lower() and instr() fold ASCII case like std::tolower in the "C" locale); ?7 is NULL when the
// text is not a number, which makes "?7 IN (...)" false.
std::string FilterSql() {
  return std::string(R"sql(
SELECT rowid FROM events
WHERE rowid BETWEEN ?1 AND ?2 AND ts_ns BETWEEN ?3 AND ?4
  AND (?5 = 0 OR kind = ?5)
  AND (kind IN (SELECT id FROM event_kinds WHERE instr(lower(name), ?6) > 0)
    OR queue_id IN (SELECT q.id FROM queues q JOIN strings s ON s.id = q.name_sid
                    WHERE instr(lower(s.value), ?6) > 0)
    OR thread_id IN (SELECT t.id FROM threads t JOIN strings s ON s.id = t.name_sid
                     WHERE instr(lower(s.value), ?6) > 0)
    OR fence_id IN (SELECT f.id FROM fences f JOIN strings s ON s.id = f.name_sid
                    WHERE instr(lower(s.value), ?6) > 0)
    OR ?7 IN ()sql") + core::store::kEventNumberColumns + "))";
}

}  // namespace

std::optional<int64_t> FilterNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  long long number = std::strtoll(text.c_str(), &end, 0);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(number);
}

std::vector<uint32_t> FilterEventsSql(const core::store::TraceStore& store,
                                      core::store::Database& db, size_t first, size_t last,
                                      int kind, const std::string& text) {
  const auto& events = store.events;
  last = std::min(last, events.size());
  if (first >= last) return {};
  // The rowids of the window: first + 1 .. last when rowid order is time order, else the least
  // and greatest rowid in it (the time bounds then keep the scan exact).
  core::model::EventRowId low = events.RowIdOf(first), high = low;
  if (events.rowid.empty()) {
    high = static_cast<core::model::EventRowId>(last);
  } else {
    for (size_t i = first; i < last; ++i) {
      low = std::min(low, events.rowid[i]);
      high = std::max(high, events.rowid[i]);
    }
  }
  core::store::Statement s = db.Prepare(FilterSql());
  s.BindInt(1, low);
  s.BindInt(2, high);
  s.BindInt(3, events.ts[first]);
  s.BindInt(4, events.ts[last - 1]);
  s.BindInt(5, kind);
  s.BindText(6, Lower(text));
  if (auto number = FilterNumber(text)) s.BindInt(7, *number);
  else s.BindNull(7);
  std::vector<uint32_t> out;
  while (s.Step()) {
    // Events sharing the window's first or last time may lie outside [first, last).
    const size_t index = store.IndexOfRowId(s.ColumnInt(0));
    if (index >= first && index < last) out.push_back(static_cast<uint32_t>(index));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint32_t> FilterEvents(const core::store::TraceStore& store, size_t first, size_t last,
                                   int kind, const std::string& text) {
  std::vector<uint32_t> out;
  const auto wanted = static_cast<core::model::EventKind>(kind);
  std::optional<TextMatcher> matcher;
  if (!text.empty()) {
    if (store.events.bulk_released) {
      throw core::Error(store.path.string() +
                        ": the text filter needs the event columns, which were released; "
                        "filter with FilterEventsSql");
    }
    matcher.emplace(store, text);
  }
  last = std::min(last, store.events.size());
  for (size_t i = first; i < last; ++i) {
    if (kind != 0 && store.events.kind[i] != wanted) continue;
    if (matcher && !(*matcher)(i)) continue;
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

}  // namespace app::gui::state
