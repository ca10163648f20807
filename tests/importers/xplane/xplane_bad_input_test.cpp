// Bad XSpace input: a length past the end of its message, a file cut off, another protobuf
// message, a metadata id naming nothing. Each a clear error naming the file and the byte offset
// (make_xspace.py says where it planted the fault), or the record counted; a failed import
// leaves no output and an earlier file at the output path as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/importers/xplane/xspace_files.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;

test_support::CommandResult Import(const fs::path& input, const fs::path& output) {
  return test_support::RunFencescope("import " + Quote(input) + " -o " + Quote(output));
}

TEST(XplaneBadInput, AStringLongerThanItsMessageNamesItsByteAndWritesNothing) {
  test_support::ScratchDir dir;
  const auto facts = xspace_files::Make("bad_length", dir / "bad.xplane.pb");
  {
    std::ofstream earlier(dir / "out.db");
    earlier << "an earlier file";
  }
  const auto r = Import(dir / "bad.xplane.pb", dir / "out.db");
  test_support::ExpectFailure(
      r, 1,
      (dir / "bad.xplane.pb").string() + ": byte " + std::to_string(facts.at("field_offset")) +
          ": protobuf field 5 claims 100 bytes, 3 are left in its message");
  EXPECT_EQ(test_support::ReadFile(dir / "out.db"), "an earlier file");
  // No temporary file of the failed import is left beside it either.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 2);
}

TEST(XplaneBadInput, AFileCutOffSaysWhereItsFirstPlaneRunsPastTheEnd) {
  test_support::ScratchDir dir;
  const auto facts = xspace_files::Make("launches", dir / "whole.xplane.pb");
  const std::string whole = test_support::ReadFile(dir / "whole.xplane.pb");
  ASSERT_EQ(static_cast<int64_t>(whole.size()), facts.at("bytes"));
  // Cut inside the first plane (the host's, 1 byte of tag and 2 of length before its content).
  const size_t cut = 200;
  {
    std::ofstream out(dir / "cut.xplane.pb", std::ios::binary);
    out.write(whole.data(), cut);
  }
  const auto r = Import(dir / "cut.xplane.pb", dir / "out.db");
  test_support::ExpectFailure(r, 1, ": byte 0: protobuf field 1 claims ");
  EXPECT_NE(r.err.find(std::to_string(cut - 3) + " are left"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.db"));
}

TEST(XplaneBadInput, AnotherProtobufMessageThatBeginsLikeAnXSpaceIsRefusedAtItsFirstWrongField) {
  test_support::ScratchDir dir;
  const auto facts = xspace_files::Make("other_message", dir / "other.pb");
  const auto r = Import(dir / "other.pb", dir / "out.db");
  test_support::ExpectFailure(r, 1,
                              "byte " + std::to_string(facts.at("field_offset")) +
                                  ": XPlane.lines (field 3) should be length-delimited, is a "
                                  "varint: not an XSpace");
  EXPECT_FALSE(fs::exists(dir / "out.db"));
}

TEST(XplaneBadInput, AnotherProtobufMessageIsNotTakenForAnXSpace) {
  test_support::ScratchDir dir;
  xspace_files::Make("not_xspace", dir / "other.pb");
  const auto r = Import(dir / "other.pb", dir / "out.db");
  test_support::ExpectFailure(r, 1, "not a format fencescope imports");
  EXPECT_FALSE(fs::exists(dir / "out.db"));
}

TEST(XplaneBadInput, AnEventWhoseMetadataIdNamesNothingIsKeptAndCountedWithItsByte) {
  test_support::ScratchDir dir;
  const auto facts = xspace_files::Make("unknown_metadata", dir / "u.xplane.pb");
  const auto r = Import(dir / "u.xplane.pb", dir / "u.db");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test_support::RowsText(dir / "u.db",
                                   "SELECT count, first_place FROM import_problems WHERE name = "
                                   "'xplane_unknown_event_metadata'"),
            "1|byte " + std::to_string(facts.at("event_offset")) + "\n");
  EXPECT_EQ(test_support::FirstCell(dir / "u.db",
                                    "SELECT COUNT(*) FROM packet_submitted p JOIN strings s ON "
                                    "s.id = p.name_sid WHERE s.value = 'event metadata 42'"),
            "1");
}

}  // namespace
