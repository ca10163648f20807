#include "importers/xplane/xspace_reader.h"

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/xplane/protobuf_wire.h"

namespace importers::xplane {

namespace {

// Field numbers (xplane.proto of the TSL profiler, package tensorflow.profiler).
namespace space {
constexpr uint32_t kPlanes = 1, kErrors = 2, kWarnings = 3, kHostnames = 4;
}
namespace plane {
constexpr uint32_t kId = 1, kName = 2, kLines = 3, kEventMetadata = 4, kStatMetadata = 5,
                   kStats = 6;
}
namespace line {
constexpr uint32_t kId = 1, kName = 2, kTimestampNs = 3, kEvents = 4, kDurationPs = 9,
                   kDisplayId = 10, kDisplayName = 11;
}
namespace event {
constexpr uint32_t kMetadataId = 1, kOffsetPs = 2, kDurationPs = 3, kStats = 4,
                   kNumOccurrences = 5;
}
namespace stat {
constexpr uint32_t kMetadataId = 1, kDouble = 2, kUint64 = 3, kInt64 = 4, kString = 5,
                   kBytes = 6, kRef = 7;
}
namespace event_metadata {
constexpr uint32_t kId = 1, kName = 2, kDisplayName = 4, kStats = 5;
}
namespace stat_metadata {
constexpr uint32_t kId = 1, kName = 2;
}
namespace map_entry {  // a map<int64, Message> entry
constexpr uint32_t kKey = 1, kValue = 2;
}

// The wire type a known field must have; another one means the bytes are not an XSpace.
void Expect(const WireReader& r, const WireField& f, WireType type, const char* what) {
  if (f.type == type) return;
  static constexpr const char* kTypeNames[] = {"a varint", "a 64-bit value", "length-delimited",
                                               "", "", "a 32-bit value"};
  r.Fail(f.offset,
         fmt::format("{} (field {}) should be {}, is {}: not an XSpace (.xplane.pb) as the "
                     "profiler writes it",
                     what, f.number, kTypeNames[static_cast<int>(type)],
                     kTypeNames[static_cast<int>(f.type)]));
}

int64_t Int(const WireReader& r, const WireField& f, const char* what) {
  Expect(r, f, WireType::kVarint, what);
  return AsInt64(f);
}

std::string_view Text(const WireReader& r, const WireField& f, const char* what) {
  Expect(r, f, WireType::kLen, what);
  return f.bytes;
}

// A field that holds a message: refused with its name when it has another wire type.
WireReader Message(const WireReader& r, const WireField& f, const char* what) {
  Expect(r, f, WireType::kLen, what);
  return r.Nested(f);
}

XStat ReadStat(WireReader r, uint64_t offset) {
  XStat out;
  out.offset = offset;
  WireField f;
  while (r.Next(f)) {
    switch (f.number) {
      case stat::kMetadataId:
        out.metadata_id = Int(r, f, "XStat.metadata_id");
        break;
      case stat::kDouble:
        Expect(r, f, WireType::kFixed64, "XStat.double_value");
        out.kind = XStat::Kind::kDouble;
        out.number = AsDouble(f);
        break;
      case stat::kUint64:
      case stat::kInt64:
      case stat::kRef:
        Expect(r, f, WireType::kVarint, "XStat integer value");
        out.kind = f.number == stat::kUint64  ? XStat::Kind::kUint64
                   : f.number == stat::kInt64 ? XStat::Kind::kInt64
                                              : XStat::Kind::kRef;
        out.bits = f.value;
        break;
      case stat::kString:
      case stat::kBytes:
        Expect(r, f, WireType::kLen, "XStat text value");
        out.kind = f.number == stat::kString ? XStat::Kind::kString : XStat::Kind::kBytes;
        out.text = f.bytes;
        break;
      default:
        break;  // a field this reader does not know: skipped
    }
  }
  return out;
}

void ReadEvent(WireReader r, XEvent& out, std::vector<XStat>& stats) {
  out.first_stat = static_cast<uint32_t>(stats.size());
  WireField f;
  while (r.Next(f)) {
    switch (f.number) {
      case event::kMetadataId:
        out.metadata_id = Int(r, f, "XEvent.metadata_id");
        break;
      case event::kOffsetPs:
        out.offset_ps = Int(r, f, "XEvent.offset_ps");
        out.aggregate = false;  // a oneof: the last of its fields counts
        break;
      case event::kNumOccurrences:
        out.num_occurrences = Int(r, f, "XEvent.num_occurrences");
        out.aggregate = true;
        break;
      case event::kDurationPs:
        out.duration_ps = Int(r, f, "XEvent.duration_ps");
        break;
      case event::kStats:
        stats.push_back(ReadStat(Message(r, f, "XEvent.stats"), f.offset));
        break;
      default:
        break;
    }
  }
  out.stat_count = static_cast<uint32_t>(stats.size()) - out.first_stat;
}

void ReadLine(WireReader r, XLine& out, std::vector<XStat>& stats) {
  WireField f;
  while (r.Next(f)) {
    switch (f.number) {
      case line::kId:
        out.id = Int(r, f, "XLine.id");
        break;
      case line::kDisplayId:
        out.display_id = Int(r, f, "XLine.display_id");
        break;
      case line::kName:
        out.name = Text(r, f, "XLine.name");
        break;
      case line::kDisplayName:
        out.display_name = Text(r, f, "XLine.display_name");
        break;
      case line::kTimestampNs:
        out.timestamp_ns = Int(r, f, "XLine.timestamp_ns");
        break;
      case line::kDurationPs:
        out.duration_ps = Int(r, f, "XLine.duration_ps");
        break;
      case line::kEvents: {
        XEvent e;
        e.offset = f.offset;
        ReadEvent(Message(r, f, "XLine.events"), e, stats);
        out.events.push_back(e);
        break;
      }
      default:
        break;
    }
  }
}

void ReadEventMetadataEntry(WireReader r, XPlane& out) {
  int64_t key = 0;
  XEventMetadata value;
  WireField f;
  while (r.Next(f)) {
    if (f.number == map_entry::kKey) {
      key = Int(r, f, "XPlane.event_metadata key");
    } else if (f.number == map_entry::kValue) {
      WireReader m = Message(r, f, "XPlane.event_metadata value");
      WireField g;
      while (m.Next(g)) {
        switch (g.number) {
          case event_metadata::kId:
            Expect(m, g, WireType::kVarint, "XEventMetadata.id");
            break;
          case event_metadata::kName:
            value.name = Text(m, g, "XEventMetadata.name");
            break;
          case event_metadata::kDisplayName:
            value.display_name = Text(m, g, "XEventMetadata.display_name");
            break;
          case event_metadata::kStats:
            value.stats.push_back(ReadStat(Message(m, g, "XEventMetadata.stats"), g.offset));
            break;
          default:
            break;
        }
      }
    }
  }
  out.event_metadata[key] = std::move(value);  // a key given twice: the last entry counts
}

void ReadStatMetadataEntry(WireReader r, XPlane& out) {
  int64_t key = 0;
  std::string_view name;
  WireField f;
  while (r.Next(f)) {
    if (f.number == map_entry::kKey) {
      key = Int(r, f, "XPlane.stat_metadata key");
    } else if (f.number == map_entry::kValue) {
      WireReader m = Message(r, f, "XPlane.stat_metadata value");
      WireField g;
      while (m.Next(g)) {
        if (g.number == stat_metadata::kName) {
          name = Text(m, g, "XStatMetadata.name");
        } else if (g.number == stat_metadata::kId) {
          Expect(m, g, WireType::kVarint, "XStatMetadata.id");
        }
      }
    }
  }
  out.stat_names[key] = name;
}

void ReadPlane(WireReader r, XPlane& out) {
  WireField f;
  while (r.Next(f)) {
    switch (f.number) {
      case plane::kId:
        out.id = Int(r, f, "XPlane.id");
        break;
      case plane::kName:
        out.name = Text(r, f, "XPlane.name");
        break;
      case plane::kLines: {
        XLine l;
        l.offset = f.offset;
        ReadLine(Message(r, f, "XPlane.lines"), l, out.event_stats);
        out.lines.push_back(std::move(l));
        break;
      }
      case plane::kEventMetadata:
        ReadEventMetadataEntry(Message(r, f, "XPlane.event_metadata"), out);
        break;
      case plane::kStatMetadata:
        ReadStatMetadataEntry(Message(r, f, "XPlane.stat_metadata"), out);
        break;
      case plane::kStats:
        out.stats.push_back(ReadStat(Message(r, f, "XPlane.stats"), f.offset));
        break;
      default:
        break;
    }
  }
}

// The plane "Task Environment" and its stat profile_start_time; other planes are only walked.
void FindProfileStart(WireReader r, uint64_t offset, XSpaceHeader& out) {
  WireReader walk = r;
  WireField f;
  bool environment = false;
  while (walk.Next(f)) {
    if (f.number == plane::kName && f.type == WireType::kLen) {
      environment = f.bytes == "Task Environment";
    }
  }
  if (!environment) return;
  XPlane p;
  p.offset = offset;
  ReadPlane(r, p);
  for (const XStat& s : p.stats) {
    auto name = p.stat_names.find(s.metadata_id);
    int64_t value = 0;
    if (name != p.stat_names.end() && name->second == "profile_start_time" &&
        StatInteger(s, &value)) {
      out.has_profile_start = true;
      out.profile_start_ns = value;
    }
  }
}

bool Printable(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) return false;
  }
  return true;
}

}  // namespace

bool LooksLikeXSpace(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != 0x0A) return false;  // field 1, LEN
  // The first plane's length, then its fields as far as `bytes` holds them.
  size_t pos = 1;
  uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    if (pos >= bytes.size() || shift > 63) return false;
    const auto b = static_cast<uint8_t>(bytes[pos++]);
    length |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  const std::string_view first =
      bytes.substr(pos, static_cast<size_t>(std::min<uint64_t>(length, bytes.size() - pos)));
  WireReader r(first, pos, "");
  WireField f;
  int fields = 0;
  bool named = false;
  try {
    while (fields < 2 && r.Next(f)) {
      ++fields;
      const bool varint = f.number == plane::kId;
      if (f.number < plane::kId || f.number > plane::kStats) return false;
      if (varint != (f.type == WireType::kVarint)) return false;
      if (!varint && f.type != WireType::kLen) return false;
      if (f.number == plane::kName) named = Printable(f.bytes);
    }
  } catch (const core::Error&) {
    return false;
  }
  return named;
}

XSpaceHeader ReadXSpaceHeader(std::string_view bytes, std::string_view label) {
  XSpaceHeader out;
  WireReader r(bytes, 0, label);
  WireField f;
  while (r.Next(f)) {
    switch (f.number) {
      case space::kPlanes:
        ++out.planes;
        FindProfileStart(Message(r, f, "XSpace.planes"), f.offset, out);
        break;
      case space::kErrors:
        Expect(r, f, WireType::kLen, "XSpace.errors");
        out.errors.push_back(f.bytes);
        break;
      case space::kWarnings:
        Expect(r, f, WireType::kLen, "XSpace.warnings");
        out.warnings.push_back(f.bytes);
        break;
      case space::kHostnames:
        Expect(r, f, WireType::kLen, "XSpace.hostnames");
        out.hostnames.push_back(f.bytes);
        break;
      default:
        break;
    }
  }
  return out;
}

void ForEachPlane(std::string_view bytes, std::string_view label,
                  const std::function<void(const XPlane&)>& on_plane) {
  WireReader r(bytes, 0, label);
  WireField f;
  while (r.Next(f)) {
    if (f.number != space::kPlanes) continue;
    XPlane p;
    p.offset = f.offset;
    ReadPlane(Message(r, f, "XSpace.planes"), p);
    on_plane(p);
  }
}

bool StatInteger(const XStat& stat, int64_t* value) {
  switch (stat.kind) {
    case XStat::Kind::kUint64:
    case XStat::Kind::kInt64:
    case XStat::Kind::kRef:
      *value = static_cast<int64_t>(stat.bits);
      return true;
    case XStat::Kind::kDouble:
      if (!(stat.number >= -9.2e18 && stat.number <= 9.2e18)) return false;
      *value = static_cast<int64_t>(stat.number);
      return true;
    default:
      return false;
  }
}

}  // namespace importers::xplane
