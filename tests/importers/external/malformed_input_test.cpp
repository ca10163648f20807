// Malformed input made from real files: truncations at many offsets, type swaps, impossible
// timestamps, damaged gzip and zip. Each must give a core::Error naming the file and the byte
// offset, leave no output file, and (through the binary) exit non-zero.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "core/model/error.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::ReadFile;
using test_support::ScratchDir;

fs::path External(const std::string& name) {
  return test_support::SharedDir() / "traces/external" / name;
}

void Write(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// Imports `input` and expects a clean failure: a core::Error naming the file and a byte offset,
// and nothing at the output path. Returns the message.
std::string ExpectCleanFailure(const fs::path& input, const fs::path& output) {
  try {
    importers::ImportFile(input, output);
  } catch (const core::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(input.string()), std::string::npos) << message;
    EXPECT_TRUE(std::regex_search(message, std::regex("byte [0-9]+"))) << message;
    EXPECT_FALSE(fs::exists(output)) << message;
    for (const auto& entry : fs::directory_iterator(output.parent_path())) {
      EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos)
          << "temporary file left: " << entry.path();
    }
    return message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a core::Error: " << e.what();
    return {};
  }
  ADD_FAILURE() << input << " imported although it is malformed";
  return {};
}

// The offset of the last '}' of the file: cutting anywhere before it leaves an incomplete
// object-container file (which the format never allows).
size_t LastBrace(const std::string& text) { return text.rfind('}'); }

TEST(MalformedInput, TruncationsOfRealFilesAtManyOffsetsFailCleanly) {
  ScratchDir dir;
  for (const char* name : {"catapult/flow.json", "kineto/after_fix_trace.json",
                           "catapult/simple_trace.json", "perfetto/flow_events_json_v2.json"}) {
    const std::string text = ReadFile(External(name));
    const size_t limit = LastBrace(text);
    ASSERT_NE(limit, std::string::npos);
    for (int i = 0; i < 40; ++i) {
      const size_t cut = 1 + (limit - 1) * i / 40;  // 40 offsets spread over the file
      SCOPED_TRACE(std::string(name) + " cut at " + std::to_string(cut));
      const fs::path input = dir / "truncated.json";
      Write(input, text.substr(0, cut));
      const std::string message = ExpectCleanFailure(input, dir / "out.db");
      EXPECT_NE(message.find("line"), std::string::npos) << message;
    }
  }
}

TEST(MalformedInput, TypeSwapsAndImpossibleTimesNameTheEvent) {
  ScratchDir dir;
  const std::string good =
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":10,"dur":5},)"
      "\n"
      R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":20,"dur":5}]})";
  // The second event starts on line 2.
  const size_t second = good.find("\n") + 1;
  struct Case {
    std::string from, to, says;
  };
  const std::vector<Case> cases = {
      {R"("ts":20)", R"("ts":"20")", "'ts' must be a number"},
      {R"("ts":20)", R"("ts":-20)", "negative"},
      {R"("ts":20)", R"("ts":NaN)", ""},
      {R"("ts":20)", R"("ts":1e300)", "absurd"},
      {R"("ts":20)", R"("ts":99999999999999999999)", "absurd"},
      {R"("dur":5})", R"("dur":-5})", "negative"},
      {R"("dur":5})", R"("dur":"5"})", "'dur' must be a number"},
      {R"("pid":1,"tid":1,"ts":20)", R"("pid":[1],"tid":1,"ts":20)", "'pid'"},
      {R"("ph":"X","name":"b")", R"("ph":5,"name":"b")", "'ph'"},
      {R"("ph":"X","name":"b")", R"("ph":"XY","name":"b")", "'ph'"},
      {R"("name":"b")", R"("name":{"x":1})", "'name'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    std::string text = good;
    const size_t at = text.find(c.from, second);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, c.from.size(), c.to);
    const fs::path input = dir / "bad.json";
    Write(input, text);
    const std::string message = ExpectCleanFailure(input, dir / "out.db");
    EXPECT_NE(message.find(c.says), std::string::npos) << message;
    EXPECT_NE(message.find("line 2"), std::string::npos) << message;
    EXPECT_NE(message.find("byte " + std::to_string(second)), std::string::npos) << message;
  }
}

TEST(MalformedInput, DamagedGzipAndZipFailCleanly) {
  ScratchDir dir;
  const std::string gz = ReadFile(External("catapult/simple_trace_gz.gz"));
  const std::string zip = ReadFile(External("catapult/simple_trace_zip.zip"));
  std::vector<std::pair<std::string, std::string>> inputs;
  for (size_t cut : {size_t{10}, gz.size() / 2, gz.size() - 4}) {
    inputs.emplace_back("gzip cut at " + std::to_string(cut), gz.substr(0, cut));
  }
  std::string flipped = gz;
  flipped[gz.size() / 2] = static_cast<char>(flipped[gz.size() / 2] ^ 0x55);
  inputs.emplace_back("gzip with a flipped byte", flipped);
  for (size_t cut : {size_t{40}, zip.size() / 2, zip.size() - 10}) {
    inputs.emplace_back("zip cut at " + std::to_string(cut), zip.substr(0, cut));
  }
  std::string bad_crc = zip;
  const size_t header = bad_crc.find("PK\x01\x02");
  ASSERT_NE(header, std::string::npos);
  bad_crc[header + 16] = static_cast<char>(bad_crc[header + 16] ^ 0xFF);  // central-directory CRC
  inputs.emplace_back("zip with a wrong CRC", bad_crc);
  for (const auto& [what, bytes] : inputs) {
    SCOPED_TRACE(what);
    const fs::path input = dir / "damaged";
    Write(input, bytes);
    ExpectCleanFailure(input, dir / "out.db");
  }
}

TEST(MalformedInput, TheBinaryExitsNonZeroAndWritesNothing) {
  ScratchDir dir;
  const std::string text = ReadFile(External("kineto/after_fix_trace.json"));
  const fs::path input = dir / "cut.json";
  Write(input, text.substr(0, text.size() / 3));
  const fs::path output = dir / "out.db";
  auto r = test_support::RunFencescope("import '" + input.string() + "' -o '" + output.string() +
                                       "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(input.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(output));
  // --lenient keeps what came before the cut and counts the truncation.
  r = test_support::RunFencescope("import --lenient '" + input.string() + "' -o '" +
                                  output.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(output));
  r = test_support::RunFencescope("info '" + output.string() + "'");
  EXPECT_NE(r.out.find("json_truncated"), std::string::npos) << r.out;
}

}  // namespace
