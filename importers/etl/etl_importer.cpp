#include "importers/etl/etl_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>

#include "core/model/error.h"
#include "core/model/seconds_since.h"
#include "importers/etl/dxgkrnl_decoder.h"
#include "importers/etl/etl_gpu_mapper.h"
#include "importers/etl/etl_reader.h"
#include "importers/etl/process_names.h"
#include "importers/common/import_counters.h"
#include "importers/common/record_time_bound.h"

namespace importers::etl {
namespace {

using Clock = core::SteadyClock;
using core::SecondsSince;
using core::model::Severity;

// A payload that is one NUL-terminated run of printable text: what string-marker providers
// (e.g. the SteamVR compositor's) write. Returns the text without its terminator.
bool AsMarkerText(std::string_view payload, std::string_view* text) {
  if (payload.size() < 2 || payload.back() != '\0') return false;
  std::string_view body = payload.substr(0, payload.size() - 1);
  for (char ch : body) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) return false;
  }
  *text = body;
  return true;
}

// Per (provider, id, version): how many records and what became of them.
struct TupleCount {
  uint64_t records = 0;
  uint64_t bad_size = 0;
  uint64_t first_offset = 0;
  enum class Fate : uint8_t { kDecoded, kMarker, kNotDecoded } fate = Fate::kNotDecoded;
  std::string bad_size_place;
};

std::string ProviderName(const Guid& guid) {
  const std::string text = guid.ToString();
  if (text == kDxgKrnlProvider) return "Microsoft-Windows-DxgKrnl";
  if (text == kKernelProcessProvider) return "Microsoft-Windows-Kernel-Process";
  return "{" + text + "}";
}

std::string FiletimeIso(int64_t filetime) {
  if (filetime <= 0) return "";
  // FILETIME: 100 ns ticks since 1601-01-01; Unix epoch is 11644473600 s later.
  const int64_t unix_seconds = filetime / 10'000'000 - 11'644'473'600LL;
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void WriteCaptureFacts(const EtlFile& file, const std::string& label,
                       core::store::TraceWriter& writer) {
  const LogfileHeader& h = file.header;
  writer.SetMeta("source_file", label);
  writer.SetMeta("clock", h.clock_type == 1 ? "qpc" : fmt::format("etw-clock-{}", h.clock_type));
  writer.SetMeta("qpc_frequency_hz", std::to_string(h.perf_freq));
  writer.SetMeta("os_version", fmt::format("{}.{} build {}", h.os_major, h.os_minor, h.os_build));
  writer.SetMeta("processors", std::to_string(h.processors));
  writer.SetMeta("etl_logger_name", h.logger_name);
  writer.SetMeta("etl_log_file_name", h.log_file_name);
  writer.SetMeta("etl_start_time_utc", FiletimeIso(h.start_time_filetime));
  writer.SetMeta("etl_buffer_size", std::to_string(h.buffer_size));
  writer.SetMeta("etl_buffers", std::to_string(file.buffers));
  writer.SetMeta("etl_pointer_size", std::to_string(h.pointer_size));
  writer.SetMeta("etl_events_lost", std::to_string(h.events_lost));
  writer.SetMeta("etl_buffers_lost", std::to_string(h.buffers_lost));
  if (h.clock_type != 1) {
    writer.CountProblem("etl_clock_not_qpc", Severity::kError,
                        "the capture's clock is not QPC; timestamps were scaled by PerfFreq as if "
                        "it were",
                        1, fmt::format("clock type {}", h.clock_type));
  }
  if (h.events_lost || h.buffers_lost) {
    writer.CountProblem("etl_events_lost", Severity::kDataLoss,
                        "events the ETW session itself dropped while capturing (logfile header "
                        "EventsLost + BuffersLost)",
                        uint64_t{h.events_lost} + h.buffers_lost, "TRACE_LOGFILE_HEADER");
  }
  if (file.skipped_buffers || file.missing_buffers) {
    writer.CountProblem("etl_corrupt_buffer", Severity::kDataLoss,
                        "corrupt, truncated or missing 64 KiB buffers skipped (--lenient)",
                        file.skipped_buffers + file.missing_buffers, file.first_skip_place);
  }
  if (file.other_records) {
    writer.CountProblem("etl_other_header_records", Severity::kInfo,
                        "records with header types other than system/event headers (skipped)",
                        file.other_records);
  }
  // The capture predates WDDM 3.2 native fences: nothing in it corresponds to the native-fence
  // log buffers, log writes or overruns that simulated traces show.
  writer.SetMeta("native_fence_logs", "absent (the ETL capture has no native-fence log buffers)");
  writer.CountProblem("etl_no_native_fence_logs", Severity::kInfo,
                      "this ETW capture has no native-fence log buffers, log writes or overruns "
                      "(WDDM 2.x monitored fences: GPU waits are held by the OS on the CPU)",
                      1);
}

void WriteMapperCounts(const GpuMapperCounts& c, core::store::TraceWriter& w) {
  const ImportCounter rows[] = {
      {"etl_link_queue_packets_completed", c.queue_packets_completed,
       "queue packets (all types) whose Start and Stop (hContext, SubmitSequence) are both in "
       "the capture"},
      {"etl_link_render_packets_completed", c.render_packets_completed,
       "QueuePacket Start (178) packets matched by a Stop on (hContext, SubmitSequence)"},
      {"etl_signal_call_merged", c.signal_calls_merged,
       "SignalSynchronizationObject2 objects already queued by the signal packets of that call"},
      {"etl_link_dma_packets_completed", c.dma_completed,
       "DMA packets whose Start and completion Info (submission id) are both in the capture"},
      {"etl_link_dma_to_queue_packet", c.dma_linked,
       "DMA packets linked to a queue packet by (hContext, ulQueueSubmitSequence)"},
      {"etl_link_waits_to_signal", c.waits_linked_to_signal,
       "wait packets released with a known releasing signal "
       "(fence_wait_unblocked.released_by_signal_id)"},
      {"etl_hardware_nodes_inferred", c.nodes,
       "GPU nodes inferred from interleaving DMA submission ids (no Context/NodeMetadata "
       "events): engine types unknown"},
      {"etl_hardware_node_ordinals", c.nodes_with_ordinal,
       "inferred GPU nodes whose node ordinal SelectContext names"},
      {"etl_node_ordinal_conflict", c.node_ordinal_conflicts,
       "inferred GPU nodes whose contexts SelectContext puts on different node ordinals"},
      {"etl_packets_without_hardware_run", c.completed_without_dma,
       "retired software-queue packets with no DMA packet (wait, signal, flip and other "
       "packets): the capture does not say when they ran, so they have no packet_started"},
      {"etl_queue_stop_without_start", c.stop_without_start,
       "QueuePacket Stop for packets queued before the capture began"},
      {"etl_dma_info_without_start", c.dma_info_without_start,
       "DmaPacket Info for packets submitted before the capture began"},
      {"etl_dma_preempted", c.dma_preempted, "DMA packets preempted (InterruptType 2)"},
      {"etl_dma_resumed", c.dma_resumed,
       "preempted DMA packets resubmitted (same hContext and sequence), shown as resumed"},
      {"etl_dma_completed_out_of_order", c.dma_out_of_order,
       "DMA completions that were not the oldest packet of their inferred node"},
      {"etl_signal_from_gpu_call_merged", c.signal_from_gpu_calls_merged,
       "SignalSynchronizationObjectFromGpu calls behind signal packets already queued: the "
       "call is when the signal was asked for; it executes when its packet retires"},
      {"etl_signal_from_gpu_without_packet", c.signals_from_gpu_without_packet,
       "SignalSynchronizationObjectFromGpu calls whose signal packet is not in the capture: "
       "queued at the call, executed when a released wait shows it ran"},
      {"etl_signal_execution_inferred", c.signals_inferred_from_unwait,
       "signals with no execution event, placed at the release of the wait they satisfied"},
      {"etl_signal_executed_by_queue_order", c.signals_executed_by_queue_order,
       "signals with no execution event on a queue where signals queued after them executed: a "
       "queue signal runs only after the queue's earlier work (seed 001), so each is placed at "
       "the first of those executions (inferred)"},
      {"etl_signal_not_executed", c.signals_never_executed,
       "signals queued but not seen executing before the capture ended"},
      {"etl_wait_unblocked_at_retire", c.waits_unblocked_at_retire,
       "wait packets with no UnwaitQueuePacket, unblocked at their QueuePacket Stop"},
      {"etl_wait_call_merged", c.wait_calls_merged,
       "WaitForSynchronizationObject2/FromGpu calls merged into their wait packet"},
      {"etl_wait_call_without_packet", c.wait_calls_without_packet,
       "WaitForSynchronizationObject2/FromGpu calls with no wait packet in the capture"},
      {"etl_cpu_unwait_without_wait", c.cpu_unwaits_without_wait,
       "UnwaitCpuWaiter for a CPU wait that began before the capture or through another API"},
  };
  CountNonZero(w, rows);
}

}  // namespace

EtlImportStats ImportEtl(std::string_view bytes, const std::string& label,
                         core::store::TraceWriter& writer, const ImportOptions& options) {
  EtlImportStats stats;
  stats.input_bytes = bytes.size();
  auto report = [&](double fraction) {
    if (options.progress) options.progress(fraction);
  };

  // 1. Container.
  auto t0 = Clock::now();
  EtlReadOptions read_options;
  read_options.lenient = options.lenient;
  read_options.progress = [&](double f) { report(0.3 * f); };
  EtlFile file = ReadEtl(bytes, label, read_options);
  stats.read_seconds = SecondsSince(t0);
  stats.etw_events = file.events.size();

  // 2. Decode, sort by time, map.
  auto t1 = Clock::now();
  const int64_t freq = file.header.perf_freq;
  int dxg = -1;
  int kernel_process = -1;
  for (size_t i = 0; i < file.providers.size(); ++i) {
    if (file.providers[i].ToString() == kDxgKrnlProvider) dxg = static_cast<int>(i);
    if (file.providers[i].ToString() == kKernelProcessProvider) {
      kernel_process = static_cast<int>(i);
    }
  }
  std::unordered_map<uint32_t, std::string> process_names;  // pid -> image, first seen
  // Key: provider << 24 | id << 8 | version (sorted when written out).
  std::unordered_map<uint64_t, TupleCount> tuples;
  std::vector<TimedDxgEvent> decoded;  // only the mapped ids: a small share of the records
  struct MarkerRef {
    int64_t ts;
    uint32_t pid;
    uint32_t tid;
    std::string_view text;
  };
  std::vector<MarkerRef> markers;
  int64_t min_ts = INT64_MAX;
  int64_t max_ts = INT64_MIN;
  uint64_t out_of_bounds = 0;  // records timed past record_time_bound.h's bound (--lenient)
  std::string first_out_of_bounds;
  for (const EtlEvent& ev : file.events) {
    const std::string_view payload = bytes.substr(ev.payload_offset, ev.payload_size);
    const int64_t ts = QpcToNs(ev.timestamp, freq);
    if (!RecordTimeInBounds(ts)) {
      // A damaged timestamp (or a damaged header's frequency): the mapper subtracts record times
      // (found by fuzz_etl: a packet's time saturated at INT64_MIN overflowed such a difference).
      const std::string place =
          fmt::format("the event record whose payload is at byte offset {}: its time, {} ticks "
                      "at {} a second, is {} ns, past +-3e18 ns (95 years)",
                      ev.payload_offset, ev.timestamp, freq, ts);
      if (!options.lenient) throw core::Error(fmt::format("{}: {}", label, place));
      if (out_of_bounds++ == 0) first_out_of_bounds = place;
      continue;
    }
    TupleCount& tc = tuples[(uint64_t{ev.provider} << 24) | (uint64_t{ev.id} << 8) | ev.version];
    if (tc.records++ == 0) tc.first_offset = ev.payload_offset;
    min_ts = std::min(min_ts, ts);
    max_ts = std::max(max_ts, ts);
    if (ev.provider == dxg) {
      ++stats.dxgkrnl_events;
      if (!IsDecodedDxgKrnlId(ev.id)) continue;
      TimedDxgEvent& t = decoded.emplace_back();
      const DecodeStatus status = DecodeDxgKrnl(ev.id, ev.version, ev.pointer_size, payload,
                                                &t.event);
      if (status == DecodeStatus::kDecoded) {
        tc.fate = TupleCount::Fate::kDecoded;
        t.ts_ns = ts;
        t.process_id = ev.process_id;
        t.thread_id = ev.thread_id;
        continue;
      }
      decoded.pop_back();
      if (status == DecodeStatus::kBadSize) {
        tc.fate = TupleCount::Fate::kDecoded;
        if (tc.bad_size++ == 0) {
          tc.bad_size_place = fmt::format("byte offset {}: {} payload bytes", ev.payload_offset,
                                          payload.size());
        }
      }
      continue;
    }
    if (ev.provider == kernel_process) {
      ProcessName name;
      if (DecodeProcessName(ev.id, ev.version, payload, &name)) {
        tc.fate = TupleCount::Fate::kDecoded;
        process_names.try_emplace(name.pid, std::move(name.image));
      }
      continue;
    }
    std::string_view text;
    if (AsMarkerText(payload, &text)) {
      tc.fate = TupleCount::Fate::kMarker;
      markers.push_back({ts, ev.process_id, ev.thread_id, text});
    }
  }
  report(0.4);
  // Buffers are per CPU, so file order is not time order: map in (time, file order).
  std::vector<std::pair<int64_t, uint32_t>> order(decoded.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = {decoded[i].ts_ns, i};
  std::sort(order.begin(), order.end());
  // Classic kernel logger process records (DCStart rundown, starts) name the processes the
  // Kernel-Process provider did not; the first name seen for a pid is kept.
  uint64_t kernel_process_records = 0;
  for (const EtlProcessRecord& rec : file.process_records) {
    ProcessName name;
    if (DecodeKernelProcessName(rec.type, rec.version, rec.pointer_size,
                                bytes.substr(rec.payload_offset, rec.payload_size), &name)) {
      process_names.try_emplace(name.pid, std::move(name.image));
      ++kernel_process_records;
    }
  }
  const size_t named_processes = process_names.size();
  EtlGpuMapper mapper(writer, freq);
  for (auto& [pid, image] : process_names) mapper.NameProcess(pid, std::move(image));
  mapper.Prepare(decoded);
  for (const auto& [ts, i] : order) mapper.Map(decoded[i]);
  for (const MarkerRef& m : markers) mapper.AddTextMarker(m.ts, m.pid, m.tid, m.text);
  mapper.Finish(file.events.empty() ? 0 : max_ts);
  std::vector<core::store::EventRecord>& records = mapper.records();
  std::stable_sort(records.begin(), records.end(),
                   [](const auto& a, const auto& b) { return a.ts < b.ts; });
  stats.decode_seconds = SecondsSince(t1);
  report(0.6);

  // 3. Rows.
  auto t2 = Clock::now();
  writer.SetMeta("source", "etl");
  WriteCaptureFacts(file, label, writer);
  std::map<uint64_t, const TupleCount*> sorted_tuples;
  for (const auto& [key, tc] : tuples) sorted_tuples[key] = &tc;
  for (const auto& [key, tc_ptr] : sorted_tuples) {
    const TupleCount& tc = *tc_ptr;
    const auto provider = static_cast<uint16_t>(key >> 24);
    const auto id = static_cast<uint16_t>((key >> 8) & 0xFFFF);
    const auto version = static_cast<uint8_t>(key & 0xFF);
    const bool is_dxg = provider == dxg;
    const std::string prov = ProviderName(file.providers[provider]);
    std::string_view event_name = is_dxg ? DxgKrnlEventName(id) : std::string_view();
    const char* fate = tc.fate == TupleCount::Fate::kDecoded  ? "decoded"
                       : tc.fate == TupleCount::Fate::kMarker ? "read as text markers"
                                                              : "counted, not decoded";
    writer.CountProblem(
        fmt::format("etl_read {} id {} v{}", prov, id, version), Severity::kInfo,
        fmt::format("ETW records read: {} event {} version {}{}{} ({})", prov, id, version,
                    event_name.empty() ? "" : " ", event_name, fate),
        tc.records, fmt::format("byte offset {}", tc.first_offset));
    if (tc.bad_size) {
      writer.CountProblem(fmt::format("etl_bad_payload_size {} id {} v{}", prov, id, version),
                          Severity::kError,
                          "payload size does not match the event's layout; record skipped",
                          tc.bad_size, tc.bad_size_place);
    }
  }
  WriteMapperCounts(mapper.counts(), writer);
  if (out_of_bounds) {
    writer.CountProblem("etl_record_time_out_of_bounds", Severity::kDataLoss,
                        "event records timed past +-3e18 ns (a damaged timestamp) skipped "
                        "(--lenient)",
                        out_of_bounds, first_out_of_bounds);
  }
  if (kernel_process_records) {
    writer.CountProblem("etl_kernel_process_records", Severity::kInfo,
                        "classic kernel logger Process records (Start, DCStart, DCEnd) decoded",
                        kernel_process_records);
  }
  if (named_processes) {
    writer.CountProblem("etl_named_processes", Severity::kInfo,
                        "processes whose image name the capture gives (process rundown or start "
                        "events)",
                        named_processes);
  }
  const size_t total = records.size();
  for (size_t i = 0; i < total; ++i) {
    mapper.ResolveText(records[i]);
    writer.Append(records[i]);
    if ((i & 0xFFFF) == 0) report(0.6 + 0.4 * static_cast<double>(i) / static_cast<double>(total));
  }
  stats.records_written = total;
  stats.write_seconds = SecondsSince(t2);
  report(1.0);
  return stats;
}

}  // namespace importers::etl
