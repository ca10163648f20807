// GPU timestamps placed on the CPU clock (CLOCK_MONOTONIC): calibration records, from
// VK_EXT_calibrated_timestamps where the device has it, else from paired samples.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "importers/vulkan/layer/capture_recorder.h"
#include "importers/vulkan/layer/capture_timing.h"

namespace fencescope_layer {

namespace {

constexpr uint64_t kRecalibrateNs = 1000000000ull;
constexpr int kSamples = 8;
constexpr uint64_t kSampleTimeoutNs = 200000000ull;

// True when a calibration is due (once a second unless `force`); claims it for this thread.
bool Due(DeviceData& d, bool force) {
  const uint64_t now = NowNs();
  uint64_t last = d.last_calibration_ns.load(std::memory_order_relaxed);
  if (!force && last != 0 && now - last < kRecalibrateNs) return false;
  return d.last_calibration_ns.compare_exchange_strong(last, now);
}

struct Sample {
  uint64_t ticks;
  uint64_t before_ns;  // before the submission that wrote the timestamp
  uint64_t after_ns;   // after its fence wait returned
};

// One sample; false when the submission or its wait failed.
bool TakeSample(DeviceData& d, QueueState& q, Sample& out) {
  const VkSubmitInfo submit{
      VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &q.sample, 0, nullptr};
  out.before_ns = NowNs();
  if (d.QueueSubmit(q.queue, 1, &submit, q.sample_fence) != VK_SUCCESS) return false;
  const VkResult waited = d.WaitForFences(d.device, 1, &q.sample_fence, VK_TRUE, kSampleTimeoutNs);
  out.after_ns = NowNs();
  if (waited != VK_SUCCESS) {
    // Left pending: the fence cannot be reset, so no more samples on this device.
    d.paired_calibration_failed = true;
    return false;
  }
  d.ResetFences(d.device, 1, &q.sample_fence);
  uint64_t ticks = 0;
  if (d.GetQueryPoolResults(d.device, q.queries, kSampleQuery, 1, sizeof ticks, &ticks,
                            sizeof ticks, VK_QUERY_RESULT_64_BIT) != VK_SUCCESS) {
    return false;
  }
  out.ticks = ticks;
  return true;
}

}  // namespace

void Calibrate(DeviceData& d, bool force) {
  if (!d.calibrated || !d.GetCalibratedTimestampsEXT) return;
  if (!Due(d, force)) return;
  VkCalibratedTimestampInfoEXT infos[2] = {
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
       VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
  uint64_t values[2] = {};
  uint64_t deviation = 0;
  if (d.GetCalibratedTimestampsEXT(d.device, 2, infos, values, &deviation) == VK_SUCCESS) {
    Out().Write(RecordType::kCalibration,
                CalibrationRecord{H(d.device), values[0], values[1], deviation,
                                  uint32_t(CalibrationMethod::kCalibratedTimestamps), 1});
  }
}

void CalibrateBySamples(DeviceData& d, QueueState& q, bool force) {
  if (d.calibrated || !q.sample || d.paired_calibration_failed) return;
  if (!Due(d, force)) return;
  std::vector<Sample> samples;
  for (int i = 0; i < kSamples; ++i) {
    Sample s{};
    if (!TakeSample(d, q, s)) break;
    samples.push_back(s);
  }
  if (samples.empty()) return;
  // Each sample says the CPU time of its ticks lies in [before, after]. On the ticks of the
  // last sample, every sample bounds that CPU time; the interval all of them allow is used, or,
  // where they disagree (the clocks drift apart), the tightest single sample.
  const Sample& ref = samples.back();
  const double period = d.timestamp_period_ns > 0 ? d.timestamp_period_ns : 1.0;
  double low = 0, high = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const double shift = double(int64_t(ref.ticks - samples[i].ticks)) * period;
    const double lo = double(samples[i].before_ns) + shift;
    const double hi = double(samples[i].after_ns) + shift;
    low = i == 0 ? lo : std::max(low, lo);
    high = i == 0 ? hi : std::min(high, hi);
  }
  if (low > high) {
    const auto tightest = std::min_element(samples.begin(), samples.end(), [](auto& a, auto& b) {
      return a.after_ns - a.before_ns < b.after_ns - b.before_ns;
    });
    const double shift = double(int64_t(ref.ticks - tightest->ticks)) * period;
    low = double(tightest->before_ns) + shift;
    high = double(tightest->after_ns) + shift;
  }
  Out().Write(RecordType::kCalibration,
              CalibrationRecord{
                  H(d.device), ref.ticks, uint64_t((low + high) / 2), uint64_t((high - low) / 2),
                  uint32_t(CalibrationMethod::kPairedSamples), uint32_t(samples.size())});
}

}  // namespace fencescope_layer
