// The ETL container reader on hand-built files: header fields, records, truncation and corruption.
#include <gtest/gtest.h>

#include "core/model/error.h"
#include "importers/etl/etl_reader.h"
#include "tests/importers/etl/etl_builder.h"
#include "tests/support/test_support.h"

using namespace importers::etl;
using etl_test::Bytes;
using etl_test::EtlBuilder;

namespace {

// Three buffers: the logfile header plus 2 events, then 40 events (two buffers' worth at 96 bytes
// each with 16-byte payloads: 4096 - 72 = 4024 bytes hold 41 such records).
std::string ThreeBufferFile() {
  EtlBuilder b;
  b.LogfileHeader();
  for (int i = 0; i < 2; ++i) {
    b.Event(etl_test::kDxgKrnl, 179, 0, 1000 + i, Bytes().U64(0xABC).U32(0).U32(i));
  }
  b.NextBuffer();
  for (int i = 0; i < 60; ++i) {
    b.Event(etl_test::kMarkerProvider, 0, 1, 2000 + i, Bytes().Text("fifteen chars.."));
  }
  return b.Finish();
}

}  // namespace

TEST(EtlReader, ReadsLogfileHeaderFields) {
  const std::string file = ThreeBufferFile();
  EtlFile f = ReadEtl(file, "t.etl", {});
  ASSERT_TRUE(f.header.present);
  EXPECT_EQ(f.header.buffer_size, etl_test::kBufferSize);
  EXPECT_EQ(f.header.os_major, 10u);
  EXPECT_EQ(f.header.os_build, 17134u);
  EXPECT_EQ(f.header.processors, 8u);
  EXPECT_EQ(f.header.pointer_size, 4u);
  EXPECT_EQ(f.header.cpu_mhz, 3194u);
  EXPECT_EQ(f.header.perf_freq, etl_test::kPerfFreq);
  EXPECT_EQ(f.header.clock_type, 1u);
  EXPECT_EQ(f.header.buffers_written, 3u);
  EXPECT_EQ(f.header.logger_name, "TestSession");
  EXPECT_EQ(f.header.log_file_name, "C:\\test.etl");
}

TEST(EtlReader, ReadsEveryRecordOfEveryBuffer) {
  const std::string file = ThreeBufferFile();
  ASSERT_EQ(file.size(), 3u * etl_test::kBufferSize);
  EtlFile f = ReadEtl(file, "t.etl", {});
  EXPECT_EQ(f.buffers, 3u);
  EXPECT_EQ(f.system_records, 1u);
  ASSERT_EQ(f.events.size(), 62u);
  ASSERT_EQ(f.providers.size(), 2u);
  EXPECT_EQ(f.providers[0].ToString(), etl_test::kDxgKrnl);
  EXPECT_EQ(f.providers[1].ToString(), etl_test::kMarkerProvider);
  const EtlEvent& first = f.events[0];
  EXPECT_EQ(first.id, 179);
  EXPECT_EQ(first.timestamp, 1000);
  EXPECT_EQ(first.process_id, 100u);
  EXPECT_EQ(first.thread_id, 200u);
  EXPECT_EQ(first.payload_size, 16u);
  EXPECT_EQ(first.pointer_size, 8);
  // The second buffer starts at 4096; its first record's payload follows the 0x48 header and
  // the 80-byte event header.
  EXPECT_EQ(f.events[2].payload_offset, 4096u + 0x48 + 80);
  EXPECT_EQ(file.substr(f.events[2].payload_offset, f.events[2].payload_size),
            std::string("fifteen chars..\0", 16));
}

TEST(EtlReader, QpcTicksBecomeNanoseconds) {
  EXPECT_EQ(QpcToNs(3, 10'000'000), 300);
  EXPECT_EQ(QpcToNs(3'119'142, 3'119'142), 1'000'000'000);
  // Large tick counts must not overflow: 10^15 ticks at 3 GHz = 333,333.33 s.
  EXPECT_EQ(QpcToNs(1'000'000'000'000'000, 3'000'000'000), 333'333'333'333'333);
  // A corrupt timestamp far beyond what ns can hold saturates instead of overflowing.
  EXPECT_EQ(QpcToNs(INT64_MAX, 1000), INT64_MAX);
  EXPECT_EQ(QpcToNs(INT64_MIN, 1000), INT64_MIN);
  // A frequency above 9.2e9 (a damaged header's) still gives the exact ns: 1.5 * 2e10 + 1 ticks
  // at 2e10 Hz is 1.5 s and 0.05 ns, and the remainder times 10^9 passes 2^63.
  EXPECT_EQ(QpcToNs(30'000'000'001, 20'000'000'000), 1'500'000'000);
  EXPECT_EQ(QpcToNs(19'999'999'999, 20'000'000'000), 999'999'999);
}

TEST(EtlReader, EveryTruncationIsACleanErrorWithByteOffset) {
  const std::string file = ThreeBufferFile();
  int checked = 0;
  for (size_t cut = 0; cut < file.size(); cut += 61) {
    try {
      ReadEtl(std::string_view(file).substr(0, cut), "cut.etl", {});
      ADD_FAILURE() << "no error for a file cut at " << cut;
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("cut.etl"), std::string::npos) << e.what();
      if (cut > 0) {
        EXPECT_NE(std::string(e.what()).find("byte offset"), std::string::npos) << e.what();
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

TEST(EtlReader, TruncationAtABufferBoundaryIsCaughtByBuffersWritten) {
  const std::string file = ThreeBufferFile();
  const std::string error = test_support::ErrorOf(
      [&] { ReadEtl(std::string_view(file).substr(0, 2 * etl_test::kBufferSize), "cut.etl", {}); });
  EXPECT_NE(error.find("byte offset 8192: 2 buffers present"), std::string::npos) << error;
}

TEST(EtlReader, LenientSkipsATruncatedBufferAndCountsIt) {
  const std::string file = ThreeBufferFile();
  EtlReadOptions lenient;
  lenient.lenient = true;
  // Cut inside the third buffer: the first two buffers hold the header, 2 + 41 events.
  EtlFile f = ReadEtl(std::string_view(file).substr(0, 2 * 4096 + 1000), "cut.etl", lenient);
  EXPECT_EQ(f.skipped_buffers, 1u);
  EXPECT_EQ(f.events.size(), 2u + 41u);
  EXPECT_NE(f.first_skip_place.find("byte offset 8192"), std::string::npos) << f.first_skip_place;
}

TEST(EtlReader, CorruptRecordNamesItsOffsetOrIsSkippedWhenLenient) {
  std::string file = ThreeBufferFile();
  // Third record of the second buffer: 0x48 + 2 * 96 into the buffer. Make its size huge.
  const size_t record = 4096 + 0x48 + 2 * 96;
  file[record] = '\xF0';
  file[record + 1] = '\x7F';
  const std::string error = test_support::ErrorOf([&] { ReadEtl(file, "bad.etl", {}); });
  EXPECT_NE(error.find("byte offset " + std::to_string(record)), std::string::npos) << error;
  EtlReadOptions lenient;
  lenient.lenient = true;
  EtlFile f = ReadEtl(file, "bad.etl", lenient);
  EXPECT_EQ(f.skipped_buffers, 1u);
  EXPECT_EQ(f.events.size(), 62u - 41u);  // the whole second buffer is dropped, not half of it
}

TEST(EtlReader, BadRecordMarkerIsAnError) {
  std::string file = ThreeBufferFile();
  file[4096 + 0x48 + 3] = 0;  // marker byte 3 without its 0xC0 bits
  EXPECT_THROW(ReadEtl(file, "bad.etl", {}), core::Error);
}

TEST(EtlReader, SniffsTheContainerFromItsFirstBytes) {
  const std::string file = ThreeBufferFile();
  EXPECT_TRUE(LooksLikeEtl(std::string_view(file).substr(0, 512)));
  std::string not_etl(512, '\0');
  not_etl[1] = 0x10;  // a plausible buffer size, but no logfile-header record
  EXPECT_FALSE(LooksLikeEtl(not_etl));
  EXPECT_FALSE(LooksLikeEtl("[{\"ph\":\"X\"}]"));
}

TEST(EtlReader, ExtendedDataItemsPrecedeThePayload) {
  EtlBuilder b;
  b.LogfileHeader();
  // Two items (reserved, type, linkage bit, size, data, 8-aligned): 8 + 8 bytes with the
  // linkage bit set on the first, then 8 + 4 (+4 padding) on the last.
  Bytes ext;
  ext.U16(0).U16(1).U16(1).U16(8).U64(0x1111);
  ext.U16(0).U16(5).U16(0).U16(4).U32(0x2222).U32(0);
  b.EventWith(0x13, ext, etl_test::kDxgKrnl, 238, 0, 10, Bytes().U64(0xAB).U64(0xCD));
  const std::string file = b.Finish();
  EtlFile f = ReadEtl(file, "x.etl", {});
  ASSERT_EQ(f.events.size(), 1u);
  EXPECT_EQ(f.extended_events, 1u);
  EXPECT_EQ(f.events[0].payload_size, 16u);
  EXPECT_EQ(file.substr(f.events[0].payload_offset, 8), Bytes().U64(0xAB).str());
}

TEST(EtlReader, ThirtyTwoBitEventHeadersHaveFourBytePointers) {
  EtlBuilder b;
  b.LogfileHeader();
  b.EventWith(0x12, Bytes(), etl_test::kDxgKrnl, 238, 0, 10, Bytes().U32(0xAB).U32(0xCD));
  EtlFile f = ReadEtl(b.Finish(), "x.etl", {});
  ASSERT_EQ(f.events.size(), 1u);
  EXPECT_EQ(f.events[0].pointer_size, 4);
}
