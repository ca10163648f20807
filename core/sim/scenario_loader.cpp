// TOML -> Scenario. Unknown keys are errors too, so a misspelt option never silently does nothing.
#include "core/sim/scenario_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "core/model/error.h"
#include "core/sim/preemption.h"

namespace fencescope::assets {
std::string_view scenarios(std::string_view relative_path);
std::vector<std::string_view> scenarios_list();
}  // namespace fencescope::assets

namespace core::sim {
namespace {

constexpr std::string_view kEmbeddedPrefix = "assets/scenarios/";
constexpr std::string_view kExtension = ".toml";

// Reads one TOML table, remembering which keys were read so the rest can be reported.
class TableReader {
 public:
  TableReader(const toml::table& table, const std::string& file, std::string where)
      : m_table(table), m_file(file), m_where(std::move(where)) {}

  [[noreturn]] void Fail(std::string_view key, const std::string& message) const {
    const toml::node* node = key.empty() ? nullptr : m_table.get(key);
    const auto line = node ? node->source().begin.line : m_table.source().begin.line;
    std::string place = m_file + ":" + std::to_string(line) + ": ";
    if (!key.empty()) place += "key '" + m_where + "." + std::string(key) + "': ";
    else place += "[" + m_where + "]: ";
    throw core::Error(place + message);
  }
  int line() const { return static_cast<int>(m_table.source().begin.line); }
  const std::string& where() const { return m_where; }
  const std::string& file() const { return m_file; }

  const toml::node* Get(std::string_view key) {
    m_used.insert(std::string(key));
    return m_table.get(key);
  }
  // The value of `key` (`fallback` when it is absent), of the TOML type `is_type` accepts;
  // `expected` is the failure otherwise.
  template <typename T>
  T Value(std::string_view key, T fallback, bool (toml::node::*is_type)() const noexcept,
          const char* expected) {
    const toml::node* n = Get(key);
    if (!n) return fallback;
    if (!(n->*is_type)()) Fail(key, expected);
    return *n->value<T>();
  }
  std::string String(std::string_view key, std::string fallback) {
    return Value(key, std::move(fallback), &toml::node::is_string, "expected a string");
  }
  std::string RequireString(std::string_view key) {
    if (!m_table.get(key)) Fail({}, "missing key '" + std::string(key) + "'");
    return String(key, {});
  }
  int64_t Int(std::string_view key, int64_t fallback) {
    return Value(key, fallback, &toml::node::is_integer, "expected an integer");
  }
  int64_t NonNegative(std::string_view key, int64_t fallback) {
    int64_t v = Int(key, fallback);
    if (v < 0) Fail(key, "must not be negative");
    return v;
  }
  // An integer in [lo, hi] (for values narrowed to 32 bits and counts).
  int64_t IntIn(std::string_view key, int64_t fallback, int64_t lo, int64_t hi) {
    const int64_t v = Int(key, fallback);
    if (v < lo || v > hi) {
      Fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    }
    return v;
  }
  // A finite number (TOML also has nan and inf).
  double Number(std::string_view key, double fallback) {
    const double v = Value(key, fallback, &toml::node::is_number, "expected a number");
    if (!std::isfinite(v)) Fail(key, "must be a finite number");
    return v;
  }
  // A time `value` in units of `ns_per_unit` nanoseconds, checked against kMaxDurationMs.
  DurationNs Nanoseconds(std::string_view key, double value, double ns_per_unit) {
    const double ns = value * ns_per_unit;
    if (ns > kMaxDurationMs * 1e6) {
      Fail(key, "too large (at most " + std::to_string(static_cast<int64_t>(kMaxDurationMs)) +
                    " ms)");
    }
    return static_cast<DurationNs>(ns + 0.5);
  }
  double Fraction(std::string_view key, double fallback) {
    double v = Number(key, fallback);
    if (v < 0 || v > 1) Fail(key, "must be between 0 and 1");
    return v;
  }
  bool Bool(std::string_view key, bool fallback) {
    return Value(key, fallback, &toml::node::is_boolean, "expected true or false");
  }
  // A time given in microseconds (integer or decimal) as nanoseconds.
  DurationNs Micros(std::string_view key, DurationNs fallback_ns) {
    if (!m_table.get(key)) {
      Get(key);
      return fallback_ns;
    }
    double us = Number(key, 0);
    if (us < 0) Fail(key, "must not be negative");
    return Nanoseconds(key, us, 1e3);
  }
  FrameExpr Expr(std::string_view key, FrameExpr fallback) {
    const toml::node* n = Get(key);
    if (!n) return fallback;
    if (n->is_integer()) return FrameExpr{0, *n->value<int64_t>(), 0};
    if (!n->is_string()) Fail(key, "expected an integer or a frame expression string");
    try {
      return ParseFrameExpr(*n->value<std::string>(), "value");
    } catch (const core::Error& e) {
      Fail(key, e.what());
    }
  }
  std::vector<std::string> StringList(std::string_view key) {
    std::vector<std::string> out;
    const toml::node* n = Get(key);
    if (!n) return out;
    if (n->is_string()) return {*n->value<std::string>()};
    const toml::array* a = n->as_array();
    if (!a) Fail(key, "expected a string or an array of strings");
    for (const auto& item : *a) {
      if (!item.is_string()) Fail(key, "expected an array of strings");
      out.push_back(*item.value<std::string>());
    }
    return out;
  }
  void CheckUnknownKeys() const {
    for (const auto& [key, node] : m_table) {
      if (!m_used.count(std::string(key.str()))) {
        throw core::Error(m_file + ":" + std::to_string(node.source().begin.line) + ": key '" +
                          m_where + "." + std::string(key.str()) + "': unknown key");
      }
    }
  }

 private:
  const toml::table& m_table;
  const std::string& m_file;
  std::string m_where;
  std::set<std::string> m_used;
};

template <typename T>
std::map<std::string, uint32_t> IndexByName(const std::vector<T>& items) {
  std::map<std::string, uint32_t> out;
  for (uint32_t i = 0; i < items.size(); ++i) out.emplace(items[i].name, i);
  return out;
}

uint32_t Resolve(TableReader& r, std::string_view key, const std::string& name,
                 const std::map<std::string, uint32_t>& index, std::string_view what) {
  auto it = index.find(name);
  if (it == index.end()) r.Fail(key, "no " + std::string(what) + " named '" + name + "'");
  return it->second;
}

uint32_t ResolveKey(TableReader& r, std::string_view key,
                    const std::map<std::string, uint32_t>& index, std::string_view what) {
  return Resolve(r, key, r.RequireString(key), index, what);
}

EngineType ParseEngineType(TableReader& r, std::string_view key, const std::string& text) {
  if (text == "3d") return EngineType::k3D;
  if (text == "compute") return EngineType::kCompute;
  if (text == "copy") return EngineType::kCopy;
  if (text == "video") return EngineType::kVideo;
  r.Fail(key, "unknown engine type '" + text + "' (3d, compute, copy, video)");
}

// Visits each table of an array of tables `key` in `root` (absent: none).
template <typename F>
void ForEachTable(TableReader& parent, const toml::table& root, std::string_view key, F&& f) {
  const toml::node* n = parent.Get(key);
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) parent.Fail(key, "expected an array of tables ([[" + std::string(key) + "]])");
  (void)root;
  size_t i = 0;
  for (const auto& item : *a) {
    const toml::table* t = item.as_table();
    if (!t) parent.Fail(key, "expected an array of tables ([[" + std::string(key) + "]])");
    std::string where = (parent.where().empty() ? "" : parent.where() + ".") + std::string(key) +
                        "[" + std::to_string(i++) + "]";
    TableReader r(*t, parent.file(), where);
    f(r);
    r.CheckUnknownKeys();
  }
}

PreemptionGranularity ReadGranularity(TableReader& r, std::string_view key, bool compute,
                                      PreemptionGranularity fallback) {
  const std::string text = r.String(key, "");
  if (text.empty()) return fallback;
  std::optional<PreemptionGranularity> g = ParsePreemptionGranularity(text, compute);
  if (!g) {
    r.Fail(key, "unknown granularity '" + text + "' (" +
                    std::string(compute ? "none, dma_buffer, dispatch, thread_group, thread, shader"
                                        : "none, dma_buffer, primitive, triangle, pixel, shader") +
                    ")");
  }
  return *g;
}

// seed 004: the adapter's preemption capabilities, costs and TDR timeout.
void ReadAdapterPreemption(TableReader& r, AdapterSpec& a) {
  a.preemption.graphics =
      ReadGranularity(r, "preemption_graphics", /*compute=*/false, a.preemption.graphics);
  a.preemption.compute =
      ReadGranularity(r, "preemption_compute", /*compute=*/true, a.preemption.compute);
  a.context_save_ns = r.Micros("context_save_us", a.context_save_ns);
  a.context_restore_ns = r.Micros("context_restore_us", a.context_restore_ns);
  if (r.Get("tdr_timeout_ms")) {
    const double ms = r.Number("tdr_timeout_ms", 0);
    if (ms <= 0) r.Fail("tdr_timeout_ms", "must be > 0");
    a.tdr_timeout_ns = r.Nanoseconds("tdr_timeout_ms", ms, 1e6);
  }
}

// seed 004: the structure of an execute step's packet and how it is submitted.
void ReadPacketShape(TableReader& r, Step& step) {
  auto count = [&r](std::string_view key, int64_t fallback) {
    const int64_t v = r.Int(key, fallback);
    if (v < 1) r.Fail(key, "must be at least 1");
    return v;
  };
  StepDetail& detail = step.detail.edit();
  PacketShape& shape = detail.shape;
  shape.primitives = count("primitives", shape.primitives);
  shape.triangles = count("triangles", shape.triangles);
  shape.pixels = count("pixels", shape.pixels);
  shape.dispatches = count("dispatches", shape.dispatches);
  shape.thread_groups = count("thread_groups", shape.thread_groups);
  shape.threads = count("threads", shape.threads);
  shape.instructions = count("instructions", shape.instructions);
  detail.split_packets = count("split_packets", 1);
  step.paging = r.Bool("paging", false);
  step.present = r.Bool("present", false);
}

void ReadAdapter(TableReader& r, Scenario& s) {
  AdapterSpec a;
  a.name = r.RequireString("name");
  a.native_fences = r.Bool("native_fences", a.native_fences);
  a.optimized_interrupts = r.Bool("optimized_interrupts", a.optimized_interrupts);
  a.interrupt_latency_ns = r.Micros("interrupt_latency_us", a.interrupt_latency_ns);
  a.held_wait_release_ns = r.Micros("held_wait_release_us", a.held_wait_release_ns);
  a.propagation_ns = r.Micros("propagation_us", a.propagation_ns);
  a.log_bytes = static_cast<uint32_t>(r.IntIn("log_bytes", a.log_bytes, 0, UINT32_MAX));
  a.log_max_bytes =
      static_cast<uint32_t>(r.IntIn("log_max_bytes", a.log_max_bytes, 0, UINT32_MAX));
  if (a.log_bytes < 256) r.Fail("log_bytes", "must be at least 256 (header plus entries)");
  if (a.log_max_bytes < a.log_bytes) a.log_max_bytes = a.log_bytes;
  a.grow_logs_when_tracing = r.Bool("grow_logs_when_tracing", a.grow_logs_when_tracing);
  a.os_log_read_ns = r.Micros("os_log_read_us", a.os_log_read_ns);
  a.null_hwqueue_chance = r.Fraction("null_hwqueue_chance", a.null_hwqueue_chance);
  a.zero_timestamp_chance = r.Fraction("zero_timestamp_chance", a.zero_timestamp_chance);
  ReadAdapterPreemption(r, a);
  s.adapters.push_back(std::move(a));
}

void ReadResourceUses(TableReader& r, std::string_view key, bool write,
                      const std::map<std::string, uint32_t>& resources, Step& step) {
  const toml::node* n = r.Get(key);
  if (!n) return;
  auto add = [&](const std::string& text) {
    // "name" or "name[slot expression]"
    ResourceUse use;
    use.write = write;
    std::string name = text;
    auto open = text.find('[');
    if (open != std::string::npos) {
      if (text.back() != ']') r.Fail(key, "expected 'name[slot]' in '" + text + "'");
      name = text.substr(0, open);
      try {
        use.slot = ParseFrameExpr(text.substr(open + 1, text.size() - open - 2), "slot");
      } catch (const core::Error& e) {
        r.Fail(key, e.what());
      }
    }
    use.resource = Resolve(r, key, name, resources, "resource");
    step.detail.edit().resources.push_back(use);
  };
  if (n->is_string()) {
    add(*n->value<std::string>());
    return;
  }
  const toml::array* a = n->as_array();
  if (!a) r.Fail(key, "expected a resource name or an array of them");
  for (const auto& item : *a) {
    if (!item.is_string()) r.Fail(key, "expected resource names");
    add(*item.value<std::string>());
  }
}

// A queue can only signal or wait on a fence opened on its own adapter.
void CheckFenceOpenedOnQueueAdapter(TableReader& r, const Scenario& s, uint32_t queue,
                                    uint32_t fence) {
  const uint32_t adapter = s.engines[s.queues[queue].engine].adapter;
  const FenceSpec& f = s.fences[fence];
  if (f.adapter == adapter ||
      std::find(f.opened_on.begin(), f.opened_on.end(), adapter) != f.opened_on.end()) {
    return;
  }
  r.Fail("fence", "fence '" + f.name + "' is not opened on adapter '" + s.adapters[adapter].name +
                      "' of queue '" + s.queues[queue].name +
                      "' (make it a cross_adapter fence opened there)");
}

// The value of E named `text` (by `name_of`, over E's first `count` values); else a failure at
// `key` that lists the names allowed.
template <typename E>
E ParseNamed(TableReader& r, std::string_view key, const std::string& text, int count,
             std::string_view (*name_of)(E)) {
  std::string allowed;
  for (int i = 0; i < count; ++i) {
    const auto value = static_cast<E>(i);
    if (name_of(value) == text) return value;
    allowed += (i ? ", " : "") + std::string(name_of(value));
  }
  r.Fail(key, "unknown " + std::string(key) + " '" + text + "' (" + allowed + ")");
}

void ReadStep(TableReader& r, Scenario& s, ThreadSpec& thread) {
  auto queues = IndexByName(s.queues);
  auto fences = IndexByName(s.fences);
  auto resources = IndexByName(s.resources);
  Step step;
  StepDetail& detail = step.detail.edit();
  detail.line = r.line();
  const std::string op = r.RequireString("op");
  detail.from_frame = r.Int("from_frame", 1);
  detail.every = r.Int("every", 1);
  if (detail.every < 1) r.Fail("every", "must be at least 1");
  const std::string name = r.String("name", "");
  step.name = NameStep(s, name);
  detail.jitter = r.Fraction("jitter", 0);
  if (op == "execute") {
    step.op = StepOp::kExecute;
    step.queue = ResolveKey(r, "queue", queues, "queue");
    step.duration_ns = r.Micros("duration_us", 0);
    if (step.duration_ns <= 0) r.Fail("duration_us", "an execute step needs duration_us > 0");
    if (name.empty()) step.name = NameStep(s, "CommandList");
    ReadResourceUses(r, "reads", false, resources, step);
    ReadResourceUses(r, "writes", true, resources, step);
    if (r.Get("pso")) {
      detail.pso = static_cast<int32_t>(ResolveKey(r, "pso", IndexByName(s.psos), "pso"));
    }
    detail.constants = r.Expr("constants", {});
    ReadPacketShape(r, step);
  } else if (op == "signal" || op == "wait") {
    step.op = op == "signal" ? StepOp::kSignal : StepOp::kWait;
    step.queue = ResolveKey(r, "queue", queues, "queue");
    step.fence = ResolveKey(r, "fence", fences, "fence");
    CheckFenceOpenedOnQueueAdapter(r, s, step.queue, step.fence);
    if (!r.Get("value")) r.Fail({}, "missing key 'value'");
    step.value = r.Expr("value", {});
  } else if (op == "cpu_signal") {
    step.op = StepOp::kCpuSignal;
    step.fence = ResolveKey(r, "fence", fences, "fence");
    if (!r.Get("value")) r.Fail({}, "missing key 'value'");
    step.value = r.Expr("value", {});
  } else if (op == "cpu_wait") {
    step.op = StepOp::kCpuWait;
    for (const auto& name : r.StringList("fences")) {
      detail.fences.push_back(Resolve(r, "fences", name, fences, "fence"));
    }
    if (r.Get("fence")) detail.fences.push_back(ResolveKey(r, "fence", fences, "fence"));
    if (detail.fences.empty()) r.Fail({}, "a cpu_wait step needs 'fence' or 'fences'");
    const toml::node* values = r.Get("values");
    if (values) {
      const toml::array* a = values->as_array();
      if (!a || a->size() != detail.fences.size()) {
        r.Fail("values", "expected one value per fence");
      }
      for (const auto& item : *a) {
        if (item.is_integer()) {
          detail.values.push_back(FrameExpr{0, *item.value<int64_t>(), 0});
        } else if (item.is_string()) {
          try {
            detail.values.push_back(ParseFrameExpr(*item.value<std::string>(), "values"));
          } catch (const core::Error& e) {
            r.Fail("values", e.what());
          }
        } else {
          r.Fail("values", "expected integers or frame expressions");
        }
      }
    } else {
      if (!r.Get("value")) r.Fail({}, "a cpu_wait step needs 'value' or 'values'");
      FrameExpr v = r.Expr("value", {});
      detail.values.assign(detail.fences.size(), v);
    }
    const std::string mode = r.String("mode", detail.fences.size() > 1 ? "all" : "single");
    if (mode == "single") step.mode = WaitMode::kSingle;
    else if (mode == "any") step.mode = WaitMode::kAny;
    else if (mode == "all") step.mode = WaitMode::kAll;
    else r.Fail("mode", "expected single, any or all");
    if (step.mode == WaitMode::kSingle && detail.fences.size() != 1) {
      r.Fail("mode", "a single wait takes one fence; use any or all");
    }
  } else if (op == "cpu_work") {
    step.op = StepOp::kCpuWork;
    step.duration_ns = r.Micros("duration_us", 0);
  } else if (op == "set_background_mode") {
    step.op = StepOp::kSetBackgroundMode;
    detail.background_mode =
        ParseNamed(r, "mode", r.String("mode", "allowed"), 4, core::model::BackgroundModeName);
    detail.action = ParseNamed(r, "action", r.String("action", "keep_all"), 4,
                               core::model::MeasurementsActionName);
    step.with_event = r.Bool("event", false);
    step.wait_event = r.Bool("wait_event", false);
    if (step.wait_event && !step.with_event) r.Fail("wait_event", "needs event = true");
    detail.stop_when_converged = r.Bool("stop_when_converged", false);
  } else if (op == "destroy_pso") {
    step.op = StepOp::kDestroyPso;
    detail.pso = static_cast<int32_t>(ResolveKey(r, "pso", IndexByName(s.psos), "pso"));
  } else if (op == "destroy_device") {
    step.op = StepOp::kDestroyDevice;
  } else {
    r.Fail("op", "unknown op '" + op + "' (execute, signal, wait, cpu_signal, cpu_wait, cpu_work, "
                 "set_background_mode, destroy_pso, destroy_device)");
  }
  thread.steps.push_back(std::move(step));
}

void ReadAsync(TableReader& r, const Scenario& s, AsyncPipelineSpec& a) {
  auto queues = IndexByName(s.queues);
  auto fences = IndexByName(s.fences);
  a.compute_queue = ResolveKey(r, "compute_queue", queues, "queue");
  a.graphics_queue = ResolveKey(r, "graphics_queue", queues, "queue");
  a.compute_fence = ResolveKey(r, "compute_fence", fences, "fence");
  a.graphics_fence = ResolveKey(r, "graphics_fence", fences, "fence");
  a.graphics_compute_fence = ResolveKey(r, "graphics_compute_fence", fences, "fence");
  for (uint32_t queue : {a.compute_queue, a.graphics_queue}) {
    for (uint32_t fence : {a.compute_fence, a.graphics_fence, a.graphics_compute_fence}) {
      CheckFenceOpenedOnQueueAdapter(r, s, queue, fence);
    }
  }
  a.cpu_latency = r.Int("cpu_latency", a.cpu_latency);
  a.compute_graphics_latency = r.Int("compute_graphics_latency", a.compute_graphics_latency);
  if (a.cpu_latency < 1) r.Fail("cpu_latency", "must be at least 1");
  if (a.compute_graphics_latency < 1) r.Fail("compute_graphics_latency", "must be at least 1");
  a.compute_ns = r.Micros("compute_us", 0);
  a.graphics_ns = r.Micros("graphics_us", 0);
  if (a.compute_ns <= 0) r.Fail("compute_us", "must be > 0");
  if (a.graphics_ns <= 0) r.Fail("graphics_us", "must be > 0");
  a.jitter = r.Fraction("jitter", 0);
  if (r.Get("buffer")) {
    a.buffer_resource = ResolveKey(r, "buffer", IndexByName(s.resources), "resource");
  }
}

void ReadThread(TableReader& r, Scenario& s) {
  ThreadSpec t;
  t.name = r.RequireString("name");
  const std::string program = r.String("program", "script");
  t.frames = r.Int("frames", 1);
  if (t.frames < 0) r.Fail("frames", "must not be negative");
  t.start_ns = r.Micros("start_us", 0);
  t.frame_period_ns = r.Micros("frame_period_us", 0);
  t.api_call_ns = r.Micros("api_call_us", t.api_call_ns);
  if (r.Get("start_after")) {
    auto threads = IndexByName(s.threads);  // only earlier threads: no cycles
    t.start_after = static_cast<int32_t>(ResolveKey(r, "start_after", threads, "earlier thread"));
  }
  if (t.frames == 0 && t.frame_period_ns == 0 && t.api_call_ns == 0) {
    // Endless frames that take no simulated time would never reach the time limit.
    r.Fail("frames", "frames = 0 (until the time limit) needs frame_period_us or api_call_us > 0");
  }
  if (program == "script") {
    t.program = ProgramKind::kScript;
    ForEachTable(r, {}, "step", [&](TableReader& sr) { ReadStep(sr, s, t); });
    if (t.steps.empty()) r.Fail({}, "a script thread needs [[thread.step]] entries");
  } else if (program == "async_compute_graphics") {
    t.program = ProgramKind::kAsyncComputeGraphics;
    const toml::node* n = r.Get("async");
    if (!n || !n->as_table()) r.Fail({}, "program async_compute_graphics needs [thread.async]");
    TableReader ar(*n->as_table(), r.file(), r.where() + ".async");
    ReadAsync(ar, s, t.async);
    ar.CheckUnknownKeys();
  } else {
    r.Fail("program", "unknown program '" + program + "' (script, async_compute_graphics)");
  }
  s.threads.push_back(std::move(t));
}

void CheckUnique(TableReader& r, const std::vector<std::string>& names, std::string_view what) {
  std::set<std::string> seen;
  for (const auto& n : names) {
    if (!seen.insert(n).second) r.Fail({}, "two " + std::string(what) + " named '" + n + "'");
  }
}

template <typename T>
std::vector<std::string> Names(const std::vector<T>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(i.name);
  return out;
}

Scenario ReadScenario(const toml::table& root, const std::string& file) {
  Scenario s;
  s.source = file;
  TableReader top(root, file, "");
  const toml::node* head = top.Get("scenario");
  if (!head || !head->as_table()) top.Fail({}, "missing the [scenario] table");
  {
    TableReader r(*head->as_table(), file, "scenario");
    s.name = r.RequireString("name");
    s.description = r.String("description", "");
    s.process_name = r.String("process", s.process_name);
    const double ms = r.Number("duration_ms", 100);
    if (ms <= 0) r.Fail("duration_ms", "must be > 0");
    s.duration_ns = r.Nanoseconds("duration_ms", ms, 1e6);
    const int64_t seed = r.Int("seed", 1);
    if (seed < 0) r.Fail("seed", "must not be negative");
    s.seed = static_cast<uint64_t>(seed);
    const std::string mode = r.String("fence_mode", "native");
    if (mode == "native") s.fence_mode = FenceMode::kNative;
    else if (mode == "monitored") s.fence_mode = FenceMode::kMonitored;
    else r.Fail("fence_mode", "expected native or monitored");
    r.CheckUnknownKeys();
  }
  ForEachTable(top, root, "adapter", [&](TableReader& r) { ReadAdapter(r, s); });
  if (s.adapters.empty()) top.Fail({}, "a scenario needs at least one [[adapter]]");
  CheckUnique(top, Names(s.adapters), "adapters");
  auto adapters = IndexByName(s.adapters);
  ForEachTable(top, root, "engine", [&](TableReader& r) {
    EngineSpec e;
    e.name = r.RequireString("name");
    e.adapter = ResolveKey(r, "adapter", adapters, "adapter");
    e.type = ParseEngineType(r, "type", r.RequireString("type"));
    s.engines.push_back(std::move(e));
  });
  CheckUnique(top, Names(s.engines), "engines");
  auto engines = IndexByName(s.engines);
  ForEachTable(top, root, "queue", [&](TableReader& r) {
    QueueSpec q;
    q.name = r.RequireString("name");
    q.engine = ResolveKey(r, "engine", engines, "engine");
    q.type = QueueTypeOf(s.engines[q.engine].type);
    q.priority = static_cast<int32_t>(r.IntIn("priority", 0, INT32_MIN, INT32_MAX));
    q.launch_latency_ns = r.Micros("launch_latency_us", 0);
    q.resume_ns = r.Micros("resume_us", 0);
    s.queues.push_back(std::move(q));
  });
  if (s.queues.empty()) top.Fail({}, "a scenario needs at least one [[queue]]");
  CheckUnique(top, Names(s.queues), "queues");
  ForEachTable(top, root, "fence", [&](TableReader& r) {
    FenceSpec f;
    f.name = r.RequireString("name");
    f.adapter = ResolveKey(r, "adapter", adapters, "adapter");
    const std::string kind = r.String("kind", "native");
    if (kind == "native") f.kind = FenceKind::kNative;
    else if (kind == "monitored") f.kind = FenceKind::kMonitored;
    else if (kind == "cross_adapter") f.kind = FenceKind::kCrossAdapter;
    else r.Fail("kind", "expected native, monitored or cross_adapter");
    for (const auto& name : r.StringList("opened_on")) {
      uint32_t a = Resolve(r, "opened_on", name, adapters, "adapter");
      if (a != f.adapter) f.opened_on.push_back(a);
    }
    if (!f.opened_on.empty() && f.kind != FenceKind::kCrossAdapter) {
      r.Fail("opened_on", "only a cross_adapter fence is opened on other adapters");
    }
    f.initial_value = static_cast<uint64_t>(r.NonNegative("initial_value", 0));
    s.fences.push_back(std::move(f));
  });
  CheckUnique(top, Names(s.fences), "fences");
  ForEachTable(top, root, "resource", [&](TableReader& r) {
    ResourceSpec res;
    res.name = r.RequireString("name");
    res.size_bytes = r.NonNegative("size_bytes", 65536);
    res.slots = r.Int("slots", 1);
    if (res.slots < 1) r.Fail("slots", "must be at least 1");
    s.resources.push_back(std::move(res));
  });
  CheckUnique(top, Names(s.resources), "resources");
  if (const toml::node* bg = top.Get("background")) {
    if (!bg->as_table()) top.Fail("background", "expected a table [background]");
    TableReader r(*bg->as_table(), file, "background");
    BackgroundSpec& b = s.background;
    b.supported = r.Bool("supported", b.supported);
    b.developer_mode = r.Bool("developer_mode", b.developer_mode);
    b.threads = static_cast<int32_t>(r.IntIn("threads", b.threads, 0, INT32_MAX));
    b.max_tasks = static_cast<int32_t>(r.IntIn("max_tasks", b.max_tasks, 0, INT32_MAX));
    b.high_priority_tasks = static_cast<int32_t>(
        r.IntIn("high_priority_tasks", b.high_priority_tasks, 0, INT32_MAX));
    if (b.max_tasks < 1) r.Fail("max_tasks", "must be at least 1");
    if (b.high_priority_tasks < b.max_tasks) r.Fail("high_priority_tasks", "must be >= max_tasks");
    if (b.threads < b.high_priority_tasks) r.Fail("threads", "must be >= high_priority_tasks");
    b.threshold = r.Int("threshold", b.threshold);
    b.intrusive_threshold = r.Int("intrusive_threshold", b.intrusive_threshold);
    if (b.threshold < 1) r.Fail("threshold", "must be at least 1");
    if (b.intrusive_threshold < 1) r.Fail("intrusive_threshold", "must be at least 1");
    b.intrusive_overhead = r.Number("intrusive_overhead", b.intrusive_overhead);
    if (b.intrusive_overhead < 0) r.Fail("intrusive_overhead", "must not be negative");
    b.compile_ns = r.Micros("compile_us", b.compile_ns);
    if (b.compile_ns <= 0) r.Fail("compile_us", "must be > 0");
    b.compile_jitter = r.Fraction("compile_jitter", b.compile_jitter);
    b.interference = r.Number("interference", b.interference);
    if (b.interference < 1) r.Fail("interference", "must be at least 1 (a slowdown factor)");
    r.CheckUnknownKeys();
  }
  ForEachTable(top, root, "pso", [&](TableReader& r) {
    PsoSpec p;
    p.name = r.RequireString("name");
    p.shaders = static_cast<uint32_t>(r.IntIn("shaders", 1, 0, UINT32_MAX));
    p.levels = static_cast<int32_t>(r.IntIn("levels", p.levels, 0, INT32_MAX));
    if (p.levels < 0) r.Fail("levels", "must not be negative");
    p.speedup = r.Number("speedup", p.speedup);
    if (p.speedup <= 0 || p.speedup > 1) r.Fail("speedup", "must be in (0, 1]");
    s.psos.push_back(std::move(p));
  });
  CheckUnique(top, Names(s.psos), "psos");
  ForEachTable(top, root, "thread", [&](TableReader& r) { ReadThread(r, s); });
  CheckUnique(top, Names(s.threads), "threads");
  top.CheckUnknownKeys();
  return s;
}

}  // namespace

std::string_view FenceModeName(FenceMode mode) {
  return mode == FenceMode::kNative ? "native" : "monitored";
}

Scenario ParseScenario(std::string_view text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw core::Error(source_name + ":" + std::to_string(e.source().begin.line) + ":" +
                      std::to_string(e.source().begin.column) + ": " +
                      std::string(e.description()));
  }
  return ReadScenario(root, source_name);
}

std::vector<std::string> EmbeddedScenarioNames() {
  std::vector<std::string> names;
  for (std::string_view path : fencescope::assets::scenarios_list()) {
    if (path.substr(0, kEmbeddedPrefix.size()) != kEmbeddedPrefix) continue;
    std::string_view file = path.substr(kEmbeddedPrefix.size());
    if (file.size() > kExtension.size() &&
        file.substr(file.size() - kExtension.size()) == kExtension) {
      names.emplace_back(file.substr(0, file.size() - kExtension.size()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Scenario LoadScenario(const std::string& path_or_name) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path_or_name, ec)) {
    std::ifstream in(path_or_name, std::ios::binary);
    if (!in) throw core::Error(path_or_name + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return ParseScenario(text.str(), path_or_name);
  }
  std::string embedded = std::string(kEmbeddedPrefix) + path_or_name + std::string(kExtension);
  std::string_view text = fencescope::assets::scenarios(embedded);
  if (!text.empty()) return ParseScenario(text, path_or_name + ".toml");
  std::string list;
  for (const auto& n : EmbeddedScenarioNames()) list += (list.empty() ? "" : ", ") + n;
  throw core::Error(path_or_name + ": no such file and no embedded scenario of that name "
                    "(embedded: " + list + ")");
}

}  // namespace core::sim
