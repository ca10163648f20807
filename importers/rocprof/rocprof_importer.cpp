#include "importers/rocprof/rocprof_importer.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/rocprof/rocpd_reader.h"
#include "importers/common/compressed_input.h"
#include "importers/rocprof/rocprof_csv_reader.h"
#include "importers/rocprof/rocprof_csv_set.h"
#include "importers/rocprof/rocprof_json_reader.h"
#include "importers/rocprof/rocprof_trace_builder.h"

namespace importers::rocprof {
namespace {

// Reading a capture is the first half of the import (it reports no progress of its own),
// building its records the second.
template <typename Read>
void ReadAndBuild(const std::string& label, core::store::TraceWriter& writer,
                  const ImportOptions& options, Read&& read) {
  RocCapture capture = read();
  if (options.progress) options.progress(0.5);
  BuildTrace(capture, label, writer, [&options](double f) {
    if (options.progress) options.progress(0.5 + 0.5 * f);
  });
}

// The rocprofv3 CSV files among `inputs` (named "path" or "zip:member"), read together.
void ImportCsvSet(const std::string& where, const std::vector<DecodedInput>& inputs,
                  core::store::TraceWriter& writer, const ImportOptions& options) {
  std::vector<CsvFile> files;
  for (const DecodedInput& input : inputs) {
    const std::string name = input.label.substr(input.label.find_last_of("/:") + 1);
    if (IsRocprofCsvSetMember(name)) files.push_back({name, input.label, input.bytes.view()});
  }
  if (files.empty()) {
    throw core::Error(fmt::format(
        "{}: no rocprofv3 CSV files (*_kernel_trace.csv, *_agent_info.csv, ...) in it: of "
        "folders and zip archives of several files, fencescope imports rocprofv3's CSV output",
        where));
  }
  ReadAndBuild(where, writer, options, [&] { return ReadRocprofCsvSet(files, options.lenient); });
}

}  // namespace

bool IsRocprofJson(std::string_view prefix) { return LooksLikeRocprofJson(prefix); }
bool IsRocprofCsv(std::string_view prefix) { return LooksLikeRocprofCsv(prefix); }
bool IsRocprofCsvSetFile(std::string_view label) {
  return IsRocprofCsvSetMember(label.substr(label.find_last_of("/:") + 1));
}

void ImportRocprofJson(std::string_view bytes, const std::string& label,
                       core::store::TraceWriter& writer, const ImportOptions& options) {
  ReadAndBuild(label, writer, options,
               [&] { return ReadRocprofJson(bytes, label, options.lenient); });
}

void ImportRocprofCsv(std::string_view bytes, const std::string& label,
                      core::store::TraceWriter& writer, const ImportOptions& options) {
  ReadAndBuild(label, writer, options,
               [&] { return ReadRocprofCsv(bytes, label, options.lenient); });
}

void ImportRocprofCsvFolder(const std::filesystem::path& folder,
                            core::store::TraceWriter& writer, const ImportOptions& options) {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && IsRocprofCsvSetMember(entry.path().filename().string())) {
      paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());  // the same order whatever the directory's
  std::vector<DecodedInput> inputs;
  for (const auto& path : paths) inputs.push_back(ReadInput(path, options.max_inflated));
  ImportCsvSet(folder.string(), inputs, writer, options);
}

void ImportRocprofCsvZip(const std::filesystem::path& zip, core::store::TraceWriter& writer,
                         const ImportOptions& options) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(zip, ec);
  if (ec) throw core::Error(zip.string() + ": cannot read its size: " + ec.message());
  const ByteBuffer raw = ByteBuffer::MapFile(zip, size);
  ImportCsvSet(zip.string(), DecodeZipMembers(raw.view(), zip.string(), options.max_inflated),
               writer, options);
}

std::unique_ptr<core::store::Database> OpenRocpd(std::string_view bytes,
                                                 const std::string& label) {
  // rocprofv3 creates its tables first: their names are in the schema's first pages. Any other
  // SQLite file (a fencescope trace of gigabytes) is not copied into memory to be asked.
  if (bytes.substr(0, size_t{4} << 20).find("rocpd_string") == std::string_view::npos) {
    return nullptr;
  }
  try {
    auto db =
        std::make_unique<core::store::Database>(core::store::Database::FromImage(bytes, label));
    if (LooksLikeRocpd(*db)) return db;
  } catch (const core::Error&) {
  }
  return nullptr;
}

bool IsRocpdFile(const std::filesystem::path& path) {
  try {
    core::store::Database db(path.string(), core::store::Database::Mode::kReadOnly);
    return LooksLikeRocpd(db);
  } catch (const core::Error&) {
    return false;
  }
}

void ImportRocpd(core::store::Database& db, const std::string& label,
                 core::store::TraceWriter& writer, const ImportOptions& options) {
  ReadAndBuild(label, writer, options, [&] { return ReadRocpd(db, label, options.lenient); });
}

}  // namespace importers::rocprof
