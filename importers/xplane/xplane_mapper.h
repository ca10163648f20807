// Maps the planes of one XSpace to fencescope records (xplane_importer.h says how), plane by
// plane as the reader hands them over; Finish() links each packet to its host launch, adds
// the steps and writes every record in time order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/common/record_sink.h"
#include "importers/xplane/xspace_reader.h"

namespace importers::xplane {

struct XplaneCounts {
  uint64_t device_planes = 0;
  uint64_t host_planes = 0;
  uint64_t packets = 0;
  uint64_t packets_linked = 0;     // to a host event with the same correlation_id
  uint64_t packets_with_correlation = 0;
  uint64_t host_slices = 0;
  uint64_t device_row_slices = 0;  // events of a device's lines other than its streams
  uint64_t aggregate_events = 0;   // num_occurrences instead of offset_ps: not drawn
  uint64_t aggregate_occurrences = 0;
  uint64_t unknown_metadata = 0;   // an event whose metadata_id names no XEventMetadata
  uint64_t bad_times = 0;          // a negative duration, or a time past int64
  uint64_t steps = 0;
};

class XplaneMapper {
 public:
  XplaneMapper(core::store::TraceWriter& writer, const XSpaceHeader& header,
               std::string_view label);
  void AddPlane(const XPlane& plane);
  // Links, steps, then every record appended to the writer.
  void Finish();
  const XplaneCounts& counts() const { return m_counts; }

 private:
  struct Span {
    core::model::TimeNs start = 0;
    core::model::TimeNs end = 0;
  };
  struct Packet {
    uint32_t submitted = 0;  // record indices
    uint32_t started = 0;
    int64_t correlation = 0;
    bool has_correlation = false;
  };
  struct Launch {
    uint32_t record = 0;
    core::model::ThreadId thread = 0;
    core::model::TimeNs start = 0;
    core::model::StringId name = 0;
  };
  // What one event says, whatever its line.
  struct EventFacts {
    std::string_view name;
    Span span;
    bool has_correlation = false;
    int64_t correlation = 0;
    bool has_group = false;
    int64_t group = 0;
    bool has_step = false;  // a step marker (jax.profiler.StepTraceAnnotation: step_num)
    int64_t step = 0;
  };

  core::model::StringId Intern(std::string_view text);
  // Grows the span kept for `key` to cover `span`.
  static void Widen(std::map<int64_t, Span>& spans, int64_t key, Span span);
  // False (and counted) for an aggregate event or one whose time cannot be had.
  bool Facts(const XPlane& plane, const XLine& line, const XEvent& event, EventFacts& out);
  void AddDevicePlane(const XPlane& plane);
  void AddHostPlane(const XPlane& plane);
  // A line's events as cpu_slice records on `thread`, nested by time.
  void AddSlices(const XPlane& plane, const XLine& line, core::model::ThreadId thread,
                 bool launches);
  core::model::ProcessId HostProcess();
  void PlaneStatsAsMeta(const XPlane& plane);

  core::store::TraceWriter& m_writer;
  const XSpaceHeader& m_header;
  std::string_view m_label;
  RecordSink m_sink;
  std::vector<std::string> m_names;  // [string id] text, for the flows' names
  core::model::ProcessId m_host_process = 0;
  int64_t m_next_packet = 1;
  std::vector<Packet> m_packets;
  std::unordered_map<int64_t, Launch> m_launches;  // correlation_id -> earliest host event
  std::map<int64_t, Span> m_groups;                // group_id -> what its events cover
  std::map<int64_t, Span> m_step_marks;            // step_num -> its marker events
  XplaneCounts m_counts;
  uint64_t m_first_unknown_metadata_offset = 0;
  uint64_t m_first_bad_time_offset = 0;
  uint64_t m_first_aggregate_offset = 0;
};

}  // namespace importers::xplane
