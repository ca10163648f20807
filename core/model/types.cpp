#include "core/model/types.h"

#include <array>
#include <cstdint>
#include <utility>

namespace core::model {
namespace {
template <size_t N>
std::string_view Lookup(const std::array<std::string_view, N>& names, size_t index) {
  return index < N ? names[index] : std::string_view{"unknown"};
}
}  // namespace

std::string_view EngineTypeName(EngineType type) {
  static constexpr std::array<std::string_view, 5> kNames = {"3d", "compute", "copy", "video",
                                                             "other"};
  return Lookup(kNames, static_cast<size_t>(type));
}
QueueType QueueTypeOf(EngineType type) {
  switch (type) {
    case EngineType::k3D: return QueueType::k3D;
    case EngineType::kCompute: return QueueType::kCompute;
    case EngineType::kCopy: return QueueType::kCopy;
    case EngineType::kVideo: return QueueType::kVideo;
    case EngineType::kOther: break;
  }
  return QueueType::kOther;
}

std::string_view QueueTypeName(QueueType type) {
  static constexpr std::array<std::string_view, 6> kNames = {"3d",    "compute",  "copy",
                                                             "video", "software", "other"};
  return Lookup(kNames, static_cast<size_t>(type));
}
std::string_view FenceKindName(FenceKind kind) {
  static constexpr std::array<std::string_view, 4> kNames = {"native", "monitored",
                                                             "cross_adapter", "other"};
  return Lookup(kNames, static_cast<size_t>(kind));
}
std::string_view PreemptionGranularityName(PreemptionGranularity granularity) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "none", "dma_buffer", "primitive", "triangle", "pixel",
      "shader", "dispatch", "thread_group", "thread"};
  return Lookup(kNames, static_cast<size_t>(granularity));
}
std::string_view BackgroundModeName(BackgroundMode mode) {
  static constexpr std::array<std::string_view, 4> kNames = {
      "allowed", "allow_intrusive_measurements", "disable_background_work",
      "disable_profiling_by_system"};
  return Lookup(kNames, static_cast<size_t>(mode));
}
std::string_view MeasurementsActionName(MeasurementsAction action) {
  static constexpr std::array<std::string_view, 4> kNames = {
      "keep_all", "commit_results", "commit_results_high_priority", "discard_previous"};
  return Lookup(kNames, static_cast<size_t>(action));
}
std::string_view ReleaseLinkName(ReleaseLink link) {
  static constexpr std::array<std::string_view, 3> kNames = {"not_given", "from_capture",
                                                             "inferred"};
  return Lookup(kNames, static_cast<size_t>(link));
}

std::string_view SeverityName(Severity severity) {
  static constexpr std::array<std::string_view, 3> kNames = {"info", "error", "data_loss"};
  return Lookup(kNames, static_cast<size_t>(severity));
}

std::string_view EnumValueName(std::string_view enum_name, int64_t value) {
  using Namer = std::string_view (*)(uint8_t);
  static constexpr std::pair<std::string_view, Namer> kEnums[] = {
      {"engine_type", [](uint8_t v) { return EngineTypeName(static_cast<EngineType>(v)); }},
      {"queue_type", [](uint8_t v) { return QueueTypeName(static_cast<QueueType>(v)); }},
      {"fence_kind", [](uint8_t v) { return FenceKindName(static_cast<FenceKind>(v)); }},
      {"preemption_granularity",
       [](uint8_t v) { return PreemptionGranularityName(static_cast<PreemptionGranularity>(v)); }},
      {"background_mode",
       [](uint8_t v) { return BackgroundModeName(static_cast<BackgroundMode>(v)); }},
      {"measurements_action",
       [](uint8_t v) { return MeasurementsActionName(static_cast<MeasurementsAction>(v)); }},
      {"release_link", [](uint8_t v) { return ReleaseLinkName(static_cast<ReleaseLink>(v)); }},
      {"severity", [](uint8_t v) { return SeverityName(static_cast<Severity>(v)); }},
  };
  for (const auto& [name, namer] : kEnums) {
    if (name != enum_name) continue;
    return value < 0 || value > UINT8_MAX ? std::string_view{"unknown"}
                                          : namer(static_cast<uint8_t>(value));
  }
  return {};
}

}  // namespace core::model
