// The trace schema as compiled into the binary from schemas/*.sql (see assets/embed.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace fencescope::assets {
// Contents of a file under schemas/ by its path from the repository root, e.g.
// "schemas/trace_schema.sql"; empty when there is no such file.
std::string_view schemas(std::string_view relative_path);
std::vector<std::string_view> schemas_list();
}  // namespace fencescope::assets

namespace core::store {

// The schema version this build writes and reads (PRAGMA user_version).
constexpr int kSchemaVersion = 1;
constexpr std::string_view kFormatMarker = "fencescope-trace";

inline std::string_view TraceSchemaSql() {
  return fencescope::assets::schemas("schemas/trace_schema.sql");
}
inline std::string_view EventKindsSql() {
  return fencescope::assets::schemas("schemas/event_kinds.sql");
}
inline std::string_view TraceIndexesSql() {
  return fencescope::assets::schemas("schemas/trace_indexes.sql");
}

}  // namespace core::store
