// Reads an XSpace: the profile JAX, TensorFlow and PyTorch/XLA write (`*.xplane.pb`, the
// profiler plugin's `plugins/profile/RUN/HOST.xplane.pb`). The field numbers of its messages are
// written out below from the public description of the format (xplane.proto of the TSL
// profiler); the bytes are read by this project's own wire reader (protobuf_wire.h).
//
// Planes are handed over one at a time, so that only one plane's lines and events are held at
// once. Every text is a view into the input, which must outlive what is read.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace importers::xplane {

struct XStat {
  enum class Kind : uint8_t { kNone, kDouble, kUint64, kInt64, kString, kBytes, kRef };
  int64_t metadata_id = 0;
  Kind kind = Kind::kNone;
  uint64_t bits = 0;       // kUint64, kInt64 (two's complement), kRef (a stat metadata id)
  double number = 0;       // kDouble
  std::string_view text;   // kString, kBytes
  uint64_t offset = 0;     // in the file
};

struct XEvent {
  int64_t metadata_id = 0;
  int64_t offset_ps = 0;
  int64_t num_occurrences = 0;
  bool aggregate = false;  // num_occurrences was given (the oneof's other arm): not a time
  int64_t duration_ps = 0;
  uint32_t first_stat = 0;  // into XPlane::event_stats
  uint32_t stat_count = 0;
  uint64_t offset = 0;  // in the file
};

struct XLine {
  int64_t id = 0;
  int64_t display_id = 0;
  std::string_view name;
  std::string_view display_name;
  int64_t timestamp_ns = 0;
  int64_t duration_ps = 0;
  std::vector<XEvent> events;
  uint64_t offset = 0;
};

struct XEventMetadata {
  std::string_view name;
  std::string_view display_name;
  std::vector<XStat> stats;  // constant for every event of this metadata
};

struct XPlane {
  int64_t id = 0;
  std::string_view name;
  std::vector<XLine> lines;
  std::unordered_map<int64_t, XEventMetadata> event_metadata;
  std::unordered_map<int64_t, std::string_view> stat_names;  // XStatMetadata id -> name
  std::vector<XStat> stats;        // the plane's own (device capabilities, ...)
  std::vector<XStat> event_stats;  // every event's, XEvent::first_stat indexes it
  uint64_t offset = 0;
};

// What an XSpace says besides its planes.
struct XSpaceHeader {
  uint64_t planes = 0;
  std::vector<std::string_view> errors;
  std::vector<std::string_view> warnings;
  std::vector<std::string_view> hostnames;
  // The "Task Environment" plane's profile_start_time (ns since the UNIX epoch), when given:
  // the profiler subtracts it from every line's timestamp_ns that was not below it already.
  bool has_profile_start = false;
  int64_t profile_start_ns = 0;
};

// True when `bytes` begins like a serialized XSpace: a first plane whose fields are those of an
// XPlane, named in printable text. A first plane cut off by the end of `bytes` still counts (the
// import then says where the file ends).
bool LooksLikeXSpace(std::string_view bytes);

// The space's errors, warnings and hostnames, and how many planes it has; walks the top level
// only. Throws core::Error ("LABEL: byte N: ...") on malformed input.
XSpaceHeader ReadXSpaceHeader(std::string_view bytes, std::string_view label);

// Decodes each plane in file order and hands it to `on_plane`. Throws core::Error naming the
// byte offset of the field at fault.
void ForEachPlane(std::string_view bytes, std::string_view label,
                  const std::function<void(const XPlane&)>& on_plane);

// The stat's value as a signed integer (kUint64, kInt64, kRef bits; a double truncated);
// false for text.
bool StatInteger(const XStat& stat, int64_t* value);

}  // namespace importers::xplane
