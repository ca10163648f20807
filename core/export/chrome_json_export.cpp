#include "core/export/chrome_json_export.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>

#include "core/analysis/reconstruction.h"
#include "core/export/export_topology.h"
#include "core/model/event_types.h"
#include "core/report/json.h"
#include "core/store/output_file.h"
#include "core/store/trace_store.h"

namespace core::exporting {
namespace {

using core::model::EventKind;
using core::model::TimeNs;
using core::store::TraceStore;
namespace events = core::model::events;

// Track ids in the exported file: threads keep (process id, thread id); queues go into one
// "process" per adapter, offset so they never collide with CPU processes.
constexpr int64_t kAdapterPidBase = 1'000'000;

void AppendEscaped(std::string& out, std::string_view text) {
  out.push_back('"');
  out += core::report::JsonEscape(text);
  out.push_back('"');
}

// ns -> µs with three decimals, exactly.
std::string Micros(int64_t ns) {
  const char* sign = ns < 0 ? "-" : "";
  const uint64_t a = ns < 0 ? static_cast<uint64_t>(-ns) : static_cast<uint64_t>(ns);
  return fmt::format("{}{}.{:03d}", sign, a / 1000, a % 1000);
}

using analysis::kNoIndex;
using analysis::kUnknownTime;

// The indices of `table`'s rows ordered by operation id (`id_of`; ties keep table order): each
// kind of box is listed in the file by its id.
template <typename Table, typename IdOf>
std::vector<uint32_t> ByOpId(const Table& table, const IdOf& id_of) {
  std::vector<int64_t> ids(table.size());
  for (uint32_t i = 0; i < table.size(); ++i) ids[i] = id_of(table[i]);
  std::vector<uint32_t> order(table.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return ids[a] < ids[b]; });
  return order;
}

class Exporter {
 public:
  Exporter(const TraceStore& store, const analysis::Reconstruction& boxes)
      : m_store(store), m_boxes(boxes) {}

  std::string Run(uint64_t* count, const std::function<void(double)>& progress) {
    m_out.reserve(1 << 20);
    // fencescopeExport tells the importer that "fence" flows mirror the waits' signal_id args;
    // fencescopeTopology gives it back the trace's topology and span (export_topology.h).
    m_out += "{\"displayTimeUnit\":\"ns\",\"fencescopeExport\":1,\"fencescopeTopology\":";
    m_out += ExportTopologyJson(
        m_store, [](const core::store::Process& p) { return int64_t{p.id}; },
        [this](const core::store::Queue& q) { return ExportTrack{QueuePid(q.id), q.id}; },
        [this](const core::store::Thread& t) {
          const auto [pid, tid] = ThreadTrack(t.id);
          return ExportTrack{pid, tid};
        });
    m_out += ",\n\"traceEvents\":[\n";
    WriteTracks();
    if (progress) progress(0.3);
    WriteSlices();
    WriteBoxes();
    WriteTasks();
    WriteArrows();
    WriteFlows();
    WriteCounters();
    if (progress) progress(0.9);
    if (m_events > 0) m_out.resize(m_out.size() - 2);  // the last ",\n"
    m_out += "\n]}\n";
    *count = m_events;
    return std::move(m_out);
  }

 private:
  const std::string& Str(int64_t sid) const {
    return m_store.String(static_cast<core::model::StringId>(sid));
  }

  // Opens one event object with the common fields; the caller adds fields and calls Close().
  void Open(char ph, std::string_view name, std::string_view cat, int64_t pid, int64_t tid,
            int64_t ts) {
    m_out += "{\"ph\":\"";
    m_out.push_back(ph);
    m_out += "\",\"name\":";
    AppendEscaped(m_out, name);
    if (!cat.empty()) {
      m_out += ",\"cat\":";
      AppendEscaped(m_out, cat);
    }
    m_out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":{}", pid, tid, Micros(ts));
  }
  void Close() {
    m_out += "},\n";
    ++m_events;
  }

  int64_t QueuePid(uint32_t queue) const {
    const auto* q = m_store.FindQueue(queue);
    return kAdapterPidBase + (q ? q->adapter : 0);
  }
  // (pid, tid) of a thread or queue track.
  std::pair<int64_t, int64_t> ThreadTrack(uint32_t thread) const {
    const auto* t = m_store.FindThread(thread);
    return {t ? t->process : 0, thread};
  }

  void Metadata(std::string_view what, int64_t pid, int64_t tid, std::string_view key,
                const std::string& value_json) {
    m_out += "{\"ph\":\"M\",\"name\":";
    AppendEscaped(m_out, what);
    m_out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":0,\"args\":{{\"{}\":{}}}", pid, tid, key,
                         value_json);
    Close();
  }
  std::string Quoted(std::string_view text) {
    std::string s;
    AppendEscaped(s, text);
    return s;
  }

  void WriteTracks() {
    for (const auto& p : m_store.processes) {
      Metadata("process_name", p.id, 0, "name", Quoted(p.name));
    }
    for (const auto& t : m_store.threads) {
      Metadata("thread_name", t.process, t.id, "name", Quoted(t.name));
      Metadata("thread_sort_index", t.process, t.id, "sort_index", std::to_string(t.sort_index));
    }
    // One device "process" per adapter (0: queues without one), labelled "GPU n" like Kineto's
    // devices so the importer reads its tracks back as queues.
    std::map<uint32_t, bool> adapters;
    for (const auto& q : m_store.queues) adapters[q.adapter] = true;
    for (const auto& [adapter, unused] : adapters) {
      const auto* a = m_store.FindAdapter(adapter);
      const int64_t pid = kAdapterPidBase + adapter;
      Metadata("process_name", pid, 0, "name", Quoted(a ? a->name : "GPU"));
      Metadata("process_labels", pid, 0, "labels", Quoted(fmt::format("GPU {}", adapter)));
      Metadata("process_sort_index", pid, 0, "sort_index", std::to_string(pid));
    }
    for (const auto& q : m_store.queues) {
      Metadata("thread_name", QueuePid(q.id), q.id, "name", Quoted(q.name));
      Metadata("thread_sort_index", QueuePid(q.id), q.id, "sort_index",
               std::to_string(q.sort_index));
    }
  }

  // An instant or a marker, on its queue or else its thread.
  void WriteInstant(int64_t ts, uint32_t queue, uint32_t thread, std::string_view name,
                    std::string_view cat, uint32_t scope) {
    auto [pid, tid] =
        queue != 0 ? std::make_pair(QueuePid(queue), int64_t{queue}) : ThreadTrack(thread);
    Open('i', name, cat, pid, tid, ts);
    m_out += fmt::format(",\"s\":\"{}\"", scope == 2 ? "g" : scope == 1 ? "p" : "t");
    Close();
  }

  void WriteSlices() {
    const auto& ev = m_store.events;
    const int64_t trace_end = m_store.end_ns();
    for (uint32_t i = 0; i < ev.size(); ++i) {
      switch (ev.kind[i]) {
        case EventKind::CpuSlice: {
          const auto e = events::CpuSlice::At(ev, i);
          auto [pid, tid] = ThreadTrack(e.thread_id);
          Open('X', Str(e.name_sid), Str(e.category_sid), pid, tid, e.ts_ns);
          m_out += fmt::format(",\"dur\":{}", Micros(e.duration_ns));
          Close();
          break;
        }
        case EventKind::Instant: {
          const auto e = events::Instant::At(ev, i);
          WriteInstant(e.ts_ns, e.queue_id, e.thread_id, Str(e.name_sid), Str(e.category_sid),
                       e.scope);
          break;
        }
        case EventKind::Marker: {
          const auto e = events::Marker::At(ev, i);
          WriteInstant(e.ts_ns, e.queue_id, e.thread_id, Str(e.name_sid), "marker", 0);
          break;
        }
        case EventKind::Interrupt: {
          const auto e = events::Interrupt::At(ev, i);
          const bool on_queue = e.queue_id != 0;
          const int64_t pid = on_queue ? QueuePid(e.queue_id) : kAdapterPidBase + e.adapter_id;
          Open('i', "interrupt", "interrupt", pid, on_queue ? e.queue_id : 0, e.ts_ns);
          m_out += fmt::format(
              ",\"s\":\"{}\",\"args\":{{\"fence\":{},\"value\":{},"
              "\"signal_id\":{},\"waiters_released\":{}}}",
              on_queue ? "t" : "p", e.fence_id, e.fence_value, e.signal_id, e.waiters_released);
          Close();
          break;
        }
        case EventKind::AsyncSlice: {
          const auto e = events::AsyncSlice::At(ev, i);
          auto [pid, tid] = ThreadTrack(e.thread_id);
          const std::string id = fmt::format(",\"id\":\"{}\"", e.async_id);
          Open('b', Str(e.name_sid), Str(e.category_sid), pid, tid, e.ts_ns);
          m_out += id;
          Close();
          const int64_t end =
              std::min<int64_t>(e.ts_ns + e.duration_ns, std::max(trace_end, e.ts_ns));
          Open('e', Str(e.name_sid), Str(e.category_sid), pid, tid, end);
          m_out += id;
          Close();
          break;
        }
        default:
          break;
      }
    }
  }

  std::string FenceName(uint32_t fence) const {
    const auto* f = m_store.FindFence(fence);
    return f && !f->name.empty() ? f->name : fmt::format("fence {}", fence);
  }

  // Where a box of a queue (GPU) or of a thread (CPU) is drawn.
  std::pair<int64_t, int64_t> Track(bool cpu, uint32_t queue, uint32_t thread) const {
    return cpu ? ThreadTrack(thread) : std::make_pair(QueuePid(queue), int64_t{queue});
  }

  // ",\"dur\":..." of a box from `begin` to `end`, drawn to the trace's end when never ended.
  std::string Duration(TimeNs begin, TimeNs end) const {
    const TimeNs until = end == kUnknownTime ? m_store.end_ns() : end;
    return fmt::format(",\"dur\":{}", Micros(std::max<int64_t>(0, until - begin)));
  }
  static const char* OpenMark(TimeNs end) { return end == kUnknownTime ? ",\"open\":1" : ""; }

  // Boxes the trace never ended are drawn to its end and marked "open":1 (a packet never
  // started: a zero-length box at its submit time, "not_started":1), so that the importer
  // recreates only the records that existed.
  void WriteBoxes() {
    WritePackets();
    const auto& signals = m_boxes.signals;
    for (uint32_t s : ByOpId(signals, [](const auto& b) { return b.signal_id; })) {
      const analysis::SignalBox b = signals[s];
      const TimeNs begin = SignalBegin(b);
      auto [pid, tid] = Track(b.cpu, b.queue, b.thread);
      Open('X', FenceName(b.fence), "fence_signal", pid, tid, begin);
      m_out += Duration(begin, b.executed);
      m_out += fmt::format(",\"args\":{{\"fence\":{},\"value\":{},\"signal_id\":{}{}}}", b.fence,
                           b.value, b.signal_id, OpenMark(b.executed));
      Close();
    }
    const auto& waits = m_boxes.waits;
    for (uint32_t w : ByOpId(waits, [](const auto& b) { return b.wait_id; })) {
      const analysis::WaitBox b = waits[w];
      const TimeNs begin = WaitBegin(b);
      if (begin == kUnknownTime) continue;  // only a wait_pending_at_end record
      Open('X', FenceName(b.fence), "fence_wait", QueuePid(b.queue), b.queue, begin);
      m_out += Duration(begin, b.unblocked);
      m_out += fmt::format(",\"args\":{{\"fence\":{},\"value\":{},\"wait_id\":{},"
                           "\"signal_id\":{}{}}}",
                           b.fence, b.value, b.wait_id, ReleasingSignalId(b),
                           OpenMark(b.unblocked));
      Close();
    }
    const auto& cpu_waits = m_boxes.cpu_waits;
    for (uint32_t w : ByOpId(cpu_waits, [](const auto& b) { return b.waiter_id; })) {
      const analysis::CpuWait b = cpu_waits[w];
      const TimeNs begin = b.Begin();
      if (begin == kUnknownTime) continue;  // only a withdrawn or pending-at-end record
      auto [pid, tid] = ThreadTrack(b.thread);
      Open('X', b.fence ? FenceName(b.fence) : "CPU wait", "cpu_wait", pid, tid, begin);
      m_out += Duration(begin, b.released);
      m_out += fmt::format(",\"args\":{{\"fence\":{},\"value\":{}{}}}", b.fence, b.value,
                           OpenMark(b.released));
      Close();
    }
  }

  void WritePackets() {
    const auto& packets = m_boxes.packets;
    for (uint32_t p : ByOpId(packets, [](const auto& b) { return b.packet_id; })) {
      const analysis::Packet b = packets[p];
      const bool started = b.start != kUnknownTime;
      const TimeNs begin = started ? b.start : b.submit;
      if (begin == kUnknownTime) continue;
      const auto* q = m_store.FindQueue(b.queue);
      const bool copy = q && q->type == core::model::QueueType::kCopy;
      const std::string name = b.name ? Str(b.name) : fmt::format("packet {}", b.packet_id);
      Open('X', name, copy ? "gpu_memcpy" : "kernel", QueuePid(b.queue), b.queue, begin);
      const TimeNs end = !started ? begin : b.end == kUnknownTime ? m_store.end_ns() : b.end;
      m_out += fmt::format(",\"dur\":{}", Micros(end - begin));
      m_out += fmt::format(",\"args\":{{\"packet_id\":{}", b.packet_id);
      if (b.submit != kUnknownTime) m_out += fmt::format(",\"submitted_ns\":{}", b.submit);
      if (!started) m_out += ",\"not_started\":1";
      else if (b.end == kUnknownTime) m_out += ",\"open\":1";
      m_out += "}";
      Close();
    }
  }

  // Driver background tasks (shader PGO) that started, as slices on their runtime thread.
  void WriteTasks() {
    const auto& tasks = m_boxes.tasks;
    for (uint32_t t : ByOpId(tasks, [](const auto& b) { return b.task_id; })) {
      const analysis::BackgroundTask b = tasks[t];
      if (b.started == kUnknownTime) continue;
      auto [pid, tid] = ThreadTrack(b.thread);
      Open('X', fmt::format("task {}", b.task_id), "background_task", pid, tid, b.started);
      m_out += Duration(b.started, b.ended);
      Close();
    }
  }

  // A signal box starts when it was queued (a CPU signal: when it was made), else executed.
  static TimeNs SignalBegin(const analysis::SignalBox& b) {
    return b.queued != kUnknownTime ? b.queued : b.executed;
  }
  static TimeNs WaitBegin(const analysis::WaitBox& b) {
    return b.queued != kUnknownTime ? b.queued : b.unblocked;
  }

  // The signal_id of the signal the reconstruction linked to an unblocked wait, 0 for none.
  int64_t ReleasingSignalId(const analysis::WaitBox& wait) const {
    if (wait.unblocked == kUnknownTime || wait.signal == kNoIndex) return 0;
    return m_boxes.signals.Get<&analysis::SignalBox::signal_id>(wait.signal);
  }

  void WriteArrows() {
    // Signal -> wait arrows as flow v1 pairs (cat "fence"). The importer relinks through the
    // wait's signal_id arg, so these are for the viewers.
    const auto& waits = m_boxes.waits;
    for (uint32_t w : ByOpId(waits, [](const auto& b) { return b.wait_id; })) {
      const analysis::WaitBox wait = waits[w];
      if (wait.unblocked == kUnknownTime || wait.signal == kNoIndex) continue;
      const analysis::SignalBox s = m_boxes.signals[wait.signal];
      auto [spid, stid] = Track(s.cpu, s.queue, s.thread);
      const std::string id = fmt::format(",\"id\":\"fence-{}\"", ++m_flow_ids);
      Open('s', "fence", "fence", spid, stid, SignalBegin(s));
      m_out += id;
      Close();
      Open('f', "fence", "fence", QueuePid(wait.queue), wait.queue, WaitBegin(wait));
      m_out += id + ",\"bp\":\"e\"";
      Close();
    }
  }

  void WriteFlows() {
    const auto& ev = m_store.events;
    for (const auto& flow : m_store.flows) {
      const size_t from = m_store.IndexOfRowId(flow.from);
      const size_t to = m_store.IndexOfRowId(flow.to);
      if (from >= ev.size() || to >= ev.size()) continue;
      std::pair<int64_t, int64_t> from_track, to_track;
      if (ev.thread[from] != 0 && ev.queue[from] == 0) {
        from_track = ThreadTrack(ev.thread[from]);
      } else {
        from_track = {QueuePid(ev.queue[from]), ev.queue[from]};
      }
      if (ev.queue[to] != 0) {
        to_track = {QueuePid(ev.queue[to]), ev.queue[to]};
      } else {
        to_track = ThreadTrack(ev.thread[to]);
      }
      const bool launch = flow.kind == core::model::FlowKind::kCpuLaunch;
      const std::string name = flow.name ? Str(flow.name) : (launch ? "ac2g" : "flow");
      const std::string cat = launch ? "ac2g" : "flow";
      const std::string id = fmt::format(",\"id\":\"flow-{}\"", ++m_flow_ids);
      Open('s', name, cat, from_track.first, from_track.second, ev.ts[from]);
      m_out += id;
      Close();
      Open('f', name, cat, to_track.first, to_track.second, ev.ts[to]);
      m_out += id + ",\"bp\":\"e\"";
      Close();
    }
  }

  void WriteCounters() {
    for (const auto& series : m_store.counters) {
      for (size_t i = 0; i < series.ts.size(); ++i) {
        Open('C', series.name, "", series.process, 0, series.ts[i]);
        m_out += fmt::format(",\"args\":{{\"value\":{}}}", series.values[i]);
        Close();
      }
    }
  }

  const TraceStore& m_store;
  const analysis::Reconstruction& m_boxes;
  std::string m_out;
  uint64_t m_events = 0;
  uint64_t m_flow_ids = 0;
};

// A gzip stream when the name ends in .gz, else the text as it is; false on a write error.
bool WriteJsonFile(const std::filesystem::path& file, bool gzip, const std::string& text) {
  if (gzip) {
    gzFile out = gzopen(file.c_str(), "wb6");
    if (!out) return false;
    size_t done = 0;
    bool ok = true;
    while (ok && done < text.size()) {
      const unsigned n = static_cast<unsigned>(std::min<size_t>(text.size() - done, 1u << 30));
      ok = gzwrite(out, text.data() + done, n) == static_cast<int>(n);
      done += n;
    }
    return gzclose(out) == Z_OK && ok;
  }
  FILE* out = std::fopen(file.c_str(), "wb");
  if (!out) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  return std::fclose(out) == 0 && ok;
}

}  // namespace

ExportSummary ExportChromeJson(const std::filesystem::path& trace,
                               const std::filesystem::path& output,
                               const std::function<void(double)>& progress) {
  core::store::CheckOutputIsNotInput(trace, output, "input trace");
  core::store::ResolveOutputTarget(output);  // refuse a device or FIFO before the work
  const TraceStore store = core::store::LoadTrace(trace);
  const analysis::Reconstruction boxes = analysis::Reconstruct(store);
  ExportSummary summary;
  Exporter exporter(store, boxes);
  const std::string text = exporter.Run(&summary.json_events, progress);
  const bool gzip = output.extension() == ".gz";
  core::store::WriteFileAtomically(
      output, [&](const std::filesystem::path& temp) { return WriteJsonFile(temp, gzip, text); });
  if (progress) progress(1.0);
  return summary;
}

}  // namespace core::exporting
