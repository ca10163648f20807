// The trace schema as compiled into the binary from schemas/*.sql (see assets/embed.cmake).
#pragma once

#include <cstdint>
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
// PRAGMA application_id of every trace this build writes (schemas/trace_schema.sql): the bytes
// "fenc" at offset 68 of the file, which is how file managers and `file` tell a fencescope trace
// from another SQLite database (packaging/fencescope.xml). Files written before it was set carry
// 0 and still open; the meta row `format` is what the application checks.
constexpr uint32_t kApplicationId = 0x66656e63;

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
