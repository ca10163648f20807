// A record's fields as the window shows them: each named field of its kind (the list of
// core/model/event_fields.h) with its value written by what it refers to: times on the trace's
// origin, string ids as their text, queue / thread / fence / ... ids as their names, enums by
// their names. The details panel lists them; the event table writes them on one line.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/gui/state/document.h"
#include "core/model/event_fields.h"

namespace app::gui::state {

// How much a value says: kFull for the details panel (a time also in ns, an id also as its
// number), kBrief for a table cell.
enum class FieldDetail : uint8_t { kFull, kBrief };

// Names of the topology rows the store has ("-" for id 0; "#id" for an id it does not list).
std::string QueueName(const Document& doc, core::model::QueueId id,
                      FieldDetail detail = FieldDetail::kFull);
std::string ThreadName(const Document& doc, core::model::ThreadId id,
                       FieldDetail detail = FieldDetail::kFull);
std::string FenceName(const Document& doc, core::model::FenceId id,
                      FieldDetail detail = FieldDetail::kFull);

// The value of `field` in `record`, written for people.
std::string FieldText(const Document& doc, const core::store::EventRecord& record,
                      const core::model::EventField& field, FieldDetail detail);

// (name, text) for every named field of the record's kind, in the order of its SQL view.
std::vector<std::pair<std::string_view, std::string>> NamedFields(
    const Document& doc, const core::store::EventRecord& record, FieldDetail detail);

// The fields other than queue_id, thread_id and fence_id (the event table's own columns) as
// "name=text" pairs on one line.
std::string FieldsLine(const Document& doc, const core::store::EventRecord& record);

}  // namespace app::gui::state
