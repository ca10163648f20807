#include "core/model/event_fields.h"

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "core/model/event_field_list.h"

namespace core::model {
namespace {

constexpr EventColumn ColumnNamed(std::string_view column) {
  if (column == "queue") return EventColumn::kQueue;
  if (column == "thread") return EventColumn::kThread;
  if (column == "fence") return EventColumn::kFence;
  if (column == "value") return EventColumn::kValue;
  if (column == "op") return EventColumn::kOp;
  if (column == "arg0") return EventColumn::kArg0;
  if (column == "arg1") return EventColumn::kArg1;
  if (column == "arg2") return EventColumn::kArg2;
  return EventColumn::kFlags;
}

#define FENCESCOPE_FIELD_ENTRY(column, name, type, role, enum_name) \
  EventField{#name, ColumnNamed(#column), FieldRole::role, enum_name,  \
             std::is_unsigned_v<type> && sizeof(type) == 8},
#define FENCESCOPE_FIELD_TABLE(Kind, id, sql) \
  constexpr EventField k##Kind##Fields[] = {FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_ENTRY)};
// A kind without fields would need an empty array; every kind has at least one field today, and
// the compiler rejects the table if one ever has none.
FENCESCOPE_EVENT_KINDS(FENCESCOPE_FIELD_TABLE)
#undef FENCESCOPE_FIELD_TABLE
#undef FENCESCOPE_FIELD_ENTRY

constexpr std::array<uint16_t, kEventKindSlots> TimeColumnsByKind() {
  std::array<uint16_t, kEventKindSlots> out{};
  auto add = [&](EventKind kind, std::span<const EventField> fields) {
    for (const EventField& f : fields) {
      if (f.role == FieldRole::kTime)
        out[static_cast<size_t>(kind)] |= 1u << static_cast<int>(f.column);
    }
  };
#define FENCESCOPE_TIME_COLUMNS(Kind, id, sql) \
  static_assert(id < kEventKindSlots);         \
  add(EventKind::Kind, k##Kind##Fields);
  FENCESCOPE_EVENT_KINDS(FENCESCOPE_TIME_COLUMNS)
#undef FENCESCOPE_TIME_COLUMNS
  return out;
}

}  // namespace

constinit const std::array<uint16_t, kEventKindSlots> kTimeColumnsByKind = TimeColumnsByKind();

void ShiftTimeFields(EventRecord& record, int64_t offset_ns) {
  const auto kind = static_cast<size_t>(record.kind);
  uint16_t columns = kind < kEventKindSlots ? kTimeColumnsByKind[kind] : 0;
  while (columns != 0) {
    const auto column = static_cast<EventColumn>(std::countr_zero(columns));
    columns &= static_cast<uint16_t>(columns - 1);
    if (const int64_t t = ColumnValue(record, column); t != 0) {
      SetColumnValue(record, column, t + offset_ns);
    }
  }
}

std::span<const EventField> FieldsOf(EventKind kind) {
  switch (kind) {
#define FENCESCOPE_FIELD_CASE(Kind, id, sql) \
  case EventKind::Kind:                      \
    return k##Kind##Fields;
    FENCESCOPE_EVENT_KINDS(FENCESCOPE_FIELD_CASE)
#undef FENCESCOPE_FIELD_CASE
  }
  return {};
}

int64_t ColumnValue(const EventRecord& r, EventColumn column) {
  switch (column) {
    case EventColumn::kQueue: return r.queue;
    case EventColumn::kThread: return r.thread;
    case EventColumn::kFence: return r.fence;
    case EventColumn::kValue: return static_cast<int64_t>(r.value);
    case EventColumn::kOp: return r.op;
    case EventColumn::kArg0: return r.arg0;
    case EventColumn::kArg1: return r.arg1;
    case EventColumn::kArg2: return r.arg2;
    case EventColumn::kFlags: return r.flags;
  }
  return 0;
}

void SetColumnValue(EventRecord& r, EventColumn column, int64_t v) {
  switch (column) {
    case EventColumn::kQueue: r.queue = static_cast<QueueId>(v); break;
    case EventColumn::kThread: r.thread = static_cast<ThreadId>(v); break;
    case EventColumn::kFence: r.fence = static_cast<FenceId>(v); break;
    case EventColumn::kValue: r.value = static_cast<uint64_t>(v); break;
    case EventColumn::kOp: r.op = v; break;
    case EventColumn::kArg0: r.arg0 = v; break;
    case EventColumn::kArg1: r.arg1 = v; break;
    case EventColumn::kArg2: r.arg2 = v; break;
    case EventColumn::kFlags: r.flags = static_cast<uint32_t>(v); break;
  }
}

}  // namespace core::model
