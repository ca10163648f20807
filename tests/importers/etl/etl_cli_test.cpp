// `fencescope import` on hand-built .etl files through the real binary: success, a clean error
// naming the byte offset for a truncated file (and no output left behind), --lenient.
#include <fstream>

#include <gtest/gtest.h>

#include "tests/importers/etl/etl_builder.h"
#include "tests/support/test_support.h"

using etl_test::Bytes;
using etl_test::EtlBuilder;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

// Two buffers: the logfile header and one VSyncDPC, then 10 QueuePacket Info events.
std::string TwoBuffers() {
  EtlBuilder b;
  b.LogfileHeader();
  b.Event(etl_test::kDxgKrnl, 17, 0, 100,
          Bytes().U64(0xAD).U32(0).U64(0).U32(0).U32(1).U64(95).U64(0).U32(0).U64(0));
  b.NextBuffer();
  for (int i = 0; i < 10; ++i) {
    b.Event(etl_test::kDxgKrnl, 179, 0, 200 + i, Bytes().U64(0xC0).U32(0).U32(i));
  }
  return b.Finish();
}

void Write(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST(EtlCli, ImportsAnEtlFileSniffedFromItsContent) {
  ScratchDir dir;
  Write(dir / "capture.bin", TwoBuffers());  // the name says nothing: content decides
  auto r = RunFencescope("import '" + (dir / "capture.bin").string() + "' -o '" +
                         (dir / "t.db").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ETW .etl"), std::string::npos) << r.out;
  auto q = RunFencescope("query '" + (dir / "t.db").string() +
                         "' \"SELECT ts_ns, marker_type FROM marker\" --csv");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("9500,1"), std::string::npos) << q.out;  // FrameQPCTime 95 at 10 MHz
}

TEST(EtlCli, TruncatedFileFailsWithItsByteOffsetAndWritesNothing) {
  ScratchDir dir;
  const std::string file = TwoBuffers();
  Write(dir / "cut.etl", std::string_view(file).substr(0, 4096 + 300));
  auto r = RunFencescope("import '" + (dir / "cut.etl").string() + "' -o '" +
                         (dir / "t.db").string() + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("cut.etl"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte offset 4096"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.db"));

  auto lenient = RunFencescope("import --lenient '" + (dir / "cut.etl").string() + "' -o '" +
                               (dir / "t.db").string() + "'");
  ASSERT_EQ(lenient.exit_code, 0) << lenient.err;
  auto q = RunFencescope("query '" + (dir / "t.db").string() +
                         "' \"SELECT count FROM import_problems WHERE name = "
                         "'etl_corrupt_buffer'\" --csv");
  EXPECT_NE(q.out.find("\n1"), std::string::npos) << q.out;
}
