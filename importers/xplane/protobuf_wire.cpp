#include "importers/xplane/protobuf_wire.h"

#include <cstring>

#include <fmt/format.h>

#include "core/model/error.h"

namespace importers::xplane {

WireReader::WireReader(std::string_view bytes, uint64_t base_offset, std::string_view label,
                       int depth)
    : m_bytes(bytes), m_base(base_offset), m_label(label), m_depth(depth) {}

void WireReader::Fail(uint64_t offset, std::string_view what) const {
  throw core::Error(fmt::format("{}: byte {}: {}", m_label, offset, what));
}

uint64_t WireReader::ReadVarint(uint64_t field_offset) {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (m_pos >= m_bytes.size()) {
      Fail(field_offset, "protobuf field cut off inside a varint (the message ends first)");
    }
    const uint8_t byte = static_cast<uint8_t>(m_bytes[m_pos++]);
    // The tenth byte holds bit 63 alone; more is not a 64-bit varint.
    if (shift == 63 && byte > 1) Fail(field_offset, "protobuf varint longer than 64 bits");
    result |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return result;
  }
  Fail(field_offset, "protobuf varint longer than 10 bytes");
}

bool WireReader::Next(WireField& field) {
  if (m_pos >= m_bytes.size()) return false;
  const uint64_t offset = m_base + m_pos;
  const uint64_t tag = ReadVarint(offset);
  const uint64_t number = tag >> 3;
  const uint32_t type = static_cast<uint32_t>(tag & 7);
  if (number == 0 || number > 0x1FFFFFFF) {
    Fail(offset, fmt::format("protobuf field number {} (valid numbers are 1 to 536870911)", number));
  }
  field.number = static_cast<uint32_t>(number);
  field.offset = offset;
  field.bytes = {};
  field.value = 0;
  switch (type) {
    case 0:
      field.type = WireType::kVarint;
      field.value = ReadVarint(offset);
      return true;
    case 1:
    case 5: {
      const size_t size = type == 1 ? 8 : 4;
      if (m_bytes.size() - m_pos < size) {
        Fail(offset, fmt::format("protobuf field {}: a {}-byte value, {} bytes left in its message",
                                 number, size, m_bytes.size() - m_pos));
      }
      uint64_t bits = 0;
      for (size_t i = 0; i < size; ++i) {  // little-endian on every host
        bits |= static_cast<uint64_t>(static_cast<uint8_t>(m_bytes[m_pos + i])) << (8 * i);
      }
      m_pos += size;
      field.type = type == 1 ? WireType::kFixed64 : WireType::kFixed32;
      field.value = bits;
      return true;
    }
    case 2: {
      const uint64_t length = ReadVarint(offset);
      const uint64_t left = m_bytes.size() - m_pos;
      // Checked before the length is used for anything: a claimed size allocates nothing.
      if (length > left) {
        Fail(offset, fmt::format("protobuf field {} claims {} bytes, {} are left in its message",
                                 number, length, left));
      }
      field.type = WireType::kLen;
      field.content_offset = m_base + m_pos;
      field.bytes = m_bytes.substr(m_pos, static_cast<size_t>(length));
      m_pos += static_cast<size_t>(length);
      return true;
    }
    default:
      Fail(offset, fmt::format("protobuf field {} has wire type {} ({})", number, type,
                               type == 3 || type == 4 ? "groups, which this format never uses"
                                                      : "no such wire type"));
  }
}

WireReader WireReader::Nested(const WireField& field) const {
  if (field.type != WireType::kLen) {
    Fail(field.offset, fmt::format("protobuf field {} should hold a message (wire type 2), has "
                                   "wire type {}",
                                   field.number, static_cast<int>(field.type)));
  }
  if (m_depth + 1 > kMaxNesting) {
    Fail(field.offset, fmt::format("protobuf messages nested more than {} deep", kMaxNesting));
  }
  return WireReader(field.bytes, field.content_offset, m_label, m_depth + 1);
}

double AsDouble(const WireField& f) {
  double d = 0;
  std::memcpy(&d, &f.value, sizeof(d));
  return d;
}

}  // namespace importers::xplane
