// GPU timestamps on the CPU clock: the calibration that places them, and the shift that keeps
// them in the order the CPU saw.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer_state.h"

namespace importers::vulkan::detail {

// The latest calibration at or before the ticks (the first one otherwise); 0 without any.
size_t FileImporter::CalibrationIndex(const DeviceState& device, uint64_t ticks) {
  size_t use = 0;
  for (size_t i = 0; i < device.calibrations.size(); ++i) {
    if (device.calibrations[i].gpu_ticks <= ticks) use = i;
  }
  return use;
}

namespace {
// ns held as a double, as int64 within +-4.6e18 (about 146 years): a damaged capture's ticks,
// period or calibration can put it anywhere, and converting a double outside int64's range
// (or NaN) is undefined (found by fuzz_vulkan_records).
int64_t ClampedNs(double ns) {
  constexpr double kLimit = 4.6e18;
  if (!(ns > -kLimit)) return int64_t(-kLimit);
  if (ns > kLimit) return int64_t(kLimit);
  return int64_t(ns);
}
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}
}  // namespace

TimeNs FileImporter::GpuTime(DeviceState& device, uint64_t ticks) {
  const double period =
      device.record.timestamp_period_ns > 0 ? device.record.timestamp_period_ns : 1.0;
  const size_t index = CalibrationIndex(device, ticks);
  const double shift =
      index < device.causal_shift_ns.size() ? device.causal_shift_ns[index] : 0.0;
  if (!device.calibrations.empty()) {
    const CalibrationRecord& use = device.calibrations[index];
    const double delta = double(int64_t(ticks - use.gpu_ticks)) * period;
    return TimeNs(SaturatingAdd(SaturatingAdd(int64_t(use.cpu_ns), ClampedNs(delta)),
                                ClampedNs(std::round(shift))));
  }
  return TimeNs(ClampedNs(double(ticks) * period + device.offset_ns + shift));
}

// Causal order (a fact, unlike the calibration, which is an estimate): a batch starts no
// earlier than its vkQueueSubmit entry and than the vkSignalSemaphore entry that released its
// wait, and completes no later than the return of a CPU wait its signal released. Per device
// and calibration, the shift of its GPU times must lie in [latest lower bound, earliest upper
// bound]; the smallest such shift is taken. Where no shift satisfies both (the two clocks
// drift within one calibration), the middle of the two is taken and a problem says by how much
// the order is still broken.
bool FileImporter::KeepCausalOrder() {
  struct Range {
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
  };
  std::map<std::pair<uint64_t, size_t>, Range> ranges;  // by (device, calibration)
  // The differences in double: a damaged capture's times can lie ~2^63 apart, past what an
  // int64 difference holds (found by fuzz_vulkan_records); GpuTime clamps the shift it makes.
  for (const CausalBound& c : m_causal_bounds) {
    const Batch& b = *c.batch;
    auto device = m_devices.find(b.device);
    if (device == m_devices.end()) continue;
    if (c.completed) {
      Range& r = ranges[{b.device, CalibrationIndex(device->second, b.end_ticks)}];
      r.high = std::min(r.high, double(c.cpu) - double(b.gpu_end));
    } else {
      Range& r = ranges[{b.device, CalibrationIndex(device->second, b.start_ticks)}];
      r.low = std::max(r.low, double(c.cpu) - double(b.gpu_start));
    }
  }
  bool changed = false;
  double largest = 0, deviation = 0, broken = 0;
  for (const auto& [key, r] : ranges) {
    if (r.low <= 0 && r.high >= 0) continue;
    DeviceState& d = m_devices[key.first];
    const double shift = r.low <= r.high ? (r.low > 0 ? r.low : r.high) : (r.low + r.high) / 2;
    if (r.low > r.high) broken = std::max(broken, (r.low - r.high) / 2);
    d.causal_shift_ns.resize(std::max<size_t>(1, d.calibrations.size()), 0.0);
    d.causal_shift_ns[key.second] += shift;
    largest = std::max(largest, std::abs(shift));
    if (key.second < d.calibrations.size()) {
      deviation = std::max(deviation, double(d.calibrations[key.second].max_deviation_ns));
    }
    changed = true;
  }
  if (changed) {
    m_writer.SetMeta("vulkan_gpu_clock_causal_shift_ns", fmt::format("{:.0f}", largest));
    Problem("vulkan_gpu_clock_shifted", Severity::kInfo,
            fmt::format("GPU times shifted by up to {:.0f} ns (the calibration's stated "
                        "uncertainty: +-{:.0f} ns) so that no batch starts before its "
                        "submission or a host signal it waited for, or completes after a CPU "
                        "wait it released returned",
                        largest, deviation));
  }
  if (broken > 0) {
    Problem("vulkan_gpu_clock_out_of_causal_order", Severity::kInfo,
            fmt::format("no single shift of one calibration's GPU times keeps every start after "
                        "its submission and every completion before the CPU saw it (the clocks "
                        "drift apart); up to {:.0f} ns out of order remain",
                        broken));
  }
  return changed;
}

}  // namespace importers::vulkan::detail
