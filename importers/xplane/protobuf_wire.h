// A reader of the protocol buffer wire format (varints, fixed 32 / 64-bit values and
// length-delimited fields), bounded for untrusted input: a length is checked against the bytes
// left before anything is made of it (nothing is allocated from a claimed size), and a message
// may nest only so deep. Every error names the file and the byte offset where the field began.
// It knows no schema: the XSpace reader (xspace_reader.h) gives the field numbers their meaning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace importers::xplane {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

struct WireField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;       // kVarint, kFixed64, kFixed32: the raw bits
  std::string_view bytes;   // kLen: the field's content
  uint64_t offset = 0;      // in the file: where the field's tag begins
  uint64_t content_offset = 0;  // in the file: where `bytes` begins
};

// Messages nested deeper than this are refused (an XSpace needs 6: space, plane, line, event,
// stat, and a map entry's value).
constexpr int kMaxNesting = 16;

// Walks the fields of one message held in `bytes`, which begin at `base_offset` in the file
// named `label`. The label and the whole input are only referred to, never copied.
class WireReader {
 public:
  WireReader(std::string_view bytes, uint64_t base_offset, std::string_view label, int depth = 0);

  // The next field into `field`; false at the end of the message. Throws core::Error on a
  // malformed field (a varint of more than 10 bytes, a length past the end, wire types 3 / 4 /
  // 6 / 7, field number 0).
  bool Next(WireField& field);

  // The message held in a kLen field, one level deeper; throws core::Error past kMaxNesting.
  WireReader Nested(const WireField& field) const;

  // "LABEL: byte N: what" as a core::Error.
  [[noreturn]] void Fail(uint64_t offset, std::string_view what) const;

  std::string_view label() const { return m_label; }
  int depth() const { return m_depth; }

 private:
  uint64_t ReadVarint(uint64_t field_offset);

  std::string_view m_bytes;
  uint64_t m_base = 0;
  size_t m_pos = 0;
  std::string_view m_label;
  int m_depth = 0;
};

// Field values as the .proto types read them.
inline int64_t AsInt64(const WireField& f) { return static_cast<int64_t>(f.value); }
double AsDouble(const WireField& f);

}  // namespace importers::xplane
