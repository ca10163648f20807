#include "importers/import_file.h"

#include <unistd.h>

#include <memory>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/event_row_packer.h"
#include "core/store/output_file.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_file.h"
#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_json_importer.h"
#include "importers/common/compressed_input.h"
#include "importers/common/file_kind.h"
#include "importers/common/text_place.h"
#include "importers/etl/etl_importer.h"
#include "importers/ftrace/ftrace_importer.h"
#include "importers/nsys/nsys_importer.h"
#include "importers/rocprof/rocpd_reader.h"
#include "importers/rocprof/rocprof_importer.h"
#include "importers/xplane/xplane_importer.h"
#include "importers/xplane/xspace_reader.h"

namespace importers {

namespace {

// The importers that read the decoded bytes as they are.
struct ByteImporter {
  FileFormat format;
  const char* source;  // the trace's `source` meta
  void (*import)(std::string_view bytes, const std::string& label, core::store::TraceWriter& w,
                 const ImportOptions& options);
};

// An importer whose statistics the caller does not need.
template <auto Importer>
void Run(std::string_view bytes, const std::string& label, core::store::TraceWriter& writer,
         const ImportOptions& options) {
  Importer(bytes, label, writer, options);
}

const ByteImporter* ByteImporterFor(FileFormat format) {
  static const ByteImporter kImporters[] = {
      {FileFormat::kEtl, "etl", &Run<&etl::ImportEtl>},
      {FileFormat::kTraceDat, "ftrace-dat", &Run<&ftrace::ImportTraceDat>},
      {FileFormat::kFtraceText, "ftrace-text", &Run<&ftrace::ImportFtraceText>},
      {FileFormat::kSystraceHtml, "systrace-html", &Run<&ftrace::ImportSystraceHtml>},
  };
  for (const ByteImporter& importer : kImporters) {
    if (importer.format == format) return &importer;
  }
  return nullptr;
}

// The database of an SQLite input that is an Nsight Systems export, or nullopt for any other
// SQLite file (a fencescope trace, another program's database, one SQLite cannot read).
std::optional<nsys::NsysDatabase> NsysExportIn(const std::filesystem::path& input,
                                               const DecodedInput& decoded) {
  try {
    nsys::NsysDatabase db = decoded.container == FileFormat::kUnknown
                                ? nsys::NsysDatabase::OpenFile(input, decoded.label)
                                : nsys::NsysDatabase::OpenImage(decoded.bytes.view(), decoded.label);
    if (nsys::LooksLikeNsysExport(db)) return db;
  } catch (const core::Error&) {
  }
  return std::nullopt;
}

// The database of an SQLite input that is a rocpd file, or nullptr for any other. A plain file
// is opened where it lies, read-only (a rocpd file of gigabytes is not copied into memory); one
// unpacked from an archive is opened as the image in memory.
std::unique_ptr<core::store::Database> RocpdIn(const std::filesystem::path& input,
                                               const DecodedInput& decoded) {
  if (decoded.container != FileFormat::kUnknown) {
    return rocprof::OpenRocpd(decoded.bytes.view(), decoded.label);
  }
  try {
    auto db = std::make_unique<core::store::Database>(input.string(),
                                                      core::store::Database::Mode::kReadOnly);
    if (rocprof::LooksLikeRocpd(*db)) return db;
  } catch (const core::Error&) {
  }
  return nullptr;
}

// A temporary file removed when it goes out of scope.
struct ScratchFile {
  std::filesystem::path path;
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

ImportSummary Import(const std::filesystem::path& input, const std::filesystem::path& output,
                     const ImportOptions& options, const char*& stage) {
  ImportSummary summary;
  // Each importer fills one trace database, committed when it returns.
  auto into_writer = [&](const char* source, const auto& import, bool keep_events = false) {
    core::store::TraceWriter writer(output, source);
    if (!options.write_on_helper_thread) writer.WriteOnOneThread();
    keep_events = keep_events && options.kept_events;
    if (keep_events) writer.KeepEvents();
    import(writer);
    summary.events_written = writer.events_written();
    writer.Commit();
    if (keep_events) *options.kept_events = writer.TakeKeptEvents();
  };
  // A folder: rocprofv3's CSV output, one file per kind of record.
  if (std::filesystem::is_directory(input)) {
    stage = "importing its files";
    summary.label = input.string();
    summary.format_name = "rocprofv3 CSV folder";
    into_writer("rocprofv3-csv", [&](core::store::TraceWriter& w) {
      rocprof::ImportRocprofCsvFolder(input, w, options);
    });
    return summary;
  }
  stage = "reading and decompressing it";
  DecodedInput decoded = ReadInput(input, options.max_inflated);
  stage = "importing its events";
  summary.format = decoded.content;
  summary.container = decoded.container;
  summary.label = decoded.label;
  summary.file_bytes = decoded.file_size;
  summary.content_bytes = decoded.bytes.size();
  // An XSpace protobuf has no magic bytes: told by its first plane's fields, before the text
  // formats its first bytes might pass for (a newline, then a length that reads as '{').
  if ((decoded.content == FileFormat::kUnknown || decoded.content == FileFormat::kJson ||
       decoded.content == FileFormat::kFtraceText) &&
      xplane::LooksLikeXSpace(decoded.bytes.view())) {
    summary.format_name = "XSpace profile (.xplane.pb)";
    into_writer("xplane", [&](core::store::TraceWriter& w) {
      xplane::ImportXSpace(decoded.bytes.view(), decoded.label, w, options);
    });
    if (options.progress) options.progress(1.0);
    return summary;
  }
  if (const ByteImporter* importer = ByteImporterFor(decoded.content)) {
    into_writer(importer->source, [&](core::store::TraceWriter& w) {
      importer->import(decoded.bytes.view(), decoded.label, w, options);
    });
    if (options.progress) options.progress(1.0);
    return summary;
  }
  switch (decoded.content) {
    case FileFormat::kJson:
      if (rocprof::IsRocprofJson(decoded.bytes.view().substr(0, 4096))) {
        summary.format_name = "rocprofv3 JSON";
        into_writer("rocprofv3-json", [&](core::store::TraceWriter& w) {
          rocprof::ImportRocprofJson(decoded.bytes.view(), decoded.label, w, options);
        });
        break;
      }
      into_writer(
          "chrome-json",
          [&](core::store::TraceWriter& w) {
            w.SetMeta("source_file", decoded.label);
            chrome_json::ImportChromeJson(decoded, w, options);
          },
          /*keep_events=*/true);
      break;
    case FileFormat::kFencescopeTrace:
      if (auto db = RocpdIn(input, decoded)) {
        summary.format_name = "rocpd SQLite (rocprofv3)";
        into_writer("rocpd", [&](core::store::TraceWriter& w) {
          rocprof::ImportRocpd(*db, decoded.label, w, options);
        });
        break;
      }
      if (auto db = NsysExportIn(input, decoded)) {
        summary.format = FileFormat::kNsysSqlite;
        into_writer("nsys-sqlite", [&](core::store::TraceWriter& w) {
          nsys::ImportNsysDatabase(*db, w, options);
        });
        break;
      }
      if (decoded.container != FileFormat::kUnknown) {
        throw core::Error(fmt::format(
            "{}: an SQLite database inside {}: fencescope opens trace databases uncompressed "
            "(unpack it first)",
            decoded.label, FileFormatName(decoded.container)));
      }
      core::store::OpenTrace(input);  // another program's database: says what it is
      throw core::Error(fmt::format("{}: already a fencescope trace (open it directly)",
                                    decoded.label));
    case FileFormat::kNsysReport: {
      // Only NVIDIA's nsys reads a report: its SQLite export is made beside the output.
      ScratchFile exported{output.string() + fmt::format(".nsys-export-{}.sqlite", getpid())};
      nsys::ExportNsysReport(input, exported.path);
      const nsys::NsysDatabase db = nsys::NsysDatabase::OpenFile(exported.path, decoded.label);
      into_writer("nsys-sqlite", [&](core::store::TraceWriter& w) {
        nsys::ImportNsysDatabase(db, w, options);
      });
      break;
    }
    default: {
      if (decoded.container == FileFormat::kZip && rocprof::IsRocprofCsvSetFile(decoded.label)) {
        summary.format_name = "rocprofv3 CSV folder (zip)";
        into_writer("rocprofv3-csv", [&](core::store::TraceWriter& w) {
          rocprof::ImportRocprofCsvZip(input, w, options);
        });
        break;
      }
      if (rocprof::IsRocprofCsv(decoded.bytes.view().substr(0, 65536))) {
        summary.format_name = "rocprof kernel-trace CSV";
        into_writer("rocprof-csv", [&](core::store::TraceWriter& w) {
          rocprof::ImportRocprofCsv(decoded.bytes.view(), decoded.label, w, options);
        });
        break;
      }
      // Say what the file is, then what would have been read.
      std::string what = DescribeContent(decoded.bytes.view().substr(0, 4096));
      if (decoded.container == FileFormat::kGzip) {
        what = "gzip-compressed " + what;
      } else if (decoded.container == FileFormat::kZip) {
        const std::string prefix = input.string() + ":";
        const std::string member = decoded.label.rfind(prefix, 0) == 0
                                       ? decoded.label.substr(prefix.size())
                                       : decoded.label;
        what = fmt::format("a zip archive without a trace: its member '{}' is {}", member, what);
      }
      throw core::Error(fmt::format("{}: not a format fencescope imports: it is {}. fencescope "
                                    "imports {}, and opens its own trace databases directly",
                                    DescribePlace(decoded.label, decoded.bytes.view(), 0), what,
                                    core::store::ImportableFormats()));
    }
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
    ImportSummary summary = Import(input, output, options, stage);
    if (summary.format_name.empty()) summary.format_name = FileFormatName(summary.format);
    return summary;
  } catch (const std::bad_alloc&) {
    throw core::Error(fmt::format("{}: out of memory while {} (nothing was written to {})",
                                  input.string(), stage, output.string()));
  }
}

bool IsTraceDatabaseFile(const std::filesystem::path& path) {
  return SniffFile(path) == FileFormat::kFencescopeTrace && !nsys::IsNsysExportFile(path) &&
         !rocprof::IsRocpdFile(path);
}

std::filesystem::path TraceDatabaseFor(const std::filesystem::path& input,
                                       const std::filesystem::path& scratch_dir,
                                       const ImportOptions& options) {
  if (IsTraceDatabaseFile(input)) return input;
  std::error_code ec;
  std::filesystem::create_directories(scratch_dir, ec);
  const std::filesystem::path output =
      scratch_dir / (input.filename().string() + ".fencescope.db");
  ImportFile(input, output, options);
  return output;
}

}  // namespace importers
