// The intermediate form of a Chrome trace event: what the parser keeps of each event (compact,
// no JSON tree), and the tables the events point into. The builder sorts these and turns them
// into fencescope records.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/types.h"

namespace importers::chrome_json {

using core::model::StringId;
using core::model::TimeNs;

constexpr uint32_t kNone = 0xFFFFFFFFu;

// pid or tid as the file gives it: a 64-bit integer, or a string (interned, local string id).
struct IdKey {
  int64_t value = 0;
  bool is_string = false;
  bool operator==(const IdKey& o) const { return value == o.value && is_string == o.is_string; }
};

// event.bits
constexpr uint8_t kBindEnclosing = 1;  // flow event with "bp":"e"
constexpr uint8_t kFlowIn = 2;         // flow v2 consumer
constexpr uint8_t kFlowOut = 4;        // flow v2 producer
constexpr uint8_t kConsumed = 8;       // an E / e / F already folded into its begin event
constexpr uint8_t kHasDuration = 16;   // dur known (X, or B/b/S matched with its end)
constexpr uint8_t kHasId = 32;         // `id` holds the event's id / id2
constexpr uint8_t kIdIsString = 64;    // ... as a local string index (else the numeric id itself)

struct ParsedEvent {
  TimeNs ts = 0;        // ns, relative to the file's own origin (baseTimeNanoseconds added later)
  TimeNs dur = 0;       // ns, valid with kHasDuration
  uint64_t offset = 0;  // byte offset of the event in the decoded content
  uint32_t seq = 0;     // position in the file
  uint32_t track = 0;   // index into ParsedTrace::tracks
  StringId name = 0;    // writer string ids
  StringId cat = 0;
  // With kHasId: a numeric id without scope (the common case: no string kept per id), or with
  // kIdIsString the local string index of "scope:id[:pid]".
  uint64_t id = 0;
  uint32_t bind_id = kNone;  // local id of the flow v2 bind_id
  uint32_t extra = kNone;    // C: first counter value; Kineto events: index into kineto_args
  uint16_t extra_count = 0;  // C: number of counter values
  char ph = 0;
  uint8_t scope = 0;  // instants: 0 thread, 1 process, 2 global
  uint8_t bits = 0;
};

// Track::metadata / ProcessEntry::metadata: which fields metadata events have set (so that
// parts parsed apart are merged as if parsed in order).
constexpr uint8_t kNameSet = 1;
constexpr uint8_t kLabelsSet = 2;
constexpr uint8_t kSortIndexSet = 4;

// A (pid, tid) pair seen in the file.
struct Track {
  IdKey pid;
  IdKey tid;
  uint32_t process = 0;  // index into ParsedTrace::processes
  std::string name;      // thread_name metadata
  int32_t sort_index = 0;
  bool has_sort_index = false;
  bool gpu_stream = false;  // holds kernels / memcpys / memsets / cuda_sync of a device
  uint8_t metadata = 0;     // k*Set bits
};

struct ProcessEntry {
  IdKey pid;
  std::string name;    // process_name
  std::string labels;  // process_labels
  int32_t sort_index = 0;
  bool gpu_device = false;  // a Kineto device (pid = device index)
  uint8_t metadata = 0;     // k*Set bits
};

// The arguments of fencescope's own export (core/export/chrome_json_export.h): fence boxes.
// Kept apart from KinetoArgs, which a PyTorch trace has for every runtime call and kernel.
struct ExportArgs {
  int64_t fence = -1;
  uint64_t fence_value = 0;
  int64_t signal_id = -1;
  int64_t submitted_ns = -1;  // packet_submitted time of a packet
  bool open = false;          // the box never ended in the exported trace
  bool not_started = false;   // a packet that was submitted but never started
};

// The numeric Kineto arguments the GPU mapping needs (-1 when absent).
struct KinetoArgs {
  int64_t correlation = -1;
  int64_t stream = -1;
  int64_t wait_on_stream = -1;
  int64_t wait_on_record_correlation = -1;  // wait_on_cuda_event_record_corr_id
  int64_t wait_on_event_id = -1;            // wait_on_cuda_event_id
  uint32_t exported = kNone;  // index into ParsedTrace::export_args (kNone: the event has none)
  int32_t device = -1;        // args.device: the device's pid (MTIA runtime calls)
};
// Read for every runtime call and kernel of a Kineto trace: kept to 48 bytes.
static_assert(sizeof(KinetoArgs) == 48);

struct CounterValue {
  StringId key = 0;  // args key
  double value = 0;
};

// A piece of the file's content, [begin, end).
struct PieceRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

struct ParsedTrace {
  std::vector<ParsedEvent> events;
  std::vector<Track> tracks;
  std::vector<ProcessEntry> processes;
  std::vector<KinetoArgs> kineto_args;
  std::vector<ExportArgs> export_args;
  std::vector<CounterValue> counter_values;
  std::vector<std::string> local_strings;  // pid/tid strings and normalised ids
  std::vector<std::string> writer_strings;  // [writer StringId] -> text, for what we interned
  std::unordered_map<std::string, std::string> top_level;  // top-level scalar members
  int64_t base_time_ns = 0;  // baseTimeNanoseconds
  std::string fencescope_topology;  // fencescope's own export: "fencescopeTopology" (JSON text)
  // --lenient: malformed events skipped in the parse pass (written as a problem by the builder).
  uint64_t bad_events_skipped = 0;  // --lenient only
  std::string first_bad_event;      // place and reason of the first one
  // Pieces parsed without their bracket kinds checked (parallel_event_parse.h); the import
  // checks them while it writes the records.
  std::vector<PieceRange> unchecked_pieces;
};

}  // namespace importers::chrome_json
