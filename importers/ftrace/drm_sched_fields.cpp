#include "importers/ftrace/drm_sched_fields.h"

namespace importers::ftrace {
namespace {

// "C:S" -> (C, S).
std::optional<FenceRef> ContextSeqno(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto context = ParseFtraceNumber(text.substr(0, colon));
  auto seqno = ParseFtraceNumber(text.substr(colon + 1));
  if (!context || !seqno) return std::nullopt;
  return FenceRef{*context, *seqno};
}

// The n-th (0-based) field of that name: add_dep's text names two fences `fence=`.
std::optional<std::string_view> NthText(const FtraceEvent& e, std::string_view name, int n) {
  for (const FtraceField& f : e.fields) {
    if (f.name == name && n-- == 0) return f.text;
  }
  return std::nullopt;
}

}  // namespace

std::string_view DrmSchedRing(const FtraceEvent& e) {
  if (auto ring = e.Text("ring")) return *ring;
  return e.Text("name").value_or("");
}

std::optional<DrmSchedJobKey> DrmSchedJob(const FtraceEvent& e) {
  const auto context = e.Number("fence_context");
  const auto seqno = e.Number("fence_seqno");
  if (context && seqno) return DrmSchedJobKey{*context, *seqno};
  const std::string_view text = e.Text("fence").value_or("");
  if (text.find(':') != std::string_view::npos) {
    auto fence = ContextSeqno(text);
    if (!fence) return std::nullopt;
    return DrmSchedJobKey{fence->context, fence->seqno};
  }
  if (auto pointer = ParseFtraceNumber(text)) return DrmSchedJobKey{*pointer, kPointerKey};
  return std::nullopt;
}

std::optional<FenceRef> DrmSchedDependency(const FtraceEvent& e) {
  auto context = e.Number("ctx");
  if (!context) context = e.Number("context");
  auto seqno = e.Number("seqno");
  if (!seqno) seqno = e.Number("seq");
  if (context && seqno) return FenceRef{*context, *seqno};
  if (auto second = NthText(e, "fence", 1)) return ContextSeqno(*second);
  return std::nullopt;
}

}  // namespace importers::ftrace
