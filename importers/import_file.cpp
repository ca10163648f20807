#include "importers/import_file.h"

#include <new>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/output_file.h"
#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_json_importer.h"
#include "importers/common/compressed_input.h"
#include "importers/common/text_place.h"
#include "importers/etl/etl_importer.h"
#include "importers/ftrace/ftrace_importer.h"

namespace importers {

namespace {

ImportSummary Import(const std::filesystem::path& input, const std::filesystem::path& output,
                     const ImportOptions& options, const char*& stage) {
  stage = "reading and decompressing it";
  DecodedInput decoded = ReadInput(input, options.max_inflated);
  stage = "importing its events";
  ImportSummary summary;
  summary.format = decoded.content;
  summary.container = decoded.container;
  summary.label = decoded.label;
  summary.file_bytes = decoded.file_size;
  summary.content_bytes = decoded.bytes.size();
  switch (decoded.content) {
    case FileFormat::kJson: {
      core::store::TraceWriter writer(output, "chrome-json");
      writer.SetMeta("source_file", decoded.label);
      chrome_json::ImportChromeJson(decoded, writer, options);
      summary.events_written = writer.events_written();
      writer.Commit();
      break;
    }
    case FileFormat::kEtl: {
      core::store::TraceWriter writer(output, "etl");
      etl::ImportEtl(decoded.bytes.view(), decoded.label, writer, options);
      summary.events_written = writer.events_written();
      writer.Commit();
      break;
    }
    case FileFormat::kTraceDat: {
      core::store::TraceWriter writer(output, "ftrace-dat");
      ftrace::ImportTraceDat(decoded.bytes.view(), decoded.label, writer, options);
      summary.events_written = writer.events_written();
      writer.Commit();
      break;
    }
    case FileFormat::kFtraceText: {
      core::store::TraceWriter writer(output, "ftrace-text");
      ftrace::ImportFtraceText(decoded.bytes.view(), decoded.label, writer, options);
      summary.events_written = writer.events_written();
      writer.Commit();
      break;
    }
    case FileFormat::kFencescopeTrace:
      throw core::Error(fmt::format("{}: already a fencescope trace (open it directly)",
                                    decoded.label));
    default:
      throw core::Error(fmt::format(
          "{}: not a format fencescope imports (content sniffed as {}; expected Chrome JSON, "
          "an ETW .etl, a trace-cmd .dat or ftrace text, possibly inside gzip or zip)",
          DescribePlace(decoded.label, decoded.bytes.view(), 0), FileFormatName(decoded.content)));
  }
  if (options.progress) options.progress(1.0);
  return summary;
}

}  // namespace

ImportSummary ImportFile(const std::filesystem::path& input, const std::filesystem::path& output,
                         const ImportOptions& options) {
  core::store::CheckOutputIsNotInput(input, output, "input file");
  core::store::ResolveOutputTarget(output);  // refuse a device or FIFO before reading
  const char* stage = "opening it";
  try {
    return Import(input, output, options, stage);
  } catch (const std::bad_alloc&) {
    throw core::Error(fmt::format("{}: out of memory while {} (nothing was written to {})",
                                  input.string(), stage, output.string()));
  }
}

std::filesystem::path TraceDatabaseFor(const std::filesystem::path& input,
                                       const std::filesystem::path& scratch_dir,
                                       const ImportOptions& options) {
  if (SniffFile(input) == FileFormat::kFencescopeTrace) return input;
  std::error_code ec;
  std::filesystem::create_directories(scratch_dir, ec);
  const std::filesystem::path output =
      scratch_dir / (input.filename().string() + ".fencescope.db");
  ImportFile(input, output, options);
  return output;
}

}  // namespace importers
