// DxgKrnl payload decoding: sizes checked, BOOLs 4 bytes, counted arrays by their counts.
#include <gtest/gtest.h>

#include "importers/etl/dxgkrnl_decoder.h"
#include "tests/importers/etl/etl_builder.h"

using namespace importers::etl;
using etl_test::Bytes;

namespace {

// `payload`, which must be `size` bytes, decoded as event `id` version `version` of a capture
// with 8-byte pointers.
DxgEvent Decoded(uint16_t id, uint8_t version, const Bytes& payload, size_t size) {
  EXPECT_EQ(payload.size(), size) << "event " << id;
  DxgEvent ev;
  EXPECT_EQ(DecodeDxgKrnl(id, version, 8, payload.str(), &ev), DecodeStatus::kDecoded)
      << "event " << id;
  return ev;
}

DecodeStatus StatusOf(uint16_t id, uint8_t version, const Bytes& payload) {
  DxgEvent ev;
  return DecodeDxgKrnl(id, version, 8, payload.str(), &ev);
}

}  // namespace

TEST(DxgKrnlDecoder, QueuePacketStopHasFourByteBools) {
  // hContext, PacketType, SubmitSequence, bPreempted, bTimeouted, pQueuePacket = 32 bytes.
  Bytes stop;
  stop.U64(0xC0).U32(4).U32(77).U32(0).U32(1).U64(0x9000);
  const DxgEvent ev = Decoded(180, 1, stop, 32u);
  EXPECT_EQ(ev.type, DxgEventType::kQueuePacketStop);
  EXPECT_EQ(ev.context, 0xC0u);
  EXPECT_EQ(ev.packet_type, 4u);
  EXPECT_EQ(ev.sequence, 77u);
  EXPECT_FALSE(ev.preempted);
  EXPECT_TRUE(ev.timed_out);
  EXPECT_EQ(ev.queue_packet, 0x9000u);
  // One-byte booleans (26 bytes) are a different layout: refused, not misread.
  Bytes short_bools;
  short_bools.U64(0xC0).U32(4).U32(77).U8(0).U8(1).U64(0x9000);
  EXPECT_EQ(StatusOf(180, 1, short_bools), DecodeStatus::kBadSize);
}

TEST(DxgKrnlDecoder, QueuePacketStartIsSixtyBytes) {
  Bytes start;
  start.U64(0xC0).U32(0).U32(5).U64(4096).U32(3).U32(2).U32(1).U64(0xD0).U64(0xE0).U64(9);
  const DxgEvent ev = Decoded(178, 1, start, 60u);
  EXPECT_EQ(ev.sequence, 5u);
  EXPECT_TRUE(ev.present);
  EXPECT_EQ(ev.queue_packet, 0xE0u);
}

TEST(DxgKrnlDecoder, SignalPacketArraysFollowTheirCount) {
  Bytes two;
  two.U64(0xC0).U32(9).U32(0).U32(2).U64(0xA1).U64(0xA2).U64(10).U64(20).U64(0xF0);
  const DxgEvent ev = Decoded(245, 2, two, 28u + 2 * 16u);
  ASSERT_EQ(ev.objects.size(), 2u);
  EXPECT_EQ(ev.objects[0].object, 0xA1u);
  EXPECT_EQ(ev.objects[0].value, 10u);
  EXPECT_EQ(ev.objects[1].object, 0xA2u);
  EXPECT_EQ(ev.objects[1].value, 20u);
  EXPECT_EQ(ev.queue_packet, 0xF0u);
  // A count larger than the payload can hold is a size error, not a read past the end.
  Bytes lying;
  lying.U64(0xC0).U32(9).U32(0).U32(1000).U64(0xF0);
  EXPECT_EQ(StatusOf(245, 2, lying), DecodeStatus::kBadSize);
}

TEST(DxgKrnlDecoder, SignalSyncObject2HasContextsThenObjectsThenFlagsThenValues) {
  // Sizes seen in the sample: 36 (1 context, 1 object), 44 (2, 1), 60 (4, 1).
  Bytes b;
  b.U32(2).U64(0xC1).U64(0xC2).U32(1).U64(0xB0).U32(0).U64(0x318);
  const DxgEvent ev = Decoded(230, 0, b, 44u);
  ASSERT_EQ(ev.contexts.size(), 2u);
  EXPECT_EQ(ev.contexts[1], 0xC2u);
  ASSERT_EQ(ev.objects.size(), 1u);
  EXPECT_EQ(ev.objects[0].object, 0xB0u);
  EXPECT_EQ(ev.objects[0].value, 0x318u);
}

TEST(DxgKrnlDecoder, SignalFromGpuHasFlagsBeforeTheObjectCount) {
  Bytes b;
  b.U32(1).U64(0xC1).U32(0).U32(1).U64(0xB0).U64(0xCB5);
  const DxgEvent ev = Decoded(294, 0, b, 36u);
  ASSERT_EQ(ev.objects.size(), 1u);
  EXPECT_EQ(ev.objects[0].value, 0xCB5u);
}

TEST(DxgKrnlDecoder, UnwaitCpuWaiterHasValuesBeforeObjects) {
  Bytes b;
  b.U64(0xE0).U32(1).U64(0x1F2616).U64(0xB0).U32(0);
  const DxgEvent ev = Decoded(300, 0, b, 32u);
  ASSERT_EQ(ev.objects.size(), 1u);
  EXPECT_EQ(ev.objects[0].object, 0xB0u);
  EXPECT_EQ(ev.objects[0].value, 0x1F2616u);
}

TEST(DxgKrnlDecoder, PresentDecodesByVersion) {
  Bytes v0;
  v0.U32(0x40000EC0).U64(0x6C094C).U32(0).U32(0x04011081).U32(0).U64(1).U64(2);
  Decoded(184, 0, v0, 40u);
  EXPECT_EQ(StatusOf(184, 1, v0), DecodeStatus::kBadSize);
  Bytes v1;
  v1.U32(0x40000EC0).U64(0x6C094C).U32(0).U32(1).U32(0).U32(0).U64(1).U64(2);
  Decoded(184, 1, v1, 44u);
}

TEST(DxgKrnlDecoder, PointerSizeFollowsTheEvent) {
  // UnwaitQueuePacket: two pointers, 8 bytes on a 32-bit event header.
  Bytes b;
  b.U32(0x1234).U32(0x5678);
  DxgEvent ev;
  ASSERT_EQ(DecodeDxgKrnl(238, 0, 4, b.str(), &ev), DecodeStatus::kDecoded);
  EXPECT_EQ(ev.queue_packet, 0x1234u);
  EXPECT_EQ(ev.context, 0x5678u);
}

TEST(DxgKrnlDecoder, UnknownIdsAndVersionsAreNotDecoded) {
  DxgEvent ev;
  EXPECT_EQ(DecodeDxgKrnl(105, 0, 8, std::string(4, '\0'), &ev), DecodeStatus::kNotDecoded);
  EXPECT_EQ(DecodeDxgKrnl(178, 7, 8, std::string(60, '\0'), &ev), DecodeStatus::kNotDecoded);
}
