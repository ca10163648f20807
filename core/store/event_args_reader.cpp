#include "core/store/event_args_reader.h"

#include <fmt/format.h>

#include "core/model/error.h"

namespace core::store {

EventArgsReader::EventArgsReader(std::filesystem::path trace) : m_trace(std::move(trace)) {}

EventArgsReader::~EventArgsReader() = default;

const std::vector<std::pair<std::string, std::string>>& EventArgsReader::Read(
    core::model::EventRowId rowid) {
  if (rowid == m_rowid) return m_args;
  m_rowid = rowid;
  m_args.clear();
  if (m_trace.empty() || m_failed) return m_args;
  try {
    if (!m_db) {
      m_db = std::make_unique<Database>(m_trace.string(), Database::Mode::kReadOnly);
      m_select = m_db->Prepare(
          "SELECT k.value, a.int_value, a.real_value, t.value FROM event_args a "
          "JOIN strings k ON k.id = a.key_sid LEFT JOIN strings t ON t.id = a.text_sid "
          "WHERE a.event_rowid = ?1 ORDER BY a.rowid");
    }
    m_select.Reset();
    m_select.BindInt(1, rowid);
    while (m_select.Step()) {
      std::string value;
      if (!m_select.ColumnIsNull(1)) {
        value = fmt::format("{}", m_select.ColumnInt(1));
      } else if (!m_select.ColumnIsNull(2)) {
        value = fmt::format("{}", m_select.ColumnDouble(2));
      } else {
        value = m_select.ColumnText(3);
      }
      m_args.emplace_back(m_select.ColumnText(0), std::move(value));
    }
  } catch (const core::Error&) {
    // A trace without the table, or a file gone: the panel shows the record's fields alone.
    m_failed = true;
    m_args.clear();
  }
  return m_args;
}

}  // namespace core::store
