#include "importers/rocprof/rocprof_json_reader.h"

#include <simdjson.h>

#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/rocprof/rocprof_names.h"

namespace importers::rocprof {
namespace {

namespace dom = simdjson::dom;

// A record the reader cannot use: says where it is and what is wrong with it.
struct BadRecord {
  std::string what;
};

// A whole number, signed or not (handles are unsigned 64-bit in the SDK).
bool AsInt(dom::element e, int64_t& out) {
  int64_t i = 0;
  if (e.get_int64().get(i) == simdjson::SUCCESS) {
    out = i;
    return true;
  }
  uint64_t u = 0;
  if (e.get_uint64().get(u) == simdjson::SUCCESS) {
    out = static_cast<int64_t>(u);
    return true;
  }
  return false;
}

int64_t Int(dom::object o, std::string_view key) {
  dom::element e;
  int64_t v = 0;
  if (o[key].get(e) != simdjson::SUCCESS || !AsInt(e, v)) {
    throw BadRecord{fmt::format("no whole number '{}'", key)};
  }
  return v;
}

int64_t IntOr(dom::object o, std::string_view key, int64_t fallback) {
  dom::element e;
  int64_t v = 0;
  return o[key].get(e) == simdjson::SUCCESS && AsInt(e, v) ? v : fallback;
}

// `{"handle": N}` under `key`.
int64_t Handle(dom::object o, std::string_view key) {
  dom::object h;
  if (o[key].get(h) != simdjson::SUCCESS) throw BadRecord{fmt::format("no '{}' object", key)};
  try {
    return Int(h, "handle");
  } catch (const BadRecord&) {
    throw BadRecord{fmt::format("no whole number '{}.handle'", key)};
  }
}

int64_t HandleOr(dom::object o, std::string_view key, int64_t fallback) {
  dom::object h;
  if (o[key].get(h) != simdjson::SUCCESS) return fallback;
  return IntOr(h, "handle", fallback);
}

std::string Text(dom::object o, std::string_view key) {
  std::string_view s;
  return o[key].get(s) == simdjson::SUCCESS ? std::string(s) : std::string();
}

Dim3 DimOf(dom::object o, std::string_view key) {
  dom::object d;
  if (o[key].get(d) != simdjson::SUCCESS) return {};
  return {IntOr(d, "x", 0), IntOr(d, "y", 0), IntOr(d, "z", 0)};
}

struct Times {
  int64_t start = 0, end = 0;
};

Times TimesOf(dom::object o) {
  Times t{Int(o, "start_timestamp"), Int(o, "end_timestamp")};
  if (t.end < t.start) {
    throw BadRecord{fmt::format("ends ({}) before it starts ({})", t.end, t.start)};
  }
  return t;
}

void CorrelationOf(dom::object o, int64_t& internal, int64_t& external) {
  dom::object c;
  if (o["correlation_id"].get(c) != simdjson::SUCCESS) return;
  internal = IntOr(c, "internal", -1);
  external = IntOr(c, "external", 0);
}

class Reader {
 public:
  Reader(const std::string& label, bool lenient) : m_label(label), m_lenient(lenient) {}

  RocCapture Read(std::string_view bytes) {
    dom::parser parser;
    dom::element doc;
    const simdjson::padded_string_view view(bytes.data(), bytes.size(), bytes.size() + 64);
    if (auto error = parser.parse(view).get(doc)) {
      throw core::Error(fmt::format("{}: not valid JSON: {}", m_label,
                                    simdjson::error_message(error)));
    }
    dom::array tools;
    if (doc["rocprofiler-sdk-tool"].get(tools) != simdjson::SUCCESS) {
      throw core::Error(fmt::format(
          "{}: not rocprofv3 JSON: the top-level object has no 'rocprofiler-sdk-tool' array",
          m_label));
    }
    m_c.format = "rocprofv3-json";
    size_t index = 0;
    for (dom::element tool : tools) {
      dom::object o;
      const std::string where = fmt::format("rocprofiler-sdk-tool[{}]", index++);
      if (tool.get(o) != simdjson::SUCCESS) {
        throw core::Error(fmt::format("{}: {}: not an object", m_label, where));
      }
      ReadTool(o, where);
    }
    return std::move(m_c);
  }

 private:
  void ReadTool(dom::object tool, const std::string& where) {
    ReadMetadata(tool);
    ReadAgents(tool, where);
    ReadStrings(tool);
    ReadKernelSymbols(tool);
    dom::object records;
    if (tool["buffer_records"].get(records) != simdjson::SUCCESS) {
      throw core::Error(fmt::format("{}: {}: no 'buffer_records' object", m_label, where));
    }
    const std::string base = where == "rocprofiler-sdk-tool[0]" ? "" : where + ".";
    Each(records, "kernel_dispatch", base, [&](dom::object r) { ReadDispatch(r); });
    Each(records, "memory_copy", base, [&](dom::object r) { ReadCopy(r); });
    Each(records, "hip_api", base, [&](dom::object r) { ReadCall(r, CallDomain::kHip); });
    Each(records, "hsa_api", base, [&](dom::object r) { ReadCall(r, CallDomain::kHsa); });
    Each(records, "marker_api", base, [&](dom::object r) { ReadCall(r, CallDomain::kMarker); });
  }

  // Calls `read` on each record of buffer_records[key], naming the record in its errors.
  template <typename F>
  void Each(dom::object records, std::string_view key, const std::string& base, F&& read) {
    dom::array list;
    if (records[key].get(list) != simdjson::SUCCESS) return;
    size_t i = 0;
    for (dom::element e : list) {
      m_place = fmt::format("{}buffer_records.{}[{}]", base, key, i++);
      try {
        dom::object o;
        if (e.get(o) != simdjson::SUCCESS) throw BadRecord{"not an object"};
        read(o);
      } catch (const BadRecord& bad) {
        if (!m_lenient) throw core::Error(fmt::format("{}: {}: {}", m_label, m_place, bad.what));
        if (m_c.skipped++ == 0) m_c.first_skipped = fmt::format("{}: {}", m_place, bad.what);
      }
    }
  }

  void ReadMetadata(dom::object tool) {
    dom::object meta;
    if (tool["metadata"].get(meta) != simdjson::SUCCESS) return;
    m_c.pid = IntOr(meta, "pid", m_c.pid);
    dom::object node;
    if (meta["node"].get(node) == simdjson::SUCCESS) m_c.hostname = Text(node, "hostname");
    dom::array command;
    if (meta["command"].get(command) == simdjson::SUCCESS) {
      std::string line;
      for (dom::element arg : command) {
        std::string_view s;
        if (arg.get(s) != simdjson::SUCCESS) continue;
        if (!line.empty()) line += ' ';
        line += s;
      }
      if (!line.empty()) m_c.meta["rocprof_command"] = line;
      std::string_view first;
      if (command.at(0).get(first) == simdjson::SUCCESS) {
        const size_t slash = first.rfind('/');
        m_c.process_name = std::string(slash == first.npos ? first : first.substr(slash + 1));
      }
    }
    if (!m_c.hostname.empty()) m_c.meta["rocprof_hostname"] = m_c.hostname;
  }

  void ReadAgents(dom::object tool, const std::string& where) {
    dom::array agents;
    if (tool["agents"].get(agents) != simdjson::SUCCESS) return;
    size_t i = 0;
    for (dom::element e : agents) {
      dom::object a;
      const std::string place = fmt::format("{}.agents[{}]", where, i++);
      int64_t handle = 0;
      try {
        if (e.get(a) != simdjson::SUCCESS) throw BadRecord{"not an object"};
        handle = Handle(a, "id");
      } catch (const BadRecord& bad) {
        throw core::Error(fmt::format("{}: {}: {}", m_label, place, bad.what));
      }
      RocAgent agent;
      agent.handle = handle;
      agent.gpu = IntOr(a, "type", 0) == 2;  // HSA_DEVICE_TYPE_GPU
      agent.product = Text(a, "product_name");
      agent.gfx = Text(a, "name");
      agent.node_id = IntOr(a, "logical_node_id", IntOr(a, "node_id", -1));
      m_c.agents[handle] = agent;
    }
  }

  // strings.buffer_records: per record kind (its index is the kind's number) the names of its
  // operations; strings.marker_api: the roctx texts by correlation id.
  void ReadStrings(dom::object tool) {
    dom::object strings;
    if (tool["strings"].get(strings) != simdjson::SUCCESS) return;
    dom::array kinds;
    if (strings["buffer_records"].get(kinds) == simdjson::SUCCESS) {
      m_kinds.clear();
      for (dom::element k : kinds) {
        Kind kind;
        dom::object o;
        if (k.get(o) == simdjson::SUCCESS) {
          kind.name = Text(o, "kind");
          dom::array ops;
          if (o["operations"].get(ops) == simdjson::SUCCESS) {
            for (dom::element op : ops) {
              std::string_view s;
              kind.operations.emplace_back(op.get(s) == simdjson::SUCCESS ? s : "");
            }
          }
        }
        m_kinds.push_back(std::move(kind));
      }
    }
    dom::array markers;
    if (strings["marker_api"].get(markers) == simdjson::SUCCESS) {
      for (dom::element m : markers) {
        dom::object o;
        if (m.get(o) != simdjson::SUCCESS) continue;
        m_marker_texts[IntOr(o, "key", -1)] = Text(o, "value");
      }
    }
  }

  void ReadKernelSymbols(dom::object tool) {
    dom::array symbols;
    if (tool["kernel_symbols"].get(symbols) != simdjson::SUCCESS) return;
    for (dom::element e : symbols) {
      dom::object o;
      if (e.get(o) != simdjson::SUCCESS) continue;
      std::string name = Text(o, "demangled_kernel_name");
      if (name.empty()) name = Text(o, "formatted_kernel_name");
      if (name.empty()) name = Text(o, "kernel_name");
      m_kernel_names[IntOr(o, "kernel_id", -1)] = KernelDisplayName(name);
    }
  }

  const RocAgent& AgentOf(int64_t handle, std::string_view role) {
    auto it = m_c.agents.find(handle);
    if (it == m_c.agents.end()) {
      throw BadRecord{fmt::format("{} {} is not among the file's agents", role, handle)};
    }
    return it->second;
  }

  std::string OperationName(dom::object r) {
    const int64_t kind = IntOr(r, "kind", -1), op = IntOr(r, "operation", -1);
    if (kind >= 0 && static_cast<size_t>(kind) < m_kinds.size() && op >= 0 &&
        static_cast<size_t>(op) < m_kinds[kind].operations.size()) {
      return m_kinds[kind].operations[op];
    }
    return fmt::format("operation {} of kind {}", op, kind);
  }

  void ReadDispatch(dom::object r) {
    RocDispatch d;
    const Times t = TimesOf(r);
    d.start = t.start;
    d.end = t.end;
    dom::object info;
    if (r["dispatch_info"].get(info) != simdjson::SUCCESS) {
      throw BadRecord{"no 'dispatch_info' object"};
    }
    d.agent = Handle(info, "agent_id");
    if (!AgentOf(d.agent, "agent").gpu) {
      throw BadRecord{fmt::format("agent {} is not a GPU", d.agent)};
    }
    d.queue = Handle(info, "queue_id");
    d.stream = HandleOr(r, "stream_id", -1);
    d.thread = IntOr(r, "thread_id", -1);
    CorrelationOf(r, d.correlation, d.external);
    d.dispatch_id = IntOr(info, "dispatch_id", -1);
    const int64_t kernel = IntOr(info, "kernel_id", -1);
    auto name = m_kernel_names.find(kernel);
    d.name = m_c.texts.Keep(name != m_kernel_names.end() && !name->second.empty()
                                ? name->second
                                : fmt::format("kernel {}", kernel));
    d.grid = DimOf(info, "grid_size");
    d.workgroup = DimOf(info, "workgroup_size");
    m_c.dispatches.push_back(std::move(d));
  }

  void ReadCopy(dom::object r) {
    RocCopy c;
    const Times t = TimesOf(r);
    c.start = t.start;
    c.end = t.end;
    c.src_agent = Handle(r, "src_agent_id");
    c.dst_agent = Handle(r, "dst_agent_id");
    const bool src_gpu = AgentOf(c.src_agent, "source agent").gpu;
    const bool dst_gpu = AgentOf(c.dst_agent, "destination agent").gpu;
    c.bytes = IntOr(r, "bytes", 0);
    c.direction = CopyDirection(OperationName(r), src_gpu, dst_gpu);
    c.stream = HandleOr(r, "stream_id", -1);
    c.thread = IntOr(r, "thread_id", -1);
    CorrelationOf(r, c.correlation, c.external);
    m_c.copies.push_back(std::move(c));
  }

  void ReadCall(dom::object r, CallDomain domain) {
    RocCall c;
    const Times t = TimesOf(r);
    c.start = t.start;
    c.end = t.end;
    c.thread = Int(r, "thread_id");
    c.domain = domain;
    CorrelationOf(r, c.correlation, c.external);
    c.name = m_c.texts.Keep(OperationName(r));
    if (domain == CallDomain::kMarker) {
      auto text = m_marker_texts.find(c.correlation);
      if (text != m_marker_texts.end()) c.message = m_c.texts.Keep(text->second);
    }
    m_c.calls.push_back(std::move(c));
  }

  struct Kind {
    std::string name;
    std::vector<std::string> operations;
  };

  const std::string& m_label;
  const bool m_lenient;
  RocCapture m_c;
  std::vector<Kind> m_kinds;
  std::unordered_map<int64_t, std::string> m_kernel_names;
  std::unordered_map<int64_t, std::string> m_marker_texts;
  std::string m_place;
};

}  // namespace

bool LooksLikeRocprofJson(std::string_view prefix) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\n' || prefix[i] == '\r' ||
                                 prefix[i] == '\t')) {
      ++i;
    }
  };
  if (prefix.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  skip_space();
  if (i >= prefix.size() || prefix[i] != '{') return false;
  ++i;
  skip_space();
  return prefix.substr(i, 22) == "\"rocprofiler-sdk-tool\"";
}

RocCapture ReadRocprofJson(std::string_view bytes, const std::string& label, bool lenient) {
  return Reader(label, lenient).Read(bytes);
}

}  // namespace importers::rocprof
