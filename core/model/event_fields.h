// The fields of each event kind as data, for code that walks them without knowing the kind: the
// window's details panel and event table, the dump, the importers' time-base shift, and the test
// that checks the SQL views (tests/unit/model/event_fields_test.cpp). Generated from the same
// list as the typed records (event_field_list.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/model/event_record.h"

namespace core::model {

// What a field's number refers to.
enum class FieldRole : uint8_t {
  kNumber,    // a count, an id of an operation (packet_id, wait_id, ...) or a plain value
  kTime,      // a timestamp on the trace's time base (shifted with it)
  kDuration,  // nanoseconds
  kString,    // strings.id
  kEvent,     // events.rowid
  kFlags,     // bit flags (core/model/types.h)
  kEnum,      // enum_values(enum_name)
  kQueue,
  kThread,
  kFence,
  kAdapter,
  kEngine,
  kContext,
  kPso,
  kResource,
  kProcess,
};

struct EventField {
  std::string_view name;       // as the kind's SQL view names it
  EventColumn column;          // where EventRecord stores it
  FieldRole role;
  std::string_view enum_name;  // for kEnum
  bool is_unsigned;            // read the stored 64 bits as unsigned (fence values)
};

// The fields of `kind` after ts_ns, in the order of its SQL view; empty for an unknown kind.
std::span<const EventField> FieldsOf(EventKind kind);

// Moves every time field (FieldRole::kTime) of `record` that is given (not 0) by `offset_ns`,
// as when the record's ts is moved to another time base.
void ShiftTimeFields(EventRecord& record, int64_t offset_ns);

// Kind ids lie below this (checked where the tables by kind are built).
inline constexpr size_t kEventKindSlots = 256;
// Per kind id, a bit (1 << EventColumn) for each column that holds a time field.
extern const std::array<uint16_t, kEventKindSlots> kTimeColumnsByKind;
// Whether a record of `kind` has a time field beside ts (ShiftTimeFields would change it).
inline bool HasTimeFields(EventKind kind) {
  const auto k = static_cast<size_t>(kind);
  return k < kEventKindSlots && kTimeColumnsByKind[k] != 0;
}

// The field's value in `record`, as SQL stores it (unsigned fields reinterpret the bits).
inline int64_t FieldValue(const EventRecord& record, const EventField& field) {
  return ColumnValue(record, field.column);
}

}  // namespace core::model
