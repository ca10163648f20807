#include "app/version.h"

#include <fmt/format.h>

#include "core/store/schema_sql.h"

namespace app {

std::string VersionText() {
  return fmt::format("fencescope {}\ntrace schema version {} (SQLite application_id {:#010x})",
                     Version(), core::store::kSchemaVersion, core::store::kApplicationId);
}

}  // namespace app
