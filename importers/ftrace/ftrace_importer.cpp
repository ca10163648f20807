#include "importers/ftrace/ftrace_importer.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/ftrace/ftrace_gpu_mapper.h"
#include "importers/ftrace/ftrace_text_reader.h"
#include "importers/ftrace/systrace_html.h"
#include "importers/ftrace/trace_dat_reader.h"
#include "importers/common/import_counters.h"

namespace importers::ftrace {
namespace {

using Clock = std::chrono::steady_clock;
using core::model::Severity;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

void WriteCounts(const FtraceMapperCounts& c, core::store::TraceWriter& w) {
  for (const auto& [name, count] : c.events_by_name) {
    w.CountProblem("ftrace_event " + name, Severity::kInfo,
                   fmt::format("ftrace events read: {}", name), count);
  }
  for (const auto& [name, count] : c.unmapped_by_name) {
    w.CountProblem("ftrace_not_mapped " + name, Severity::kInfo,
                   fmt::format("{} events read but not mapped to the trace model", name), count);
  }
  const ImportCounter rows[] = {
      {"ftrace_link_cpu_submit_to_run", c.cpu_submits_run,
       "CPU submits (amdgpu_cs_ioctl, drm_sched_job, i915_request_add) whose job was seen "
       "running on its ring"},
      {"ftrace_job_without_submit", c.jobs_without_submit,
       "jobs first seen running (kernel submissions, or submitted before the capture): "
       "submitted when they ran, with no CPU thread"},
      {"ftrace_completion_not_in_capture", c.completions_not_in_capture,
       "jobs with no completion in the capture although a job handed to their ring after them "
       "completed (a ring runs its jobs in order): left running (unless the window crop leaves "
       "them out)"},
      {"ftrace_signal_without_emit", c.signals_without_emit,
       "fence signals with no dma_fence_emit / _init or job submission before them: queued at "
       "their execution"},
      {"ftrace_gpu_wait_released_by_signal", c.gpu_waits_released_by_signal,
       "drm_sched_job_wait_dep / _add_dep waits released by their dependency fence's signal"},
      {"ftrace_dependency_without_job", c.dependencies_without_job,
       "drm_sched_job_add_dep / _unschedulable of a job whose drm_sched_job_queue is not in the "
       "capture (skipped: the ring that waits is not known)"},
      {"ftrace_cpu_wait_end_without_start", c.cpu_wait_end_without_start,
       "dma_fence_wait_end with no wait_start of the same task and fence"},
      {"ftrace_atrace_slices", c.atrace_slices,
       "atrace B|pid|name ... E|pid markers (trace_marker): slices of the writing thread"},
      {"ftrace_atrace_async_slices", c.atrace_async_slices,
       "atrace S|pid|name|cookie ... F|pid|name|cookie markers: async slices of the process"},
      {"ftrace_atrace_counter_samples", c.atrace_counter_samples,
       "atrace C|pid|name|value markers: samples of the process's counter `name`"},
      {"ftrace_atrace_end_without_begin", c.atrace_end_without_begin,
       "atrace E (F) markers with no open B (S) of the same thread (process, name and cookie)"},
      {"ftrace_atrace_open_at_end", c.atrace_open_at_end,
       "atrace B / S markers never ended: slices closed at the trace's end"},
      {"ftrace_malformed_gpu_event", c.unmapped_events,
       "GPU events missing the fields the mapping needs (skipped)"},
  };
  CountNonZero(w, rows);
  if (c.vblanks_without_adapter) {
    w.CountProblem("ftrace_vblank_without_adapter", Severity::kInfo,
                   "drm_vblank_event markers left trace-wide: the event names no device and the "
                   "capture has no GPU driver or several",
                   c.vblanks_without_adapter);
  }
}

// The capture's CPU buffers started at different times (ftrace_capture_window.h).
void WriteWindow(const FtraceMapperCounts& c, core::store::TraceWriter& w) {
  if (!c.window_from) return;
  const std::string from = FtraceSeconds(c.window_from);
  const std::string note = fmt::format(
      "complete from {}: the CPUs' ring buffers start at different times ({}), so events "
      "before the last one started are missing on the others; the trace starts there",
      from, c.cpu_coverage);
  w.SetMeta("capture_note", note);
  w.CountProblem("ftrace_before_all_cpus_recording", Severity::kDataLoss,
                 "records before every CPU was recording (a busier CPU's ring buffer wrapped "
                 "and lost its oldest events): left out, so that no job looks queued or "
                 "running to the end for want of its records on another CPU",
                 c.window_dropped, note);
  if (c.window_moved) {
    w.CountProblem("ftrace_placed_at_window_start", Severity::kInfo,
                   "records of jobs, signals and waits that go on past the start of the complete "
                   "window, placed at it (thread slices cut there)",
                   c.window_moved, from);
  }
}

// Appends the mapped records and the counters; times reading (since `t0`) and writing.
void FinishImport(FtraceGpuMapper& mapper, core::store::TraceWriter& writer,
                  const ImportOptions& options, Clock::time_point t0, FtraceImportStats& stats) {
  if (options.progress) options.progress(0.6);
  auto t1 = Clock::now();
  mapper.Finish();
  WriteCounts(mapper.counts(), writer);
  WriteWindow(mapper.counts(), writer);
  stats.read_seconds = std::chrono::duration<double>(t1 - t0).count();
  stats.write_seconds = Seconds(t1);
  stats.records_written = writer.events_written();
}

}  // namespace

FtraceImportStats ImportTraceDat(std::string_view bytes, const std::string& label,
                                 core::store::TraceWriter& writer, const ImportOptions& options) {
  FtraceImportStats stats;
  stats.input_bytes = bytes.size();
  auto t0 = Clock::now();
  FtraceGpuMapper mapper(writer);
  TraceDatInfo info = ReadTraceDat(
      bytes, label,
      [&](const FtraceEvent& e) {
        mapper.Map(e);
        ++stats.events;
      },
      [&](const TraceDatInfo& header) { mapper.SetTgids(header.tgids); });
  writer.SetMeta("source", "ftrace-dat");
  writer.SetMeta("source_file", label);
  writer.SetMeta("clock", info.clock.empty() ? "local (the file does not name its clock)"
                                             : info.clock);
  writer.SetMeta("processors", std::to_string(info.cpus));
  writer.SetMeta("trace_dat_version", info.version);
  if (!info.uname.empty()) writer.SetMeta("uname", info.uname);
  if (info.tgid_table_option) {
    writer.CountProblem("ftrace_dat_tgid_option", Severity::kInfo,
                        "option 8 holds a `pid tgid` table (patched trace-cmd, gpuvis) instead "
                        "of a CPU count: read as the thread-to-process table",
                        info.tgids.size());
  }
  if (info.unknown_event_records) {
    writer.CountProblem("ftrace_dat_unknown_event", Severity::kError,
                        "records whose event id has no format in the file (skipped)",
                        info.unknown_event_records);
  }
  FinishImport(mapper, writer, options, t0, stats);
  return stats;
}

FtraceImportStats ImportFtraceText(std::string_view text, const std::string& label,
                                   core::store::TraceWriter& writer, const ImportOptions& options) {
  FtraceImportStats stats;
  stats.input_bytes = text.size();
  auto t0 = Clock::now();
  // Pass 1: where each event line is and its time; file order is kept unless the lines are not
  // in time order (per-CPU trace_pipe dumps), then they are mapped in (stable) time order.
  struct LineRef {
    int64_t ts;
    uint64_t number;
  };
  std::vector<LineRef> lines;
  uint64_t bad = 0;
  std::string first_bad;
  TextScanCounts counts = ScanFtraceText(
      text,
      [&](const FtraceEvent& e) {
        lines.push_back({e.ts_ns, e.place});
      },
      [&](uint64_t number, std::string_view line) {
        ++bad;
        if (first_bad.empty()) {
          first_bad = fmt::format("{}: line {}: {}", label, number,
                                  line.substr(0, std::min<size_t>(line.size(), 80)));
        }
      },
      /*with_fields=*/false);
  if (lines.empty()) {
    throw core::Error(fmt::format(
        "{}: no ftrace event lines (TASK-PID [CPU] SECONDS: EVENT: DETAILS){}", label,
        first_bad.empty() ? std::string() : "; first line that is not one: " + first_bad));
  }
  if (!counts.sorted) {
    std::stable_sort(lines.begin(), lines.end(),
                     [](const LineRef& a, const LineRef& b) { return a.ts < b.ts; });
  }
  FtraceGpuMapper mapper(writer);
  // Pass 2 over the event lines (line numbers locate them).
  std::vector<size_t> line_start;
  line_start.reserve(counts.lines + 16);
  {
    size_t pos = 0;
    line_start.push_back(0);  // line numbers are 1-based
    while (pos < text.size()) {
      line_start.push_back(pos);
      const size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) break;
      pos = end + 1;
    }
  }
  FtraceEvent e;
  e.fields.reserve(16);
  for (const LineRef& ref : lines) {
    const size_t start = line_start[ref.number];
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = CleanFtraceLine(text.substr(start, end - start));
    if (!ParseFtraceLine(line, e)) continue;
    e.place = ref.number;
    mapper.Map(e);
  }
  stats.events = lines.size();
  stats.bad_lines = bad;
  writer.SetMeta("source", "ftrace-text");
  writer.SetMeta("source_file", label);
  writer.SetMeta("clock", counts.clock.empty() ? "local (the text does not name its clock)"
                                               : std::string(counts.clock));
  if (bad) {
    writer.CountProblem("ftrace_bad_line", Severity::kError,
                        "text lines that are not ftrace event lines (skipped)", bad, first_bad);
  }
  FinishImport(mapper, writer, options, t0, stats);
  return stats;
}

FtraceImportStats ImportSystraceHtml(std::string_view html, const std::string& label,
                                     core::store::TraceWriter& writer,
                                     const ImportOptions& options) {
  const SystraceData data = ExtractSystraceData(html);
  if (!data.text_line) {
    throw core::Error(fmt::format(
        "{}: an HTML page without systrace ftrace text (no <script class=\"trace-data\"> block "
        "of ftrace text and no linuxPerfData string){}",
        label, data.json_blocks ? fmt::format("; {} trace-data block(s) hold JSON: extract "
                                              "and import them as Chrome JSON",
                                              data.json_blocks)
                                : std::string()));
  }
  // Line numbers in messages count from the line of the page where the text starts.
  const std::string text_label = fmt::format("{} (ftrace text from line {})", label, data.text_line);
  FtraceImportStats stats = ImportFtraceText(data.ftrace_text, text_label, writer, options);
  stats.input_bytes = html.size();
  writer.SetMeta("source", "systrace-html");
  writer.SetMeta("source_file", label);
  if (data.json_blocks) {
    writer.CountProblem("systrace_json_block", Severity::kInfo,
                        "trace-data blocks holding Chrome JSON (not read with the ftrace text)",
                        data.json_blocks);
  }
  if (data.other_blocks) {
    writer.CountProblem("systrace_other_block", Severity::kError,
                        "further trace-data blocks of ftrace text, or of neither ftrace text nor "
                        "JSON (not read)",
                        data.other_blocks);
  }
  return stats;
}

}  // namespace importers::ftrace
