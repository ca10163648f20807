#include "core/model/event_kind.h"

namespace core::model {
namespace {
constexpr EventKind kAll[] = {
#define FENCESCOPE_LIST_ENTRY(name, id, sql) EventKind::name,
    FENCESCOPE_EVENT_KINDS(FENCESCOPE_LIST_ENTRY)
#undef FENCESCOPE_LIST_ENTRY
};
}  // namespace

std::string_view EventKindName(EventKind kind) {
  switch (kind) {
#define FENCESCOPE_NAME_ENTRY(name, id, sql) \
  case EventKind::name:                      \
    return sql;
    FENCESCOPE_EVENT_KINDS(FENCESCOPE_NAME_ENTRY)
#undef FENCESCOPE_NAME_ENTRY
  }
  return "unknown";
}

const EventKind* AllEventKinds(int* count) {
  *count = static_cast<int>(sizeof(kAll) / sizeof(kAll[0]));
  return kAll;
}

}  // namespace core::model
