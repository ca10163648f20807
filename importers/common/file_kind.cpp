#include "importers/common/file_kind.h"

#include <fmt/format.h>

namespace importers {
namespace {

struct Magic {
  size_t offset;
  std::string_view bytes;
  const char* what;
};

// Common files people pick by mistake, each by the bytes its format puts at a fixed offset.
constexpr Magic kMagics[] = {
    {0, std::string_view("\x89PNG\r\n\x1a\n", 8), "a PNG image"},
    {0, std::string_view("\xff\xd8\xff", 3), "a JPEG image"},
    {0, "GIF87a", "a GIF image"},
    {0, "GIF89a", "a GIF image"},
    {0, std::string_view("RIFF", 4), "a RIFF file (WAV audio, AVI video or WebP image)"},
    {0, "%PDF-", "a PDF document"},
    {0,
     std::string_view("\x7f"
                      "ELF",
                      4),
     "an ELF executable, shared library or object file"},
    {0, "MZ", "a Windows executable or DLL"},
    {0, std::string_view("\xcf\xfa\xed\xfe", 4), "a Mach-O executable"},
    {0, std::string_view("7z\xbc\xaf\x27\x1c", 6), "a 7-Zip archive"},
    {0,
     std::string_view("\xfd"
                      "7zXZ\0",
                      6),
     "an xz-compressed file"},
    {0, "BZh", "a bzip2-compressed file"},
    {0, std::string_view("\x28\xb5\x2f\xfd", 4), "a zstd-compressed file"},
    {0, std::string_view("Rar!\x1a\x07", 6), "a RAR archive"},
    {257, "ustar", "a tar archive"},
    {0, "!<arch>\n", "an ar archive (a static library or a .deb package)"},
    {0, std::string_view("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", 8),
     "an OLE compound file (an old Microsoft Office document or an .msi)"},
    {0, "%!PS", "a PostScript document"},
    {0, "\x1f\x8b", "a gzip-compressed file"},
    {0, "PK", "a zip archive"},
    {0, std::string_view("SQLite format 3\0", 16), "an SQLite database"},
    {0, "#!", "a script"},
    {0, "<?xml", "an XML document"},
    {4, "ftyp", "an MP4 / QuickTime video or a HEIF image"},
    {0, std::string_view("\x00\x00\x01\x00", 4), "a Windows icon"},
    {0, "PMCC", "a PIX capture"},
    {0, "RDOC", "a RenderDoc capture"},
};

bool MostlyText(std::string_view bytes) {
  size_t printable = 0;
  for (unsigned char c : bytes) {
    if (c == 0) return false;
    if (c >= 0x20 || c == '\n' || c == '\r' || c == '\t') ++printable;
  }
  return printable * 10 >= bytes.size() * 9;
}

}  // namespace

std::string DescribeContent(std::string_view prefix) {
  if (prefix.empty()) return "an empty file";
  for (const Magic& magic : kMagics) {
    if (prefix.size() >= magic.offset + magic.bytes.size() &&
        prefix.substr(magic.offset, magic.bytes.size()) == magic.bytes) {
      return magic.what;
    }
  }
  if (MostlyText(prefix.substr(0, 512))) {
    const size_t first = prefix.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return "white space only";
    std::string start(prefix.substr(first, 40));
    const size_t line_end = start.find_first_of("\r\n");
    if (line_end != std::string::npos) start.resize(line_end);
    return fmt::format("text of no format it reads (starting \"{}\")", start);
  }
  std::string bytes;
  for (size_t i = 0; i < prefix.size() && i < 8; ++i) {
    bytes += fmt::format("{}{:02x}", i ? " " : "", static_cast<unsigned char>(prefix[i]));
  }
  return fmt::format("binary data of no format it reads (starting {})", bytes);
}

}  // namespace importers
