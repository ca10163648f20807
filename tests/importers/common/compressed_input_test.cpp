// Reading inputs: sniffing by content, gzip (several members), zip written by hand here (stored
// and deflate members, a folder entry, an unsupported method), and the place descriptions used
// in error messages. Expected bytes and places are worked out by hand.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>

#include "core/model/error.h"
#include "importers/common/compressed_input.h"
#include "importers/common/format_sniffer.h"
#include "importers/common/text_place.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace importers;

// Compresses with zlib: window_bits 16 + MAX_WBITS writes gzip, -MAX_WBITS raw deflate (zip).
std::string Deflate(const std::string& text, int window_bits) {
  z_stream s{};
  deflateInit2(&s, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
  std::string out(compressBound(text.size()) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}
std::string Gzip(const std::string& text) { return Deflate(text, 16 + MAX_WBITS); }
std::string RawDeflate(const std::string& text) { return Deflate(text, -MAX_WBITS); }

void Put16(std::string& s, uint16_t v) {
  s.push_back(static_cast<char>(v & 0xFF));
  s.push_back(static_cast<char>(v >> 8));
}
void Put32(std::string& s, uint32_t v) {
  Put16(s, static_cast<uint16_t>(v & 0xFFFF));
  Put16(s, static_cast<uint16_t>(v >> 16));
}

struct Member {
  std::string name, content;
  uint16_t method;  // 0 stored, 8 deflate, other: written as stored bytes with that method id
};

// A zip archive as APPNOTE.TXT lays it out: local headers + data, central directory, end record.
std::string Zip(const std::vector<Member>& members) {
  std::string zip, directory;
  for (const Member& m : members) {
    const std::string data = m.method == 8 ? RawDeflate(m.content) : m.content;
    const uint32_t crc = crc32(0, reinterpret_cast<const Bytef*>(m.content.data()),
                               static_cast<uInt>(m.content.size()));
    const uint32_t offset = static_cast<uint32_t>(zip.size());
    Put32(zip, 0x04034b50);
    Put16(zip, 20), Put16(zip, 0), Put16(zip, m.method), Put16(zip, 0), Put16(zip, 0);
    Put32(zip, crc), Put32(zip, static_cast<uint32_t>(data.size()));
    Put32(zip, static_cast<uint32_t>(m.content.size()));
    Put16(zip, static_cast<uint16_t>(m.name.size())), Put16(zip, 0);
    zip += m.name + data;
    Put32(directory, 0x02014b50);
    Put16(directory, 20), Put16(directory, 20), Put16(directory, 0), Put16(directory, m.method);
    Put16(directory, 0), Put16(directory, 0);
    Put32(directory, crc), Put32(directory, static_cast<uint32_t>(data.size()));
    Put32(directory, static_cast<uint32_t>(m.content.size()));
    Put16(directory, static_cast<uint16_t>(m.name.size()));
    Put16(directory, 0), Put16(directory, 0), Put16(directory, 0), Put16(directory, 0);
    Put32(directory, 0), Put32(directory, offset);
    directory += m.name;
  }
  const uint32_t dir_offset = static_cast<uint32_t>(zip.size());
  zip += directory;
  Put32(zip, 0x06054b50);
  Put16(zip, 0), Put16(zip, 0);
  Put16(zip, static_cast<uint16_t>(members.size())), Put16(zip, static_cast<uint16_t>(members.size()));
  Put32(zip, static_cast<uint32_t>(directory.size())), Put32(zip, dir_offset);
  Put16(zip, 0);
  return zip;
}

const std::string kJson = R"({"traceEvents":[{"ph":"i","name":"x","pid":1,"tid":1,"ts":1}]})";

TEST(Sniffer, ContentDecidesNotTheName) {
  EXPECT_EQ(SniffBytes(std::string("\x1f\x8b\x08", 3)), FileFormat::kGzip);
  EXPECT_EQ(SniffBytes("PK\x03\x04rest"), FileFormat::kZip);
  EXPECT_EQ(SniffBytes(std::string("PK\x05\x06", 4) + std::string(18, '\0')), FileFormat::kZip);
  EXPECT_EQ(SniffBytes("\xEF\xBB\xBF \n\t[{}]"), FileFormat::kJson);
  EXPECT_EQ(SniffBytes("  {\"traceEvents\":[]}"), FileFormat::kJson);
  EXPECT_EQ(SniffBytes(std::string("SQLite format 3\0", 16)), FileFormat::kFencescopeTrace);
  EXPECT_EQ(SniffBytes("# tracer: nop"), FileFormat::kFtraceText);
  EXPECT_EQ(SniffBytes("cpus=4\n  steam-25475 [003] 630659.115986: sched_switch: x"),
            FileFormat::kFtraceText);
  // trace-cmd .dat: magic 17 08 44 "tracing", version "6\0", then the header's first fields
  EXPECT_EQ(SniffBytes(std::string("\x17\x08\x44tracing6", 11) + std::string(7, '\0')),
            FileFormat::kTraceDat);
  EXPECT_EQ(SniffBytes("not a trace at all\n"), FileFormat::kUnknown);
  EXPECT_EQ(SniffBytes(""), FileFormat::kUnknown);
}

TEST(CompressedInput, GzipWithSeveralMembersIsOneStream) {
  const std::string half1 = kJson.substr(0, 20), half2 = kJson.substr(20);
  DecodedInput in = DecodeBytes(Gzip(half1) + Gzip(half2), "two.gz");
  EXPECT_EQ(in.container, FileFormat::kGzip);
  EXPECT_EQ(in.content, FileFormat::kJson);
  EXPECT_EQ(std::string(in.bytes.view()), kJson);
}

TEST(CompressedInput, ZipPicksTheFirstFileAfterFolderEntries) {
  DecodedInput stored = DecodeBytes(Zip({{"dir/", "", 0}, {"dir/a.json", kJson, 0}}), "s.zip");
  EXPECT_EQ(std::string(stored.bytes.view()), kJson);
  EXPECT_EQ(stored.label, "s.zip:dir/a.json");
  DecodedInput deflated = DecodeBytes(Zip({{"b.json", kJson, 8}, {"c.json", "[]", 0}}), "d.zip");
  EXPECT_EQ(std::string(deflated.bytes.view()), kJson);
  EXPECT_EQ(deflated.content, FileFormat::kJson);
}

TEST(CompressedInput, UnsupportedZipMethodIsNamed) {
  try {
    DecodeBytes(Zip({{"a.json", kJson, 12}}), "bz.zip");
    FAIL() << "accepted an unsupported method";
  } catch (const core::Error& e) {
    // The local header of the only member is at byte 0.
    EXPECT_STREQ(e.what(),
                 "bz.zip: byte 0: zip member 'a.json' uses compression method 12 (only stored "
                 "and deflate are read)");
  }
}

TEST(CompressedInput, TruncatedGzipNamesTheEndOfTheFile) {
  const std::string gz = Gzip(kJson);
  const std::string cut = gz.substr(0, gz.size() - 6);  // loses most of the 8-byte trailer
  try {
    DecodeBytes(cut, "cut.gz");
    FAIL() << "accepted a truncated gzip";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.gz: byte " + std::to_string(cut.size())),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

// Runs `fencescope ARGS` with its address space limited to `megabytes`: a reservation made
// from a hostile declared size then fails instead of quietly succeeding on a large machine.
test_support::CommandResult RunWithMemoryLimit(int megabytes, const std::string& args) {
  return test_support::RunCommand("ulimit -v " + std::to_string(megabytes * 1024) + "; '" +
                                  FENCESCOPE_EXECUTABLE "' " + args);
}

// A gzip file of `header` followed by `zeros` zero bytes, compressed as it is written (a bomb:
// about 1000:1), so the test never holds the inflated size.
void WriteGzipBomb(const fs::path& path, const std::string& header, size_t zeros) {
  gzFile out = gzopen(path.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  gzwrite(out, header.data(), static_cast<unsigned>(header.size()));
  const std::string chunk(1 << 20, '\0');
  for (size_t done = 0; done < zeros; done += chunk.size()) {
    gzwrite(out, chunk.data(), static_cast<unsigned>(std::min(chunk.size(), zeros - done)));
  }
  gzclose(out);
}

// Writes a gzip bomb of a JSON start and `zeros` zeros, then imports it under `megabytes` of
// address space with `--max-inflated limit`.
test_support::CommandResult ImportBomb(const test_support::ScratchDir& dir, size_t zeros,
                                       int megabytes, const std::string& limit) {
  WriteGzipBomb(dir / "bomb.json.gz", "{\"traceEvents\":[", zeros);
  return RunWithMemoryLimit(megabytes, "import --max-inflated " + limit + " " +
                                           test_support::Quote(dir / "bomb.json.gz") + " -o " +
                                           test_support::Quote(dir / "t.db"));
}

using test_support::ErrorOf;

TEST(CompressedInput, GzipTrailerClaimingGigabytesAllocatesNothingFromIt) {
  test_support::ScratchDir dir;
  std::string gz = Gzip("");  // 20 bytes: header, an empty deflate block, CRC, size
  ASSERT_EQ(gz.size(), 20u);
  gz[16] = gz[17] = gz[18] = '\xFF', gz[19] = '\xF0';  // the size field: 0xF0FFFFFF bytes
  std::ofstream(dir / "claim.gz", std::ios::binary) << gz;
  auto r = RunWithMemoryLimit(300, "import " + test_support::Quote(dir / "claim.gz") + " -o " +
                                       test_support::Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("claim.gz: byte 20: corrupt gzip data (incorrect length check)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

TEST(CompressedInput, ZipDirectoryClaimingGigabytesAllocatesNothingFromIt) {
  test_support::ScratchDir dir;
  std::string zip = Zip({{"t.json", kJson, 8}});
  const size_t entry = zip.find("PK\x01\x02");
  ASSERT_NE(entry, std::string::npos);
  zip.replace(entry + 24, 4, "\xF0\xFF\xFF\xFF");  // uncompressed size: 0xFFFFFFF0
  std::ofstream(dir / "claim.zip", std::ios::binary) << zip;
  auto r = RunWithMemoryLimit(300, "import " + test_support::Quote(dir / "claim.zip") + " -o " +
                                       test_support::Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("claim.zip: byte 36: zip member 't.json' inflates to " +
                       std::to_string(kJson.size()) + " bytes, the directory says 4294967280"),
            std::string::npos)
      << r.err;
  // inflating more than a member declares stops at the declared size
  std::string small = Zip({{"t.json", kJson, 8}});
  small.replace(small.find("PK\x01\x02") + 24, 4, std::string("\x05\0\0\0", 4));
  const std::string error = ErrorOf([&] { DecodeBytes(small, "small.zip"); });
  EXPECT_NE(error.find("more than the 5 bytes its zip directory entry declares"),
            std::string::npos)
      << error;
}

TEST(CompressedInput, GzipBombStopsAtMaxInflatedNamingTheCompressedByte) {
  test_support::ScratchDir dir;
  auto r = ImportBomb(dir, size_t{64} << 20, 300, "10M");
  EXPECT_NE(r.exit_code, 0);
  const std::string expected = (dir / "bomb.json.gz").string() + ": byte ";
  EXPECT_EQ(r.err.rfind("fencescope: error: " + expected, 0), 0u) << r.err;
  EXPECT_NE(r.err.find("inflates to more than the --max-inflated limit of 10485760 bytes"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
  // the same limit in the library: the offset is inside the compressed data
  const std::string error =
      ErrorOf([] { InflateGzip(Gzip(std::string(100000, 'x')), "x.gz", 1000); });
  EXPECT_EQ(error.rfind("x.gz: byte ", 0), 0u) << error;
  EXPECT_EQ(InflateGzip(Gzip(std::string(1000, 'x')), "x.gz", 1000).size(), 1000u);
}

TEST(CompressedInput, OutOfMemoryNamesTheFileAndWhatWasBeingRead) {
  test_support::ScratchDir dir;
  auto r = ImportBomb(dir, size_t{400} << 20, 200, "2G");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find((dir / "bomb.json.gz").string() +
                       ": out of memory while reading and decompressing it"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

TEST(TextPlace, LineAndColumnAreOneBased) {
  // "ab\ncde": byte 4 is 'd', the second character of line 2.
  EXPECT_EQ(DescribeOffset("ab\ncde", 4), "byte 4 (line 2, column 2)");
  EXPECT_EQ(DescribeOffset("ab\ncde", 0), "byte 0 (line 1, column 1)");
  EXPECT_EQ(DescribePlace("f.json", "ab\ncde", 3), "f.json: byte 3 (line 2, column 1)");
}

}  // namespace

// Found by fuzz_compressed_input and fuzz_chrome_json: an empty input (a null pointer and no
// bytes) reached memcpy(nullptr, nullptr, 0), undefined behaviour, and left a buffer without
// its zero padding. It is now an empty buffer with its padding.
TEST(CompressedInput, EmptyInputDecodesToAnEmptyPaddedBuffer) {
  ByteBuffer buffer;
  buffer.Append(nullptr, 0);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(buffer.size(), 0u);
  EXPECT_EQ(buffer.data()[0], '\0');  // padding readable past the end
  DecodedInput decoded = DecodeBytes(std::string_view(), "empty.bin");
  EXPECT_EQ(decoded.bytes.size(), 0u);
  EXPECT_NE(decoded.bytes.data(), nullptr);
}

// Found by fuzz_compressed_input (the input is tests/fuzz/regressions/compressed_input/
// zip_local_header_offset_wraps.zip): a Zip64 extra field gives a member's local header offset
// as 0xFFFF...; `offset + 30 > size` wrapped around and passed, and the header was read before
// the buffer. Offsets from the file are now compared without forming the sum.
TEST(CompressedInput, ZipOffsetsNearTheTopOfTheRangeAreRefused) {
  const std::string zip = test_support::ReadFile(
      test_support::SourceDir() / "tests/fuzz/regressions/compressed_input/zip_local_header_offset_wraps.zip");
  ASSERT_GT(zip.size(), 1000u);
  try {
    DecodeBytes(zip, "wraps.zip");
    FAIL() << "expected an error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("wraps.zip: byte "), std::string::npos) << e.what();
  }
}
