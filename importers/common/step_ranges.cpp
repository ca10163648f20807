#include "importers/common/step_ranges.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/model/event_fields.h"
#include "importers/common/nested_cpu_slices.h"

namespace importers {
namespace {

constexpr std::string_view kStepWords[] = {"iteration", "iter", "step"};

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

}  // namespace

std::optional<int64_t> StepNumberOf(std::string_view text) {
  const std::string lower = Lower(text);
  for (std::string_view word : kStepWords) {
    if (!lower.starts_with(word)) continue;
    std::string_view rest = std::string_view(lower).substr(word.size());
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '#' || rest.front() == '_')) {
      rest.remove_prefix(1);
    }
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
    if (ec == std::errc() && end == rest.data() + rest.size() && !rest.empty()) return n;
    return std::nullopt;
  }
  return std::nullopt;
}

bool NamesStepWithoutNumber(std::string_view text) {
  const std::string lower = Lower(text);
  for (std::string_view word : kStepWords) {
    if (lower == word) return true;
    if (lower.size() <= word.size() || !lower.ends_with(word)) continue;
    const char before = lower[lower.size() - word.size() - 1];
    if (before == '_' || before == ' ' || before == '-') return true;
  }
  return false;
}

std::vector<StepRange> StepRanges(std::vector<MarkerRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const MarkerRange& a, const MarkerRange& b) {
    return std::tie(a.start, a.end) < std::tie(b.start, b.end);
  });
  std::vector<StepRange> steps;
  for (const MarkerRange& r : ranges) {
    if (const auto n = StepNumberOf(r.text)) steps.push_back({r.start, r.end, *n});
  }
  if (!steps.empty()) return steps;
  // Rule "repeated step name": no range is numbered; the unnumbered step name seen most often
  // marks the iterations, numbered in time order.
  std::map<std::string_view, std::pair<uint64_t, size_t>> seen;  // text -> (count, first index)
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (!NamesStepWithoutNumber(ranges[i].text)) continue;
    auto [it, added] = seen.try_emplace(ranges[i].text, 0, i);
    ++it->second.first;
  }
  const std::string_view* chosen = nullptr;
  std::pair<uint64_t, size_t> best{1, 0};  // at least twice
  for (const auto& [text, count_first] : seen) {
    if (count_first.first > best.first ||
        (count_first.first == best.first && chosen && count_first.second < best.second)) {
      chosen = &text, best = count_first;
    }
  }
  if (!chosen) return steps;
  int64_t previous_end = INT64_MIN;
  for (const MarkerRange& r : ranges) {
    if (r.text != *chosen || r.start < previous_end) continue;
    steps.push_back({r.start, r.end, static_cast<int64_t>(steps.size()) + 1});
    previous_end = r.end;
  }
  return steps;
}

uint64_t AddStepSlices(const std::vector<StepRange>& steps, core::model::ProcessId process,
                       const std::string& thread_name, std::string_view category,
                       RecordSink& sink, core::store::TraceWriter& writer) {
  if (steps.empty()) return 0;
  const core::model::ThreadId thread = writer.AddThread(
      {process, -1, core::model::ThreadKind::kRuntimeBackground, thread_name});
  const core::model::StringId category_sid = writer.Intern(category);
  std::vector<PendingCpuSlice> slices;
  slices.reserve(steps.size());
  for (const StepRange& s : steps) {
    slices.push_back({s.start, std::max(s.start, s.end), thread,
                      writer.Intern(fmt::format("ProfilerStep#{}", s.number)), category_sid, 0});
  }
  AddNestedCpuSlices(slices, sink, [](const PendingCpuSlice&, uint32_t) {});
  return slices.size();
}

}  // namespace importers
