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

}  // namespace

bool IsRocprofJson(std::string_view prefix) { return LooksLikeRocprofJson(prefix); }
bool IsRocprofCsv(std::string_view prefix) { return LooksLikeRocprofCsv(prefix); }

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
  if (paths.empty()) {
    throw core::Error(fmt::format(
        "{}: a folder without rocprofv3 CSV files (*_kernel_trace.csv, *_agent_info.csv, ...): "
        "fencescope imports files, and of folders only rocprofv3's CSV output",
        folder.string()));
  }
  std::vector<DecodedInput> inputs;
  std::vector<CsvFile> files;
  for (const auto& path : paths) inputs.push_back(ReadInput(path, options.max_inflated));
  for (size_t i = 0; i < paths.size(); ++i) {
    files.push_back({paths[i].filename().string(), inputs[i].label, inputs[i].bytes.view()});
  }
  ReadAndBuild(folder.string(), writer, options,
               [&] { return ReadRocprofCsvSet(files, options.lenient); });
}

std::unique_ptr<core::store::Database> OpenRocpd(std::string_view bytes,
                                                 const std::string& label) {
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
