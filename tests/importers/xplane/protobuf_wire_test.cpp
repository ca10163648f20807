// The protobuf wire reader on hand-written bytes: fields of each wire type, and every malformed
// case refused with the byte offset of the field at fault.
#include <gtest/gtest.h>

#include <string>

#include "importers/xplane/protobuf_wire.h"
#include "importers/xplane/xspace_reader.h"
#include "tests/support/test_support.h"

namespace {

using importers::xplane::WireField;
using importers::xplane::WireReader;
using importers::xplane::WireType;

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

TEST(ProtobufWire, ReadsEachWireTypeAtItsOffset) {
  // field 1 varint 300; field 2 "hi"; field 3 fixed64 1.5; field 4 fixed32 7
  const std::string bytes = Bytes({0x08, 0xAC, 0x02, 0x12, 0x02, 'h', 'i', 0x19, 0, 0, 0, 0, 0,
                                   0, 0xF8, 0x3F, 0x25, 7, 0, 0, 0});
  WireReader r(bytes, 100, "f");
  WireField f;
  ASSERT_TRUE(r.Next(f));
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(f.value, 300u);
  EXPECT_EQ(f.offset, 100u);
  ASSERT_TRUE(r.Next(f));
  EXPECT_EQ(f.bytes, "hi");
  EXPECT_EQ(f.offset, 103u);
  EXPECT_EQ(f.content_offset, 105u);
  ASSERT_TRUE(r.Next(f));
  EXPECT_EQ(f.type, WireType::kFixed64);
  EXPECT_EQ(importers::xplane::AsDouble(f), 1.5);
  ASSERT_TRUE(r.Next(f));
  EXPECT_EQ(f.type, WireType::kFixed32);
  EXPECT_EQ(f.value, 7u);
  EXPECT_FALSE(r.Next(f));
}

TEST(ProtobufWire, NegativeInt64IsTenBytes) {
  const std::string bytes =
      Bytes({0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01});
  WireReader r(bytes, 0, "f");
  WireField f;
  ASSERT_TRUE(r.Next(f));
  EXPECT_EQ(importers::xplane::AsInt64(f), -1);
}

std::string ErrorOfReading(const std::string& bytes) {
  return test_support::ErrorOf([&] {
    WireReader r(bytes, 0, "x.pb");
    WireField f;
    while (r.Next(f)) {
    }
  });
}

TEST(ProtobufWire, MalformedFieldsNameTheirByte) {
  // A length past the end: field 2 claims 9 bytes, 2 follow.
  EXPECT_EQ(ErrorOfReading(Bytes({0x08, 0x01, 0x12, 0x09, 'a', 'b'})),
            "x.pb: byte 2: protobuf field 2 claims 9 bytes, 2 are left in its message");
  // A claimed length near 2^63 allocates nothing and is refused the same way.
  EXPECT_EQ(ErrorOfReading(Bytes({0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F})),
            "x.pb: byte 0: protobuf field 2 claims 9223372036854775807 bytes, 0 are left in its "
            "message");
  EXPECT_EQ(ErrorOfReading(Bytes({0x08, 0x80, 0x80})),
            "x.pb: byte 0: protobuf field cut off inside a varint (the message ends first)");
  EXPECT_EQ(ErrorOfReading(Bytes({0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                  0x02})),
            "x.pb: byte 0: protobuf varint longer than 64 bits");
  EXPECT_EQ(ErrorOfReading(Bytes({0x08, 0x01, 0x0B})),
            "x.pb: byte 2: protobuf field 1 has wire type 3 (groups, which this format never "
            "uses)");
  EXPECT_EQ(ErrorOfReading(Bytes({0x07})),
            "x.pb: byte 0: protobuf field number 0 (valid numbers are 1 to 536870911)");
  EXPECT_EQ(ErrorOfReading(Bytes({0x0D, 1, 2})),
            "x.pb: byte 0: protobuf field 1: a 4-byte value, 2 bytes left in its message");
}

TEST(ProtobufWire, NestingDeeperThanTheLimitIsRefused) {
  // kMaxNesting + 1 messages, each field 1 holding the next.
  std::string bytes = Bytes({0x08, 0x01});
  for (int i = 0; i <= importers::xplane::kMaxNesting; ++i) {
    bytes = Bytes({0x0A, static_cast<int>(bytes.size())}) + bytes;
  }
  const std::string error = test_support::ErrorOf([&] {
    WireReader r(bytes, 0, "deep.pb");
    WireField f;
    while (r.Next(f) && f.type == WireType::kLen) r = r.Nested(f);
  });
  EXPECT_EQ(error, "deep.pb: byte " + std::to_string(2 * importers::xplane::kMaxNesting) +
                       ": protobuf messages nested more than 16 deep");
}

TEST(XSpaceSniff, TellsAnXSpaceFromTextAndOtherMessages) {
  using importers::xplane::LooksLikeXSpace;
  // A plane named "/host:CPU" with id 3.
  const std::string plane = Bytes({0x08, 0x03, 0x12, 0x09}) + "/host:CPU";
  EXPECT_TRUE(LooksLikeXSpace(Bytes({0x0A, static_cast<int>(plane.size())}) + plane));
  // Cut off inside its first plane: still an XSpace (the import says where it ends).
  EXPECT_TRUE(LooksLikeXSpace(Bytes({0x0A, 0x7F}) + plane));
  EXPECT_FALSE(LooksLikeXSpace("\n{\"traceEvents\": []}"));
  EXPECT_FALSE(LooksLikeXSpace(Bytes({0x0A, 0x05}) + "hello"));
  EXPECT_FALSE(LooksLikeXSpace(""));
}

}  // namespace
