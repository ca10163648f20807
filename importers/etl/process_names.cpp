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

}  // namespace importers::etl
