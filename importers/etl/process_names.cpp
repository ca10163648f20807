#include "importers/etl/process_names.h"

#include <cstring>

namespace importers::etl {
namespace {

// Bytes before ImageName, or 0 when (id, version) is not decoded. `payload` is needed for the
// SID's length.
size_t ImageNameOffset(uint16_t id, uint8_t version, std::string_view payload) {
  if (id == 1 && version == 0) return 20;
  if (id == 1 && (version == 1 || version == 2)) return 24;
  if ((id == 1 && version == 3) || (id == 15 && version == 1)) {
    constexpr size_t kSid = 48;
    if (payload.size() < kSid + 8) return 0;
    const auto sub_authorities = static_cast<unsigned char>(payload[kSid + 1]);
    return kSid + 8 + 4 * size_t{sub_authorities};
  }
  return 0;
}

}  // namespace

bool DecodeProcessName(uint16_t id, uint8_t version, std::string_view payload, ProcessName* out) {
  const size_t at = ImageNameOffset(id, version, payload);
  if (at == 0 || payload.size() < at + 2) return false;
  uint32_t pid = 0;
  std::memcpy(&pid, payload.data(), 4);
  std::string image;
  size_t i = at;
  for (; i + 1 < payload.size(); i += 2) {
    const auto lo = static_cast<unsigned char>(payload[i]);
    const auto hi = static_cast<unsigned char>(payload[i + 1]);
    const unsigned code = lo | (hi << 8);
    if (code == 0) break;
    // Names are shown, not round-tripped: characters outside ASCII become '?'.
    image.push_back(code < 0x80 ? static_cast<char>(code) : '?');
  }
  if (i + 1 >= payload.size()) return false;  // no terminator: not this layout
  const size_t slash = image.find_last_of("\\/");
  if (slash != std::string::npos) image.erase(0, slash + 1);
  if (image.empty()) return false;
  out->pid = pid;
  out->image = std::move(image);
  return true;
}

bool DecodeKernelProcessName(uint8_t type, uint16_t version, uint8_t pointer_size,
                             std::string_view payload, ProcessName* out) {
  if (type != 1 && type != 3 && type != 4) return false;
  if (version < 2 || version > 5) return false;
  const size_t ptr = pointer_size == 4 ? 4 : 8;
  size_t at = ptr + 16;         // UniqueProcessKey .. ExitStatus
  if (version >= 3) at += ptr;  // DirectoryTableBase
  if (version >= 4) at += 4;    // Flags
  if (payload.size() < at + 4) return false;
  uint32_t pid = 0;
  std::memcpy(&pid, payload.data() + ptr, 4);
  uint32_t sid_start = 0;
  std::memcpy(&sid_start, payload.data() + at, 4);
  if (sid_start == 0) {
    at += 4;
  } else {
    if (payload.size() < at + 2 * ptr + 8) return false;
    const auto sub_authorities = static_cast<unsigned char>(payload[at + 2 * ptr + 1]);
    at += 2 * ptr + 8 + 4 * size_t{sub_authorities};
  }
  const size_t end = payload.find('\0', at);
  if (at >= payload.size() || end == std::string_view::npos || end == at) return false;
  std::string image(payload.substr(at, end - at));
  for (char& c : image) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80) c = '?';
  }
  out->pid = pid;
  out->image = std::move(image);
  return true;
}

}  // namespace importers::etl
