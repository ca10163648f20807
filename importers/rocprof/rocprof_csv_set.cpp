#include "importers/rocprof/rocprof_csv_set.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/rocprof/rocprof_csv_cursor.h"
#include "importers/rocprof/rocprof_csv_reader.h"
#include "importers/rocprof/rocprof_names.h"

namespace importers::rocprof {
namespace {

struct BadRow {
  std::string what;
};

// One CSV file of the set: its header's columns by name, its rows one by one, each failure
// naming the file, the line and the column.
class CsvTable {
 public:
  CsvTable(const CsvFile& file, bool lenient, RocCapture& capture)
      : m_file(file), m_lenient(lenient), m_c(capture) {
    std::string_view bytes = file.bytes;
    if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
    m_cursor = CsvCursor(bytes);
    bool open = false;
    if (!m_cursor.Next(m_header, open)) {
      throw core::Error(fmt::format("{}: an empty CSV file (no header row)", file.label));
    }
    for (std::string& name : m_header.fields) {
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }

  // The index of the column of that (lower-case) name; -1 when the header has none, or a
  // failure naming the file when `required`.
  int Column(std::string_view name, bool required = true) const {
    auto it = std::find(m_header.fields.begin(), m_header.fields.end(), name);
    if (it != m_header.fields.end()) return static_cast<int>(it - m_header.fields.begin());
    if (required) {
      throw core::Error(fmt::format("{}: line {}: no {} column", m_file.label, m_header.line,
                                    name));
    }
    return -1;
  }

  // Calls read(row) for each row; a BadRow it throws names the row.
  template <typename F>
  void EachRow(F&& read) {
    CsvRow row;
    bool open = false;
    while (m_cursor.Next(row, open)) {
      try {
        if (open) throw BadRow{"a quoted field is not closed before the end of the file"};
        if (row.fields.size() < m_header.fields.size()) {
          throw BadRow{fmt::format("{} fields where the header has {}", row.fields.size(),
                                   m_header.fields.size())};
        }
        read(row);
      } catch (const BadRow& bad) {
        if (!m_lenient) {
          throw core::Error(fmt::format("{}: line {}: {}", m_file.label, row.line, bad.what));
        }
        if (m_c.skipped++ == 0) {
          m_c.first_skipped = fmt::format("{}: line {}: {}", m_file.label, row.line, bad.what);
        }
      }
    }
  }

  // A whole number (an agent column may say "Agent 2": its last number is taken).
  int64_t Number(const CsvRow& row, int column) const {
    std::string_view text = row.fields[column];
    const size_t space = text.rfind(' ');
    if (space != text.npos && space + 1 < text.size()) text.remove_prefix(space + 1);
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw BadRow{fmt::format("column {}: '{}' is not a whole number", m_header.fields[column],
                               row.fields[column].substr(0, 64))};
    }
    return value;
  }

  int64_t NumberOr(const CsvRow& row, int column, int64_t fallback) const {
    return column < 0 || row.fields[column].empty() ? fallback : Number(row, column);
  }

 private:
  const CsvFile& m_file;
  const bool m_lenient;
  RocCapture& m_c;
  CsvCursor m_cursor{std::string_view()};
  CsvRow m_header;
};

enum class Member { kAgents, kKernels, kCopies, kHipApi, kHsaApi, kMarkers, kOther };

Member MemberOf(std::string_view name) {
  struct Suffix {
    std::string_view suffix;
    Member member;
  };
  static constexpr Suffix kSuffixes[] = {{"agent_info.csv", Member::kAgents},
                                         {"kernel_trace.csv", Member::kKernels},
                                         {"memory_copy_trace.csv", Member::kCopies},
                                         {"hip_api_trace.csv", Member::kHipApi},
                                         {"hsa_api_trace.csv", Member::kHsaApi},
                                         {"marker_api_trace.csv", Member::kMarkers}};
  for (const Suffix& s : kSuffixes) {
    if (name.ends_with(s.suffix)) return s.member;
  }
  return Member::kOther;
}

void ReadAgents(const CsvFile& file, bool lenient, RocCapture& c) {
  CsvTable t(file, lenient, c);
  const int node = t.Column("node_id"), type = t.Column("agent_type");
  const int logical = t.Column("logical_node_id", false), name = t.Column("name", false);
  const int product = t.Column("product_name", false);
  t.EachRow([&](const CsvRow& row) {
    RocAgent a;
    a.handle = t.Number(row, node);
    a.gpu = row.fields[type] == "GPU";
    a.node_id = t.NumberOr(row, logical, a.handle);
    if (name >= 0) a.gfx = row.fields[name];
    if (product >= 0) a.product = row.fields[product];
    c.agents[a.handle] = a;
  });
}

const RocAgent& AgentOf(const RocCapture& c, int64_t id) {
  auto it = c.agents.find(id);
  if (it == c.agents.end()) throw BadRow{fmt::format("agent {} is not in agent_info.csv", id)};
  return it->second;
}

void ReadCopies(const CsvFile& file, bool lenient, RocCapture& c) {
  CsvTable t(file, lenient, c);
  const int direction = t.Column("direction"), src = t.Column("source_agent_id");
  const int dst = t.Column("destination_agent_id"), start = t.Column("start_timestamp");
  const int end = t.Column("end_timestamp"), correlation = t.Column("correlation_id", false);
  const int stream = t.Column("stream_id", false), bytes = t.Column("bytes", false);
  t.EachRow([&](const CsvRow& row) {
    RocCopy copy;
    copy.start = t.Number(row, start);
    copy.end = t.Number(row, end);
    if (copy.end < copy.start) {
      throw BadRow{fmt::format("ends ({}) before it starts ({})", copy.end, copy.start)};
    }
    copy.src_agent = t.Number(row, src);
    copy.dst_agent = t.Number(row, dst);
    const bool src_gpu = AgentOf(c, copy.src_agent).gpu, dst_gpu = AgentOf(c, copy.dst_agent).gpu;
    copy.direction = CopyDirection(row.fields[direction], src_gpu, dst_gpu);
    copy.correlation = t.NumberOr(row, correlation, -1);
    copy.stream = t.NumberOr(row, stream, -1);
    copy.bytes = t.NumberOr(row, bytes, 0);
    c.copies.push_back(std::move(copy));
  });
}

void ReadCalls(const CsvFile& file, bool lenient, CallDomain domain, RocCapture& c) {
  CsvTable t(file, lenient, c);
  const int function = t.Column("function"), thread = t.Column("thread_id");
  const int start = t.Column("start_timestamp"), end = t.Column("end_timestamp");
  const int correlation = t.Column("correlation_id", false);
  const int pid = t.Column("process_id", false);
  t.EachRow([&](const CsvRow& row) {
    RocCall call;
    call.domain = domain;
    call.name = c.texts.Keep(row.fields[function]);
    call.thread = t.Number(row, thread);
    call.start = t.Number(row, start);
    call.end = t.Number(row, end);
    if (call.end < call.start) {
      throw BadRow{fmt::format("ends ({}) before it starts ({})", call.end, call.start)};
    }
    call.correlation = t.NumberOr(row, correlation, -1);
    if (c.pid < 0) c.pid = t.NumberOr(row, pid, -1);
    c.calls.push_back(std::move(call));
  });
}

}  // namespace

bool IsRocprofCsvSetMember(std::string_view file_name) {
  return MemberOf(file_name) != Member::kOther;
}

RocCapture ReadRocprofCsvSet(const std::vector<CsvFile>& files, bool lenient) {
  RocCapture c;
  bool agents_listed = false;
  for (const CsvFile& f : files) {
    if (MemberOf(f.name) == Member::kAgents) {
      ReadAgents(f, lenient, c);
      agents_listed = true;
    }
  }
  bool any_trace = false;
  for (const CsvFile& f : files) {
    switch (MemberOf(f.name)) {
      case Member::kKernels:
        ReadKernelTraceCsv(f.bytes, f.label, lenient, c, agents_listed);
        any_trace = true;
        break;
      case Member::kCopies:
        if (!agents_listed) {
          throw core::Error(fmt::format(
              "{}: memory copies name their agents, but no agent_info.csv is beside it",
              f.label));
        }
        ReadCopies(f, lenient, c);
        any_trace = true;
        break;
      case Member::kHipApi: ReadCalls(f, lenient, CallDomain::kHip, c); break;
      case Member::kHsaApi: ReadCalls(f, lenient, CallDomain::kHsa, c); break;
      case Member::kMarkers: ReadCalls(f, lenient, CallDomain::kMarker, c); break;
      default: break;
    }
  }
  if (!any_trace) {
    throw core::Error(fmt::format(
        "{}: no *_kernel_trace.csv or *_memory_copy_trace.csv among the rocprofv3 CSV files",
        files.empty() ? std::string("(no files)") : files.front().label));
  }
  c.format = "rocprofv3-csv";
  return c;
}

}  // namespace importers::rocprof
