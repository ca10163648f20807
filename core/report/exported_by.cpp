#include "core/report/exported_by.h"

#include <fmt/format.h>

namespace core::report {

std::string ExportedBy(const core::store::TraceStore& store) {
  const std::string version = store.MetaOr("nsys_version", "");
  if (version.empty()) return "";
  const std::string schema = store.MetaOr("nsys_schema_version", "");
  return schema.empty() ? fmt::format("Nsight Systems {}", version)
                        : fmt::format("Nsight Systems {} (export schema {})", version, schema);
}

}  // namespace core::report
