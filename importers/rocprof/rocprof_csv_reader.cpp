#include "importers/rocprof/rocprof_csv_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/rocprof/rocprof_csv_cursor.h"
#include "importers/rocprof/rocprof_names.h"

namespace importers::rocprof {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The columns the reader uses, each under the names the three rocprof generations give it.
enum Column {
  kName, kStart, kEnd, kQueue, kGpu, kPid, kTid, kDispatch, kCorrelation, kStream,
  kGrid, kGridX, kGridY, kGridZ, kWorkgroup, kWorkgroupX, kWorkgroupY, kWorkgroupZ, kColumns
};

struct ColumnNames {
  Column column;
  const char* shown;  // as messages name it
  std::vector<std::string_view> names;  // lower case
};

const std::vector<ColumnNames>& KnownColumns() {
  static const std::vector<ColumnNames> kKnown = {
      {kName, "Kernel_Name", {"kernel_name", "kernelname"}},
      {kStart, "Start_Timestamp", {"start_timestamp", "beginns"}},
      {kEnd, "End_Timestamp", {"end_timestamp", "endns"}},
      {kQueue, "Queue_ID", {"queue_id", "queue-id"}},
      {kGpu, "GPU_ID", {"gpu_id", "gpu-id", "agent_id"}},
      {kPid, "PID", {"pid"}},
      {kTid, "TID", {"tid", "thread_id"}},
      {kDispatch, "Dispatch_ID", {"dispatch_id", "index"}},
      {kCorrelation, "Correlation_ID", {"correlation_id"}},
      {kStream, "Stream_Id", {"stream_id"}},
      {kGrid, "Grid_Size", {"grid_size", "grd"}},
      {kGridX, "Grid_Size_X", {"grid_size_x"}},
      {kGridY, "Grid_Size_Y", {"grid_size_y"}},
      {kGridZ, "Grid_Size_Z", {"grid_size_z"}},
      {kWorkgroup, "Workgroup_Size", {"workgroup_size", "wgr"}},
      {kWorkgroupX, "Workgroup_Size_X", {"workgroup_size_x"}},
      {kWorkgroupY, "Workgroup_Size_Y", {"workgroup_size_y"}},
      {kWorkgroupZ, "Workgroup_Size_Z", {"workgroup_size_z"}},
  };
  return kKnown;
}

constexpr Column kRequired[] = {kName, kStart, kEnd, kQueue, kGpu};

// Column index per Column (-1: absent) from a header row.
std::vector<int> FindColumns(const std::vector<std::string>& header) {
  std::vector<int> at(kColumns, -1);
  for (size_t i = 0; i < header.size(); ++i) {
    const std::string name = Lower(header[i]);
    for (const ColumnNames& known : KnownColumns()) {
      if (at[known.column] < 0 &&
          std::find(known.names.begin(), known.names.end(), name) != known.names.end()) {
        at[known.column] = static_cast<int>(i);
      }
    }
  }
  return at;
}

struct BadRow {
  std::string what;
};

// A kernel trace, into `capture`. `agents_listed`: the capture's agents come from an
// agent_info.csv beside it, and a row naming another is refused; else each GPU id a row names is
// a GPU of its own.
class Reader {
 public:
  Reader(const std::string& label, bool lenient, RocCapture& capture, bool agents_listed)
      : m_label(label), m_lenient(lenient), m_c(capture), m_agents_listed(agents_listed) {}

  void Read(std::string_view bytes) {
    if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
    CsvCursor cursor(bytes);
    CsvRow header;
    bool open = false;
    if (!cursor.Next(header, open)) {
      throw core::Error(fmt::format("{}: an empty CSV file (no header row)", m_label));
    }
    m_at = FindColumns(header.fields);
    m_columns = header.fields.size();
    for (Column c : kRequired) {
      if (m_at[c] < 0) {
        throw core::Error(fmt::format(
            "{}: line {}: no {} column: a rocprof kernel trace names {} (v1: KernelName, gpu-id, "
            "queue-id, BeginNs, EndNs)",
            m_label, header.line, Shown(c),
            "Kernel_Name, GPU_ID, Queue_ID, Start_Timestamp and End_Timestamp"));
      }
    }
    m_c.format = "rocprof-csv";
    CsvRow row;
    while (cursor.Next(row, open)) {
      try {
        if (open) throw BadRow{"a quoted field is not closed before the end of the file"};
        ReadRow(row);
      } catch (const BadRow& bad) {
        if (!m_lenient) {
          throw core::Error(fmt::format("{}: line {}: {}", m_label, row.line, bad.what));
        }
        if (m_c.skipped++ == 0) {
          m_c.first_skipped = fmt::format("{}: line {}: {}", m_label, row.line, bad.what);
        }
      }
    }
  }

 private:
  static const char* Shown(Column c) {
    for (const ColumnNames& known : KnownColumns()) {
      if (known.column == c) return known.shown;
    }
    return "?";
  }

  const std::string* Field(const CsvRow& row, Column c) const {
    const int i = m_at[c];
    return i >= 0 && static_cast<size_t>(i) < row.fields.size() ? &row.fields[i] : nullptr;
  }

  // A whole number; an agent column may say "Agent 2" (the last number is taken).
  std::optional<int64_t> Number(const CsvRow& row, Column c) const {
    const std::string* f = Field(row, c);
    if (!f) {
      if (m_at[c] >= 0) {
        throw BadRow{fmt::format("{} fields where the header has {}: no {}", row.fields.size(),
                                 m_columns, Shown(c))};
      }
      return std::nullopt;
    }
    std::string_view text = *f;
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (c == kGpu) {
      const size_t space = text.rfind(' ');
      if (space != text.npos) text.remove_prefix(space + 1);
    }
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw BadRow{fmt::format("column {}: '{}' is not a whole number", Shown(c),
                               f->substr(0, 64))};
    }
    return value;
  }

  int64_t Required(const CsvRow& row, Column c) const { return *Number(row, c); }

  int64_t Optional(const CsvRow& row, Column c, int64_t fallback) const {
    if (m_at[c] < 0) return fallback;
    const std::string* f = Field(row, c);
    if (f && f->empty()) return fallback;
    return Number(row, c).value_or(fallback);
  }

  void ReadRow(const CsvRow& row) {
    RocDispatch d;
    const std::string* name = Field(row, kName);
    if (!name) {
      throw BadRow{fmt::format("{} fields where the header has {}", row.fields.size(),
                               m_columns)};
    }
    d.name = m_c.texts.Keep(KernelDisplayName(*name));
    d.start = Required(row, kStart);
    d.end = Required(row, kEnd);
    if (d.end < d.start) {
      throw BadRow{fmt::format("ends ({}) before it starts ({})", d.end, d.start)};
    }
    d.queue = Required(row, kQueue);
    d.agent = Required(row, kGpu);
    d.thread = Optional(row, kTid, -1);
    d.stream = Optional(row, kStream, -1);
    d.dispatch_id = Optional(row, kDispatch, -1);
    d.correlation = Optional(row, kCorrelation, -1);
    if (d.correlation == 0) d.correlation = -1;  // v2 writes 0 where nothing correlates
    d.grid = {Optional(row, kGridX, Optional(row, kGrid, 0)), Optional(row, kGridY, 1),
              Optional(row, kGridZ, 1)};
    d.workgroup = {Optional(row, kWorkgroupX, Optional(row, kWorkgroup, 0)),
                   Optional(row, kWorkgroupY, 1), Optional(row, kWorkgroupZ, 1)};
    d.pid = Optional(row, kPid, -1);
    if (m_c.pid < 0 && d.pid >= 0) m_c.pid = d.pid;  // the first names the capture
    if (m_agents_listed) {
      auto listed = m_c.agents.find(d.agent);
      if (listed == m_c.agents.end()) {
        throw BadRow{fmt::format("agent {} is not in agent_info.csv", d.agent)};
      }
      if (!listed->second.gpu) throw BadRow{fmt::format("agent {} is not a GPU", d.agent)};
    }
    auto [agent, added] = m_c.agents.try_emplace(d.agent);
    if (added) {
      agent->second.handle = d.agent;
      agent->second.gpu = true;
      agent->second.node_id = d.agent;
      agent->second.product = fmt::format("GPU id {}", d.agent);
    }
    m_c.dispatches.push_back(std::move(d));
  }

  const std::string& m_label;
  const bool m_lenient;
  RocCapture& m_c;
  const bool m_agents_listed;
  std::vector<int> m_at;
  size_t m_columns = 0;
};

}  // namespace

bool LooksLikeRocprofCsv(std::string_view prefix) {
  if (prefix.starts_with("\xEF\xBB\xBF")) prefix.remove_prefix(3);
  const size_t end = prefix.find('\n');
  CsvCursor cursor(prefix.substr(0, end));
  CsvRow header;
  bool open = false;
  if (end == prefix.npos || !cursor.Next(header, open) || open) return false;
  // A kernel name beside a start or a queue column is a rocprof kernel trace; one that lacks
  // another required column is then refused naming it.
  const std::vector<int> at = FindColumns(header.fields);
  return at[kName] >= 0 && (at[kStart] >= 0 || at[kQueue] >= 0);
}

RocCapture ReadRocprofCsv(std::string_view bytes, const std::string& label, bool lenient) {
  RocCapture capture;
  Reader(label, lenient, capture, false).Read(bytes);
  return capture;
}

void ReadKernelTraceCsv(std::string_view bytes, const std::string& label, bool lenient,
                        RocCapture& capture, bool agents_listed) {
  Reader(label, lenient, capture, agents_listed).Read(bytes);
}

}  // namespace importers::rocprof
