#include "importers/common/format_sniffer.h"

#include <cstring>

#include "core/model/error.h"
#include "core/store/file_bytes.h"
#include "importers/etl/etl_reader.h"
#include "importers/ftrace/ftrace_text_reader.h"
#include "importers/ftrace/systrace_html.h"
#include "importers/ftrace/trace_dat_reader.h"

namespace importers {

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kFencescopeTrace: return "fencescope trace (SQLite)";
    case FileFormat::kGzip: return "gzip";
    case FileFormat::kZip: return "zip";
    case FileFormat::kJson: return "JSON";
    case FileFormat::kEtl: return "ETW .etl";
    case FileFormat::kTraceDat: return "trace-cmd .dat";
    case FileFormat::kFtraceText: return "ftrace text";
    case FileFormat::kSystraceHtml: return "systrace HTML";
    case FileFormat::kNsysReport: return "Nsight Systems report";
    case FileFormat::kNsysSqlite: return "Nsight Systems SQLite export";
    case FileFormat::kUnknown: break;
  }
  return "unknown";
}

FileFormat SniffBytes(std::string_view prefix) {
  if (prefix.size() >= 16 && std::memcmp(prefix.data(), "SQLite format 3\0", 16) == 0) {
    return FileFormat::kFencescopeTrace;
  }
  if (prefix.size() >= 2 && static_cast<unsigned char>(prefix[0]) == 0x1f &&
      static_cast<unsigned char>(prefix[1]) == 0x8b) {
    return FileFormat::kGzip;
  }
  // Zip: a local file header, or the end record of an empty archive, or a spanned-archive mark.
  if (prefix.size() >= 4 && (std::memcmp(prefix.data(), "PK\x03\x04", 4) == 0 ||
                             std::memcmp(prefix.data(), "PK\x05\x06", 4) == 0 ||
                             std::memcmp(prefix.data(), "PK\x07\x08", 4) == 0)) {
    return FileFormat::kZip;
  }
  size_t i = 0;
  if (prefix.size() >= 3 && std::memcmp(prefix.data(), "\xEF\xBB\xBF", 3) == 0) i = 3;
  while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\n' ||
                               prefix[i] == '\r')) {
    ++i;
  }
  if (i < prefix.size() && (prefix[i] == '[' || prefix[i] == '{')) return FileFormat::kJson;
  // ETL: a WMI buffer header (u32 buffer size at 0, bytes in use at 0x30) whose first record, at
  // 0x48, is the TRACE_LOGFILE_HEADER in a system trace header (checked on a real capture).
  if (etl::LooksLikeEtl(prefix)) return FileFormat::kEtl;
  if (ftrace::LooksLikeTraceDat(prefix)) return FileFormat::kTraceDat;
  if (ftrace::LooksLikeFtraceText(prefix)) return FileFormat::kFtraceText;
  if (ftrace::LooksLikeHtml(prefix)) return FileFormat::kSystraceHtml;
  if (prefix.starts_with("NVIDIA Tegra Profiler Report")) return FileFormat::kNsysReport;
  return FileFormat::kUnknown;
}

FileFormat SniffFile(const std::filesystem::path& path) {
  // Through SQLite's file layer: the file may be a trace this process is committing its packed
  // cache to, whose locks a plain descriptor's close would drop (core/store/file_bytes.h).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return FileFormat::kUnknown;  // nothing to read
  const auto head = core::store::ReadFileHead(path, 512);
  if (!head) throw core::Error(path.string() + ": cannot open");
  return SniffBytes(std::string_view(reinterpret_cast<const char*>(head->data()), head->size()));
}

}  // namespace importers
