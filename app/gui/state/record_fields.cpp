#include "app/gui/state/record_fields.h"

#include <fmt/format.h>

#include "app/gui/widgets/time_format.h"
#include "core/analysis/time_input.h"

namespace app::gui::state {
namespace {

using core::model::EventField;
using core::model::FieldRole;

// "name (#id)" in full, "name" in brief; "#id" for an id the table does not list, "-" for 0.
template <typename Row>
std::string RowName(const Row* row, int64_t id, FieldDetail detail) {
  if (!row) return id ? fmt::format("#{}", id) : "-";
  return detail == FieldDetail::kFull ? fmt::format("{} (#{})", row->name, id) : row->name;
}

std::string NamedId(const Document& doc, FieldRole role, int64_t v, FieldDetail detail) {
  const auto id = static_cast<uint32_t>(v);
  const core::store::TraceStore& s = doc.store;
  switch (role) {
    case FieldRole::kQueue:
      return QueueName(doc, id, detail);
    case FieldRole::kThread:
      return ThreadName(doc, id, detail);
    case FieldRole::kFence:
      return FenceName(doc, id, detail);
    case FieldRole::kAdapter:
      return RowName(s.FindAdapter(id), v, detail);
    case FieldRole::kEngine:
      return RowName(s.FindEngine(id), v, detail);
    case FieldRole::kContext:
      return RowName(s.FindContext(id), v, detail);
    case FieldRole::kPso:
      return RowName(s.FindPso(id), v, detail);
    case FieldRole::kProcess:
      return RowName(s.FindProcess(id), v, detail);
    default:
      return fmt::format("{}", v);
  }
}

}  // namespace

std::string QueueName(const Document& doc, core::model::QueueId id, FieldDetail detail) {
  return RowName(doc.store.FindQueue(id), id, detail);
}

std::string ThreadName(const Document& doc, core::model::ThreadId id, FieldDetail detail) {
  const auto* thread = doc.store.FindThread(id);
  if (!thread || detail == FieldDetail::kBrief) return RowName(thread, id, detail);
  return fmt::format("{} (tid {})", thread->name, thread->tid);
}

std::string FenceName(const Document& doc, core::model::FenceId id, FieldDetail detail) {
  const auto* fence = doc.store.FindFence(id);
  if (!fence || detail == FieldDetail::kBrief) return RowName(fence, id, detail);
  return fmt::format("{} (#{}, {})", fence->name, id, core::model::FenceKindName(fence->kind));
}

std::string FieldText(const Document& doc, const core::store::EventRecord& record,
                      const EventField& field, FieldDetail detail) {
  const int64_t v = core::model::FieldValue(record, field);
  const bool full = detail == FieldDetail::kFull;
  switch (field.role) {
    case FieldRole::kNumber:
      if (field.is_unsigned) return fmt::format("{}", static_cast<uint64_t>(v));
      return fmt::format("{}", v);
    case FieldRole::kTime: {
      if (v == 0) return "0 (not given)";
      return full ? core::analysis::FormatTraceTime(v, doc.model.start)
                  : widgets::FormatTime(v, doc.model.start);
    }
    case FieldRole::kDuration:
      return widgets::FormatDuration(v);
    case FieldRole::kString: {
      const std::string& text = doc.store.String(static_cast<core::model::StringId>(v));
      return full && v != 0 ? fmt::format("{} (sid {})", text, v) : text;
    }
    case FieldRole::kEvent:
      return v ? fmt::format("rowid {}", v) : "-";
    case FieldRole::kFlags:
      return fmt::format("{:#x}", v);
    case FieldRole::kEnum: {
      const std::string_view name = core::model::EnumValueName(field.enum_name, v);
      if (name.empty()) return fmt::format("{}", v);
      return full ? fmt::format("{} ({})", name, v) : std::string(name);
    }
    case FieldRole::kResource:
      return fmt::format("#{}", v);
    default:
      return NamedId(doc, field.role, v, detail);
  }
}

std::vector<std::pair<std::string_view, std::string>> NamedFields(
    const Document& doc, const core::store::EventRecord& record, FieldDetail detail) {
  std::vector<std::pair<std::string_view, std::string>> out;
  for (const EventField& field : core::model::FieldsOf(record.kind)) {
    out.emplace_back(field.name, FieldText(doc, record, field, detail));
  }
  return out;
}

std::string FieldsLine(const Document& doc, const core::store::EventRecord& record) {
  std::string out;
  for (const EventField& field : core::model::FieldsOf(record.kind)) {
    using core::model::EventColumn;
    if (field.column == EventColumn::kQueue || field.column == EventColumn::kThread ||
        field.column == EventColumn::kFence) {
      continue;
    }
    if (!out.empty()) out += "  ";
    out += fmt::format("{}={}", field.name, FieldText(doc, record, field, FieldDetail::kBrief));
  }
  return out;
}

}  // namespace app::gui::state
