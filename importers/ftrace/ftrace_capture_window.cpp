#include "importers/ftrace/ftrace_capture_window.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/model/event_fields.h"

namespace importers::ftrace {

using namespace core::model;  // NOLINT: the model's vocabulary
using core::store::EventRecord;

namespace {

// What a record belongs to: a packet (by packet id) or an operation (signal, GPU wait or CPU
// waiter: one id space in the mapper), read through the kind's field table. nullopt for records
// that stand alone (slices, markers, instants).
using Owner = std::pair<bool, int64_t>;  // (is a packet, id)

std::optional<Owner> OwnerOf(const EventRecord& r) {
  for (const EventField& field : FieldsOf(r.kind)) {
    if (field.name == "packet_id") return Owner{true, FieldValue(r, field)};
    if (field.name == "signal_id" || field.name == "wait_id" || field.name == "waiter_id") {
      return Owner{false, FieldValue(r, field)};
    }
  }
  return std::nullopt;
}

// The duration field of a slice record (CpuSlice, AsyncSlice), nullptr for other kinds.
const EventField* DurationOf(const EventRecord& r) {
  for (const EventField& field : FieldsOf(r.kind)) {
    if (field.name == "duration_ns") return &field;
  }
  return nullptr;
}

}  // namespace

std::string FtraceSeconds(int64_t ts_ns) {
  const int64_t us = (ts_ns + 500) / 1000;  // to the microsecond, as ftrace text prints it
  return fmt::format("{}.{:06} s", us / 1'000'000, us % 1'000'000);
}

int64_t CpuCoverage::FirstTs() const {
  int64_t first = INT64_MAX;
  for (const auto& [cpu, ts] : first_ts) first = std::min(first, ts);
  return first == INT64_MAX ? 0 : first;
}

int64_t CpuCoverage::CompleteFrom() const {
  if (events.empty()) return 0;
  uint64_t most = 0;
  for (const auto& [cpu, count] : events) most = std::max(most, count);
  int64_t from = FirstTs();
  for (const auto& [cpu, ts] : first_ts) {
    const uint64_t count = events.at(cpu);
    const bool full = count >= kFullBufferEvents && 2 * count >= most;
    const bool late = before.at(cpu) >= std::max(kFullBufferEvents, total / 20);
    if (full && late) from = std::max(from, ts);
  }
  return from;
}

std::string CpuCoverage::Describe() const {
  std::vector<std::pair<int64_t, int32_t>> order;
  for (const auto& [cpu, ts] : first_ts) order.emplace_back(ts, cpu);
  std::sort(order.begin(), order.end());
  std::string out;
  for (const auto& [ts, cpu] : order) {
    if (!out.empty()) out += ", ";
    out += fmt::format("CPU {} from {}", cpu, FtraceSeconds(ts));
  }
  return out;
}

CropCounts CropToWindow(std::vector<EventRecord>& records, int64_t from) {
  CropCounts counts;
  // Owners with a record in the window, and signals that released a wait in it.
  std::set<Owner> live;
  for (const EventRecord& r : records) {
    if (r.ts < from) continue;
    if (auto owner = OwnerOf(r)) live.insert(*owner);
    if (r.kind == EventKind::FenceWaitUnblocked) {
      const int64_t signal = events::FenceWaitUnblocked::Of(r).released_by_signal_id;
      if (signal) live.insert({false, signal});
    }
  }
  size_t kept = 0;
  for (EventRecord& r : records) {
    if (r.ts < from) {
      if (const EventField* duration = DurationOf(r)) {
        // A slice (thread state, atrace, async): cut at `from`, or left out if it ends before.
        const int64_t end = r.ts + FieldValue(r, *duration);
        if (end <= from) {
          ++counts.dropped;
          continue;
        }
        SetColumnValue(r, duration->column, end - from);
        r.ts = from;
        ++counts.moved;
      } else if (auto owner = OwnerOf(r); owner && live.count(*owner)) {
        r.ts = from;
        ++counts.moved;
      } else {
        ++counts.dropped;
        continue;
      }
    }
    records[kept++] = r;
  }
  records.resize(kept);
  return counts;
}

}  // namespace importers::ftrace
