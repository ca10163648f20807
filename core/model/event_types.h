// Typed event records, one struct per event kind, generated from the field list
// (event_field_list.h). Write events with them and read events through them; the generic
// arg0..arg2 columns stay inside EventRecord and the store.
//
//   writer.Append(events::FenceWaitUnblocked{.ts_ns = t, .queue_id = q, .fence_id = f,
//                                            .fence_value = v, .wait_id = id,
//                                            .observed_ns = observed});
//   const auto w = events::FenceWaitUnblocked::Of(record);          // from an EventRecord
//   const auto w = events::FenceWaitUnblocked::At(store.events, i);  // from the loaded columns
//   const StringId n = events::CpuSlice::name_sid_at(store.events, i);  // one field alone, for
//                                                                        // scans of many events
//
// Members are named as the kind's SQL view names its columns (SELECT * FROM
// fence_wait_unblocked), in the same order, after ts_ns. At() reads only the columns the kind
// uses.
#pragma once

#include <concepts>
#include <cstddef>

#include "core/model/event_field_list.h"
#include "core/model/event_record.h"

namespace core::model::events {

#define FENCESCOPE_FIELD_MEMBER(column, name, type, role, enum_name) type name{};
#define FENCESCOPE_FIELD_TO_RECORD(column, name, type, role, enum_name) \
  r.column = static_cast<decltype(r.column)>(name);
#define FENCESCOPE_FIELD_OF_RECORD(column, name, type, role, enum_name) \
  e.name = static_cast<type>(r.column);
#define FENCESCOPE_FIELD_AT_ROW(column, name, type, role, enum_name) \
  e.name = static_cast<type>(c.column[i]);
#define FENCESCOPE_FIELD_READER(column, name, type, role, enum_name) \
  template <class Columns>                                          \
  static type name##_at(const Columns& c, size_t i) {               \
    return static_cast<type>(c.column[i]);                          \
  }

#define FENCESCOPE_TYPED_RECORD(Kind, id, sql)                        \
  struct Kind {                                                       \
    static constexpr EventKind kKind = EventKind::Kind;               \
    TimeNs ts_ns = 0;                                                 \
    FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_MEMBER)                 \
                                                                      \
    EventRecord Record() const {                                      \
      EventRecord r;                                                  \
      r.ts = ts_ns;                                                   \
      r.kind = kKind;                                                 \
      FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_TO_RECORD) return r;  \
    }                                                                 \
    static Kind Of(const EventRecord& r) {                            \
      Kind e;                                                         \
      e.ts_ns = r.ts;                                                 \
      FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_OF_RECORD) return e;  \
    }                                                                 \
    template <class Columns>                                          \
    static Kind At(const Columns& c, size_t i) {                      \
      Kind e;                                                         \
      e.ts_ns = c.ts[i];                                              \
      FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_AT_ROW) return e;     \
    }                                                                 \
    FENCESCOPE_FIELDS_##Kind(FENCESCOPE_FIELD_READER)                 \
  };

FENCESCOPE_EVENT_KINDS(FENCESCOPE_TYPED_RECORD)

#undef FENCESCOPE_TYPED_RECORD
#undef FENCESCOPE_FIELD_READER
#undef FENCESCOPE_FIELD_AT_ROW
#undef FENCESCOPE_FIELD_OF_RECORD
#undef FENCESCOPE_FIELD_TO_RECORD
#undef FENCESCOPE_FIELD_MEMBER

// True for the typed records above (used to overload writers on them).
template <class T>
concept TypedEvent = requires(const T& e) {
  { T::kKind } -> std::convertible_to<EventKind>;
  { e.Record() } -> std::same_as<EventRecord>;
};

}  // namespace core::model::events
