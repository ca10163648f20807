#include "importers/nsys/nsys_reader.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/model/error.h"

namespace importers::nsys {
namespace {

constexpr int64_t kNoneId = 0xFFFFFFFF;  // CUPTI's "no stream" / "no event"

// The rows of one table, with the columns asked for (required ones must exist and be non-NULL).
class TableRows {
 public:
  // Columns named with a leading '?' are optional: absent from the table, they read as NULL.
  TableRows(const NsysDatabase& db, std::string table, std::initializer_list<const char*> columns)
      : m_db(db), m_table(std::move(table)) {
    const std::set<std::string> have = db.Columns(m_table);
    std::string sql = "SELECT rowid";
    for (const char* spec : columns) {
      const bool optional = spec[0] == '?';
      const std::string name = optional ? spec + 1 : spec;
      m_names.push_back(name);
      m_required.push_back(!optional);
      if (have.count(name)) {
        sql += ", \"" + name + "\"";
      } else if (optional) {
        sql += ", NULL";
      } else {
        throw core::Error(fmt::format(
            "{}: table {} has no column '{}', which every Nsight Systems export's {} has",
            db.label(), m_table, name, m_table));
      }
    }
    sql += " FROM \"" + m_table + "\"";
    m_statement = db.Prepare(sql);
  }

  bool Next() {
    try {
      if (!m_statement.Step()) return false;
    } catch (const core::store::DamagedDatabaseError& e) {
      throw core::store::DamagedDatabaseError(Place() + ": " + WithoutLabel(e.what()));
    } catch (const core::Error& e) {
      throw core::Error(Place() + ": " + WithoutLabel(e.what()));
    }
    m_row = m_statement.ColumnInt(0);
    ++m_rows;
    return true;
  }

  // Column i (0-based, in the order asked for).
  int64_t Int(int i) const {
    if (m_statement.ColumnIsNull(i + 1)) {
      if (m_required[i]) {
        throw core::Error(fmt::format("{}: table {}, row {}: column '{}' is NULL", m_db.label(),
                                      m_table, m_row, m_names[i]));
      }
      return -1;
    }
    return m_statement.ColumnInt(i + 1);
  }
  // An id where 0xFFFFFFFF means none.
  int64_t Id(int i) const {
    const int64_t v = Int(i);
    return v == kNoneId ? -1 : v;
  }
  bool IsNull(int i) const { return m_statement.ColumnIsNull(i + 1); }
  std::string Text(int i) const { return m_statement.ColumnText(i + 1); }
  int64_t row() const { return m_row; }

 private:
  // SQLite's message without the file's name in front (Place() says it).
  std::string WithoutLabel(std::string message) const {
    const std::string prefix = m_db.label() + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
  }
  std::string Place() const {
    return m_rows == 0 ? fmt::format("{}: table {}", m_db.label(), m_table)
                       : fmt::format("{}: table {}, after row {}", m_db.label(), m_table, m_row);
  }
  const NsysDatabase& m_db;
  std::string m_table;
  std::vector<std::string> m_names;
  std::vector<bool> m_required;
  core::store::Statement m_statement;
  int64_t m_row = 0;
  uint64_t m_rows = 0;
};

void ReadMeta(const NsysDatabase& db, NsysCapture& c) {
  for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
    if (!db.HasTable(table)) continue;
    TableRows rows(db, table, {"name", "?value"});
    while (rows.Next()) {
      const std::string name = rows.Text(0);
      if (name == "EXPORT_PRODUCT_VERSION") c.product_version = rows.Text(1);
      if (name == "EXPORT_SCHEMA_VERSION") c.schema_version = rows.Text(1);
    }
  }
  if (db.HasTable("TARGET_INFO_SESSION_START_TIME")) {
    TableRows rows(db, "TARGET_INFO_SESSION_START_TIME", {"?utcEpochNs"});
    if (rows.Next() && !rows.IsNull(0)) c.session_start_utc_ns = rows.Int(0);
  }
}

void ReadNames(const NsysDatabase& db, NsysCapture& c) {
  {
    TableRows rows(db, "StringIds", {"id", "value"});
    while (rows.Next()) c.strings[rows.Int(0)] = rows.Text(1);
  }
  if (db.HasTable("TARGET_INFO_GPU")) {
    TableRows rows(db, "TARGET_INFO_GPU", {"id", "?name"});
    while (rows.Next()) c.gpu_names[rows.Int(0)] = rows.Text(1);
  }
  if (db.HasTable("PROCESSES")) {
    TableRows rows(db, "PROCESSES", {"?pid", "?name", "?globalPid"});
    while (rows.Next()) {
      const int64_t pid = !rows.IsNull(0) ? rows.Int(0) : PidOf(rows.Int(2));
      c.process_names[pid] = rows.Text(1);
    }
  }
  if (db.HasTable("ThreadNames")) {
    TableRows rows(db, "ThreadNames", {"nameId", "globalTid"});
    while (rows.Next()) c.thread_names[rows.Int(1)] = rows.Int(0);
  }
  if (db.HasTable("TARGET_INFO_CUDA_STREAM")) {
    TableRows rows(db, "TARGET_INFO_CUDA_STREAM",
                   {"streamId", "processId", "?contextId", "?priority", "?flag"});
    while (rows.Next()) {
      NsysStream s;
      s.stream = rows.Int(0);
      s.pid = rows.Int(1);
      s.context = rows.Int(2);
      s.priority = rows.IsNull(3) ? 0 : rows.Int(3);
      s.flag = rows.IsNull(4) ? 0 : rows.Int(4);
      c.streams[{s.pid, s.stream}] = s;
    }
  }
  // 2.9-era schemas name the NULL stream in a table of its own.
  if (db.HasTable("TARGET_INFO_CUDA_NULL_STREAM")) {
    TableRows rows(db, "TARGET_INFO_CUDA_NULL_STREAM", {"streamId", "processId", "?contextId"});
    while (rows.Next()) {
      NsysStream& s = c.streams[{rows.Int(1), rows.Int(0)}];
      s.stream = rows.Int(0);
      s.pid = rows.Int(1);
      s.flag = 3;
    }
  }
}

// The columns every activity table starts with: start, end, deviceId, streamId,
// correlationId, globalPid (asked for in that order).
NsysActivity ActivityRow(const TableRows& rows, ActivityKind kind) {
  NsysActivity a;
  a.kind = kind;
  a.start = rows.Int(0), a.end = rows.Int(1), a.device = rows.Int(2);
  a.stream = rows.Id(3), a.correlation = rows.Id(4), a.global_pid = rows.Int(5);
  a.row = rows.row();
  return a;
}

void ReadActivities(const NsysDatabase& db, NsysCapture& c) {
  if (db.HasTable("CUPTI_ACTIVITY_KIND_KERNEL")) {
    TableRows rows(db, "CUPTI_ACTIVITY_KIND_KERNEL",
                   {"start", "end", "deviceId", "streamId", "?correlationId", "?globalPid",
                    "?demangledName", "?shortName"});
    while (rows.Next()) {
      NsysActivity a = ActivityRow(rows, ActivityKind::kKernel);
      a.name_id = !rows.IsNull(6) ? rows.Int(6) : rows.Int(7);
      c.activities.push_back(a);
    }
  }
  if (db.HasTable("CUPTI_ACTIVITY_KIND_MEMCPY")) {
    TableRows rows(db, "CUPTI_ACTIVITY_KIND_MEMCPY",
                   {"start", "end", "deviceId", "streamId", "?correlationId", "?globalPid",
                    "?bytes", "?copyKind"});
    while (rows.Next()) {
      NsysActivity a = ActivityRow(rows, ActivityKind::kMemcpy);
      a.bytes = rows.Int(6), a.copy_kind = rows.Int(7);
      c.activities.push_back(a);
    }
  }
  if (db.HasTable("CUPTI_ACTIVITY_KIND_MEMSET")) {
    TableRows rows(db, "CUPTI_ACTIVITY_KIND_MEMSET",
                   {"start", "end", "deviceId", "streamId", "?correlationId", "?globalPid",
                    "?bytes"});
    while (rows.Next()) {
      NsysActivity a = ActivityRow(rows, ActivityKind::kMemset);
      a.bytes = rows.Int(6);
      c.activities.push_back(a);
    }
  }
}

// The CUDA runtime and driver calls, and the OS runtime calls (a CPU wait outside CUDA shows).
void ReadCalls(const NsysDatabase& db, NsysCapture& c) {
  for (const char* table : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER",
                            "OSRT_API"}) {
    if (!db.HasTable(table)) continue;
    std::vector<NsysCall>& into = std::string_view(table) == "OSRT_API" ? c.os_calls : c.calls;
    TableRows rows(db, table, {"start", "end", "globalTid", "?correlationId", "nameId"});
    while (rows.Next()) {
      NsysCall call;
      call.start = rows.Int(0), call.end = rows.Int(1), call.global_tid = rows.Int(2);
      call.correlation = rows.Int(3), call.name_id = rows.Int(4);
      call.row = rows.row();
      into.push_back(call);
    }
  }
}

void ReadSyncs(const NsysDatabase& db, NsysCapture& c) {
  c.has_event_table = db.HasTable("CUPTI_ACTIVITY_KIND_CUDA_EVENT");
  if (db.HasTable("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")) {
    c.has_event_sync_id = c.has_event_table &&
                          db.Columns("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION").count("eventSyncId");
    TableRows rows(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                   {"start", "end", "deviceId", "streamId", "?correlationId", "?globalPid",
                    "?syncType", "?eventId", "?eventSyncId"});
    while (rows.Next()) {
      NsysSyncRow s;
      s.start = rows.Int(0), s.end = rows.Int(1), s.device = rows.Int(2);
      s.stream = rows.Id(3), s.correlation = rows.Id(4), s.global_pid = rows.Int(5);
      s.sync_type = rows.Int(6), s.event_id = rows.Id(7), s.event_sync_id = rows.Id(8);
      s.row = rows.row();
      c.syncs.push_back(s);
    }
  }
  if (c.has_event_table) {
    TableRows rows(db, "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
                   {"?timestamp", "deviceId", "streamId", "?correlationId", "?globalPid",
                    "eventId", "?eventSyncId"});
    while (rows.Next()) {
      NsysEventRecord e;
      e.timestamp = rows.IsNull(0) ? 0 : rows.Int(0);
      e.device = rows.Int(1), e.stream = rows.Id(2), e.correlation = rows.Id(3);
      e.global_pid = rows.Int(4), e.event_id = rows.Id(5), e.event_sync_id = rows.Id(6);
      e.row = rows.row();
      c.event_records.push_back(e);
    }
  }
}

// NVTX push/pop and start/end ranges (eventType 59, 60; 70, 71 from NVTXT files), marks (34;
// 65) and the names of domains (75, NvtxDomainCreate: its text, for its domainId).
void ReadNvtx(const NsysDatabase& db, NsysCapture& c) {
  if (!db.HasTable("NVTX_EVENTS")) return;
  TableRows rows(db, "NVTX_EVENTS",
                 {"start", "?end", "eventType", "?text", "?textId", "?domainId", "?globalTid"});
  while (rows.Next()) {
    const int64_t type = rows.Int(2);
    const bool range = type == 59 || type == 60 || type == 70 || type == 71;
    const bool mark = type == 34 || type == 65;
    if (!range && !mark && type != 75) continue;
    if (range && rows.IsNull(1)) {
      ++c.ranges_unended;
      continue;
    }
    std::string text;
    if (!rows.IsNull(3)) {
      text = rows.Text(3);
    } else if (!rows.IsNull(4)) {
      if (const std::string* s = c.String(rows.Int(4))) text = *s;
    }
    const int64_t domain = rows.IsNull(5) ? 0 : rows.Int(5);
    const int64_t global_tid = rows.IsNull(6) ? 0 : rows.Int(6);
    if (type == 75) {
      c.domain_names[{PidOf(global_tid), domain}] = std::move(text);
      continue;
    }
    NsysRange r;
    r.start = rows.Int(0), r.end = range ? rows.Int(1) : r.start;
    auto [it, added] = c.range_text_index.try_emplace(std::move(text), c.range_texts.size());
    if (added) c.range_texts.push_back(it->first);
    r.text = it->second;
    r.domain = domain;
    r.global_tid = global_tid;
    (range ? c.ranges : c.marks).push_back(r);
  }
}

}  // namespace

NsysCapture ReadCapture(const NsysDatabase& db, const std::function<void(double)>& progress) {
  auto report = [&](double f) {
    if (progress) progress(f);
  };
  NsysCapture c;
  ReadMeta(db, c);
  ReadNames(db, c);
  report(0.1);
  ReadActivities(db, c);
  report(0.4);
  ReadCalls(db, c);
  report(0.7);
  ReadSyncs(db, c);
  ReadNvtx(db, c);
  report(1.0);
  return c;
}

}  // namespace importers::nsys
