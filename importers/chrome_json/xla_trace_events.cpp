#include "importers/chrome_json/xla_trace_events.h"

#include <cctype>
#include <vector>

#include "importers/common/xla_stream_name.h"

namespace importers::chrome_json {
namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

}  // namespace

XlaTraceCounts MarkXlaDeviceStreams(ParsedTrace& trace,
                                    const std::function<StringId(std::string_view)>& intern) {
  XlaTraceCounts counts;
  std::vector<bool> device_process(trace.processes.size(), false);
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    if (xla::IsDeviceName(trace.processes[p].name)) {
      device_process[p] = true;
      ++counts.device_processes;
    }
  }
  if (counts.device_processes == 0) return counts;
  std::vector<bool> stream_track(trace.tracks.size(), false);
  for (size_t t = 0; t < trace.tracks.size(); ++t) {
    Track& track = trace.tracks[t];
    if (!device_process[track.process] || !xla::IsStreamName(track.name)) continue;
    stream_track[t] = true;
    track.gpu_stream = true;
    trace.processes[track.process].gpu_device = true;
    ++counts.streams;
  }
  const StringId kernel = intern("kernel");
  const StringId memcpy = intern("gpu_memcpy");
  const StringId memset = intern("gpu_memset");
  const StringId launch = intern("xla_launch");
  for (ParsedEvent& e : trace.events) {
    if (e.cat != 0 || e.ph != 'X') continue;
    if (stream_track[e.track]) {
      const std::string_view name =
          e.name < trace.writer_strings.size() ? trace.writer_strings[e.name] : std::string_view();
      e.cat = StartsWithNoCase(name, "memcpy")   ? memcpy
              : StartsWithNoCase(name, "memset") ? memset
                                                 : kernel;
      ++counts.packets;
    } else if (!device_process[trace.tracks[e.track].process] && e.extra != kNone &&
               trace.kineto_args[e.extra].correlation >= 0) {
      e.cat = launch;
      ++counts.launches;
    }
  }
  return counts;
}

}  // namespace importers::chrome_json
