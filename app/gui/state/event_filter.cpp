#include "app/gui/state/event_filter.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/model/event_kind.h"

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

// Which records a text filter keeps: those whose kind, queue, thread or fence name contains the
// text (case-insensitive), or, when the text is a number, whose op_id, value or an argument
// equals it.
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
    char* end = nullptr;
    long long number = std::strtoll(text.c_str(), &end, 0);
    m_is_number = !text.empty() && end && *end == '\0';
    m_number = number;
  }

  bool operator()(size_t i) const {
    auto kind = static_cast<size_t>(m_events.kind[i]);
    if (kind < m_kinds.size() && m_kinds[kind]) return true;
    if (Has(m_queues, m_events.queue[i]) || Has(m_threads, m_events.thread[i]) ||
        Has(m_fences, m_events.fence[i])) {
      return true;
    }
    return m_is_number &&
           (m_events.op[i] == m_number || m_events.value[i] == static_cast<uint64_t>(m_number) ||
            m_events.arg0[i] == m_number || m_events.arg1[i] == m_number ||
            m_events.arg2[i] == m_number);
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

}  // namespace

std::vector<uint32_t> FilterEvents(const core::store::TraceStore& store, size_t first, size_t last,
                                   int kind, const std::string& text) {
  std::vector<uint32_t> out;
  const auto wanted = static_cast<core::model::EventKind>(kind);
  std::optional<TextMatcher> matcher;
  if (!text.empty()) matcher.emplace(store, text);
  last = std::min(last, store.events.size());
  for (size_t i = first; i < last; ++i) {
    if (kind != 0 && store.events.kind[i] != wanted) continue;
    if (matcher && !(*matcher)(i)) continue;
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

}  // namespace app::gui::state
