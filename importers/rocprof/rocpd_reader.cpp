#include "importers/rocprof/rocpd_reader.h"

#include <charconv>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/sqlite_db.h"
#include "importers/common/sqlite_defensive.h"
#include "importers/rocprof/rocpd_id_table.h"
#include "importers/rocprof/rocprof_names.h"

namespace importers::rocprof {
namespace {

bool HasTable(core::store::Database& db, const std::string& table) {
  auto s = db.Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  s.BindText(1, table);
  return s.Step();
}

struct BadRow {
  std::string what;
};

// A handle written as text: hexadecimal ("0x..."), decimal, or the NULL stream ("nullptr",
// "(nil)", "0"); -1 for anything else.
int64_t HandleValue(std::string_view text) {
  if (text == "nullptr" || text == "(nil)" || text == "NULL") return 0;
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2), base = 16;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return -1;
  return static_cast<int64_t>(value & 0x7FFFFFFFFFFFFFFF);
}

CallDomain DomainOf(std::string_view category) {
  if (category.starts_with("HSA")) return CallDomain::kHsa;
  if (category.starts_with("MARKER") || category.starts_with("ROCTX")) return CallDomain::kMarker;
  return CallDomain::kHip;
}

class Reader {
 public:
  Reader(core::store::Database& db, const std::string& label, bool lenient)
      : m_db(db), m_label(label), m_lenient(lenient) {}

  RocCapture Read() {
    // What the file's own schema could make SQLite run is refused (its views and triggers are
    // never used: the tables are read by name).
    MakeSqliteDefensive(m_db.handle());
    const auto suffix = RocpdTableSuffix(m_db);
    if (!suffix) {
      throw core::Error(fmt::format("{}: not a rocpd database (no rocpd_string table)", m_label));
    }
    m_suffix = *suffix;
    m_c.format = "rocpd";
    ReadStrings();
    ReadProcess();
    ReadAgents();
    ReadThreads();
    ReadKernelSymbols();
    ReadEvents();
    ReadArgs();
    ReadDispatches();
    ReadCopies();
    ReadRegions();
    return std::move(m_c);
  }

 private:
  std::string Table(std::string_view base) const { return std::string(base) + m_suffix; }

  // Each row of `sql` over `base`'s table ("{}" in `sql` is the table), naming the table and the
  // row id (column 0) in errors; nothing when the file has no such table.
  template <typename F>
  void EachRow(std::string_view base, std::string_view sql, F&& read) {
    const std::string table = Table(base);
    if (!HasTable(m_db, table)) return;
    auto s = m_db.Prepare(fmt::format(fmt::runtime(sql), "\"" + table + "\""));
    while (s.Step()) {
      try {
        read(s);
      } catch (const BadRow& bad) {
        const std::string place = fmt::format("table {}, row id {}", table, s.ColumnInt(0));
        if (!m_lenient) throw core::Error(fmt::format("{}: {}: {}", m_label, place, bad.what));
        if (m_c.skipped++ == 0) m_c.first_skipped = fmt::format("{}: {}", place, bad.what);
      }
    }
  }

  const std::string& String(int64_t id) const {
    static const std::string kNone;
    auto it = m_strings.find(id);
    return it == m_strings.end() ? kNone : it->second;
  }

  void ReadStrings() {
    EachRow("rocpd_string", "SELECT id, string FROM {}",
            [&](core::store::Statement& s) { m_strings[s.ColumnInt(0)] = s.ColumnText(1); });
  }

  void ReadProcess() {
    EachRow("rocpd_info_process", "SELECT id, pid, command FROM {} ORDER BY id LIMIT 1",
            [&](core::store::Statement& s) {
              m_c.pid = s.ColumnInt(1);
              const std::string command = s.ColumnText(2);
              if (!command.empty()) m_c.meta["rocprof_command"] = command;
              const std::string first = command.substr(0, command.find(' '));
              m_c.process_name = first.substr(first.rfind('/') + 1);
            });
  }

  void ReadAgents() {
    EachRow("rocpd_info_agent",
            "SELECT id, type, absolute_index, logical_index, name, product_name FROM {}",
            [&](core::store::Statement& s) {
              RocAgent a;
              a.handle = s.ColumnInt(0);
              a.gpu = s.ColumnText(1) == "GPU";
              a.node_id = s.ColumnIsNull(3) ? s.ColumnInt(2) : s.ColumnInt(3);
              a.gfx = s.ColumnText(4);
              a.product = s.ColumnText(5);
              m_c.agents[a.handle] = a;
            });
  }

  void ReadThreads() {
    EachRow("rocpd_info_thread", "SELECT id, tid FROM {}", [&](core::store::Statement& s) {
      m_threads[s.ColumnInt(0)] = s.ColumnInt(1);
    });
  }

  void ReadKernelSymbols() {
    EachRow("rocpd_info_kernel_symbol", "SELECT id, kernel_name, display_name FROM {}",
            [&](core::store::Statement& s) {
              std::string name = s.ColumnText(2);
              if (name.empty()) name = s.ColumnText(1);
              m_kernels[s.ColumnInt(0)] = m_c.texts.Keep(KernelDisplayName(name));
            });
  }

  void ReadEvents() {
    EachRow("rocpd_event", "SELECT id, category_id, correlation_id FROM {} ORDER BY id",
            [&](core::store::Statement& s) {
              m_events.Add(s.ColumnInt(0),
                           {s.ColumnIsNull(2) ? -1 : s.ColumnInt(2), s.ColumnInt(1)});
            });
    m_events.Seal();
  }

  // The stream and event handles among the API calls' arguments (rocpd_arg: one row per
  // argument of an event, its value as text: "0x55d0c7a0", "140737", "nullptr").
  void ReadArgs() {
    EachRow("rocpd_arg",
            "SELECT id, event_id, name, value FROM {} WHERE name IN ('stream', 'hStream', "
            "'event')",
            [&](core::store::Statement& s) {
              const int64_t handle = HandleValue(s.ColumnText(3));
              if (handle < 0) return;
              Handles& h = m_handles.Last(s.ColumnInt(1));
              (s.ColumnText(2) == "event" ? h.event : h.stream) = handle;
            });
    // An event's arguments are read apart when other rows come between them: merged, the
    // later argument of a name winning as when they are together.
    m_handles.Seal([](Handles& earlier, const Handles& later) {
      if (later.stream >= 0) earlier.stream = later.stream;
      if (later.event >= 0) earlier.event = later.event;
    });
  }

  // The OS thread of a tid column (a rocpd_info_thread id); -1 when NULL.
  int64_t ThreadOf(const core::store::Statement& s, int column) const {
    if (s.ColumnIsNull(column)) return -1;
    auto it = m_threads.find(s.ColumnInt(column));
    if (it == m_threads.end()) {
      throw BadRow{fmt::format("thread {} is not in rocpd_info_thread", s.ColumnInt(column))};
    }
    return it->second;
  }

  const RocAgent& AgentOf(int64_t id, std::string_view role) const {
    auto it = m_c.agents.find(id);
    if (it == m_c.agents.end()) {
      throw BadRow{fmt::format("{} {} is not in rocpd_info_agent", role, id)};
    }
    return it->second;
  }

  int64_t CorrelationOf(const core::store::Statement& s, int column) const {
    if (s.ColumnIsNull(column)) return -1;
    const Event* event = m_events.Find(s.ColumnInt(column));
    return event ? event->correlation : -1;
  }

  static void CheckTimes(int64_t start, int64_t end) {
    if (end < start) throw BadRow{fmt::format("ends ({}) before it starts ({})", end, start)};
  }

  void ReadDispatches() {
    EachRow("rocpd_kernel_dispatch",
            "SELECT id, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, "
            "\"end\", workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, "
            "grid_size_y, grid_size_z, event_id FROM {} ORDER BY id",
            [&](core::store::Statement& s) {
              RocDispatch d;
              d.thread = ThreadOf(s, 1);
              d.agent = s.ColumnInt(2);
              if (!AgentOf(d.agent, "agent").gpu) {
                throw BadRow{fmt::format("agent {} is not a GPU", d.agent)};
              }
              auto kernel = m_kernels.find(s.ColumnInt(3));
              if (kernel == m_kernels.end()) {
                throw BadRow{fmt::format("kernel {} is not in rocpd_info_kernel_symbol",
                                         s.ColumnInt(3))};
              }
              d.name = kernel->second;  // (a view of m_c.texts)
              d.dispatch_id = s.ColumnInt(4);
              d.queue = s.ColumnInt(5);
              d.stream = s.ColumnIsNull(6) ? -1 : s.ColumnInt(6);
              d.start = s.ColumnInt(7);
              d.end = s.ColumnInt(8);
              CheckTimes(d.start, d.end);
              d.workgroup = {s.ColumnInt(9), s.ColumnInt(10), s.ColumnInt(11)};
              d.grid = {s.ColumnInt(12), s.ColumnInt(13), s.ColumnInt(14)};
              d.correlation = CorrelationOf(s, 15);
              m_c.dispatches.push_back(std::move(d));
            });
  }

  void ReadCopies() {
    EachRow("rocpd_memory_copy",
            "SELECT id, tid, start, \"end\", name_id, dst_agent_id, src_agent_id, size, "
            "stream_id, event_id FROM {} ORDER BY id",
            [&](core::store::Statement& s) {
              RocCopy c;
              c.thread = ThreadOf(s, 1);
              c.start = s.ColumnInt(2);
              c.end = s.ColumnInt(3);
              CheckTimes(c.start, c.end);
              c.dst_agent = s.ColumnInt(5);
              c.src_agent = s.ColumnInt(6);
              const bool dst_gpu = AgentOf(c.dst_agent, "destination agent").gpu;
              const bool src_gpu = AgentOf(c.src_agent, "source agent").gpu;
              c.direction = CopyDirection(String(s.ColumnInt(4)), src_gpu, dst_gpu);
              c.bytes = s.ColumnInt(7);
              c.stream = s.ColumnIsNull(8) ? -1 : s.ColumnInt(8);
              c.correlation = CorrelationOf(s, 9);
              m_c.copies.push_back(std::move(c));
            });
  }

  // API calls and roctx ranges; the kind of each is its event's category.
  void ReadRegions() {
    EachRow("rocpd_region",
            "SELECT id, tid, start, \"end\", name_id, event_id FROM {} ORDER BY id",
            [&](core::store::Statement& s) {
              RocCall c;
              c.thread = ThreadOf(s, 1);
              if (c.thread < 0) throw BadRow{"no thread"};
              c.start = s.ColumnInt(2);
              c.end = s.ColumnInt(3);
              CheckTimes(c.start, c.end);
              c.name = m_c.texts.Keep(String(s.ColumnInt(4)));
              const int64_t event_id = s.ColumnIsNull(5) ? -1 : s.ColumnInt(5);
              const Event* event = s.ColumnIsNull(5) ? nullptr : m_events.Find(event_id);
              if (event) {
                c.correlation = event->correlation;
                c.domain = DomainOf(String(event->category));
                if (const Handles* handles = m_handles.Find(event_id)) {
                  c.stream = handles->stream;
                  c.event = handles->event;
                }
              }
              m_c.calls.push_back(std::move(c));
            });
  }

  struct Handles {
    int64_t stream = -1, event = -1;
  };

  struct Event {
    int64_t correlation = -1;
    int64_t category = 0;  // rocpd_string id
  };

  core::store::Database& m_db;
  const std::string& m_label;
  const bool m_lenient;
  std::string m_suffix;
  RocCapture m_c;
  std::unordered_map<int64_t, std::string> m_strings;
  std::unordered_map<int64_t, int64_t> m_threads;  // rocpd_info_thread id -> OS tid
  std::unordered_map<int64_t, std::string_view> m_kernels;  // display names (m_c.texts)
  RocpdIdTable<Event> m_events;
  RocpdIdTable<Handles> m_handles;  // by rocpd_event id
};

}  // namespace

std::optional<std::string> RocpdTableSuffix(core::store::Database& db) {
  auto s = db.Prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rocpd\\_string%' "
      "ESCAPE '\\' ORDER BY name LIMIT 1");
  if (!s.Step()) return std::nullopt;
  return s.ColumnText(0).substr(std::string_view("rocpd_string").size());
}

bool LooksLikeRocpd(core::store::Database& db) {
  MakeSqliteDefensive(db.handle());
  try {
    const auto suffix = RocpdTableSuffix(db);
    return suffix && (HasTable(db, "rocpd_kernel_dispatch" + *suffix) ||
                      HasTable(db, "rocpd_info_agent" + *suffix));
  } catch (const core::Error&) {
    return false;
  }
}

RocCapture ReadRocpd(core::store::Database& db, const std::string& label, bool lenient) {
  return Reader(db, label, lenient).Read();
}

}  // namespace importers::rocprof
