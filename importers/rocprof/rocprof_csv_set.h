// Reads rocprofv3's CSV output as a whole (`rocprofv3 --output-format csv`: one folder per
// process, or a zip of it): `*_agent_info.csv` (the agents), `*_kernel_trace.csv`,
// `*_memory_copy_trace.csv`, `*_hip_api_trace.csv`, `*_hsa_api_trace.csv` and
// `*_marker_api_trace.csv`, joined on their agent ids and correlation ids. Other files are
// left out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "importers/rocprof/rocprof_capture.h"

namespace importers::rocprof {

struct CsvFile {
  std::string name;   // its file name, which tells what it holds
  std::string label;  // names it in messages (path, or zip:member)
  std::string_view bytes;
};

// Whether a file of that name is one of the set (the kernel trace, the agents, a copy or API
// trace).
bool IsRocprofCsvSetMember(std::string_view file_name);

// Throws core::Error naming the file, the line and the column of malformed rows (with
// `lenient`: counted and left out), and when no kernel or memory-copy trace is among `files`.
RocCapture ReadRocprofCsvSet(const std::vector<CsvFile>& files, bool lenient);

}  // namespace importers::rocprof
