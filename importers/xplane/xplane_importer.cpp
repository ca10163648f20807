#include "importers/xplane/xplane_importer.h"

#include <fmt/format.h>

#include "importers/xplane/xplane_mapper.h"
#include "importers/xplane/xspace_reader.h"

namespace importers::xplane {

void ImportXSpace(std::string_view bytes, const std::string& label,
                  core::store::TraceWriter& writer, const ImportOptions& options) {
  const XSpaceHeader header = ReadXSpaceHeader(bytes, label);
  writer.SetMeta("source_file", label);
  writer.SetMeta("gpu_mapping", "xplane");
  writer.SetMeta("clock", header.has_profile_start
                              ? "ns since the UNIX epoch (each line's timestamp_ns, the profile's "
                                "start added back where the profiler took it off)"
                              : "ns (each line's timestamp_ns as the file gives it)");
  std::string hosts;
  for (std::string_view host : header.hostnames) hosts += (hosts.empty() ? "" : ", ") + std::string(host);
  if (!hosts.empty()) writer.SetMeta("xplane.hostnames", hosts);
  writer.SetMeta("xplane.planes", std::to_string(header.planes));
  // What the profiler itself reported going wrong.
  if (!header.errors.empty()) {
    writer.CountProblem("xplane_profiler_errors", core::model::Severity::kDataLoss,
                        fmt::format("errors the profiler recorded in the file, the first: {}",
                                    header.errors.front()),
                        header.errors.size());
  }
  if (!header.warnings.empty()) {
    writer.CountProblem("xplane_profiler_warnings", core::model::Severity::kInfo,
                        fmt::format("warnings the profiler recorded in the file, the first: {}",
                                    header.warnings.front()),
                        header.warnings.size());
  }
  XplaneMapper mapper(writer, header, label);
  uint64_t done = 0;
  ForEachPlane(bytes, label, [&](const XPlane& plane) {
    mapper.AddPlane(plane);
    if (options.progress && header.planes) {
      options.progress(0.9 * static_cast<double>(++done) / static_cast<double>(header.planes));
    }
  });
  mapper.Finish();
}

}  // namespace importers::xplane
