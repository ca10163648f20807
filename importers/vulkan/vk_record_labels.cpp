// Debug-utils labels of a capture and where its GPU times come from.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer_state.h"

namespace importers::vulkan::detail {

// A packet's name: the queue labels open when it was submitted (vkQueueBeginDebugUtilsLabelEXT
// .. End, outermost first), then its command buffers' labels or names, joined by " / ".
void FileImporter::NameBatches() {
  for (auto& [handle, q] : m_queues) {
    std::vector<const QueueLabel*> labels;
    if (auto it = m_queue_labels.find(handle); it != m_queue_labels.end()) {
      for (const QueueLabel& l : it->second) labels.push_back(&l);
    }
    std::stable_sort(labels.begin(), labels.end(), [](const QueueLabel* a, const QueueLabel* b) {
      return a->record.cpu_ns < b->record.cpu_ns;
    });
    std::vector<std::string> open;
    size_t next = 0;
    for (uint64_t id : q.batches) {
      Batch& b = m_batches[id];
      for (; next < labels.size() && labels[next]->record.cpu_ns <= b.record.cpu_ns; ++next) {
        const QueueLabelOp op = QueueLabelOp(labels[next]->record.op);
        if (op == QueueLabelOp::kBegin) open.push_back(labels[next]->text);
        if (op == QueueLabelOp::kEnd && !open.empty()) open.pop_back();
      }
      std::string name;
      for (const std::string& part : open) name += (name.empty() ? "" : " / ") + part;
      if (!b.label.empty()) name += (name.empty() ? "" : " / ") + b.label;
      if (!name.empty()) ++m_stats.named_batches;
      b.name = std::move(name);
    }
  }
}

// vkQueueInsertDebugUtilsLabelEXT: a text marker on the queue at the call's CPU time.
void FileImporter::EmitQueueLabelMarkers() {
  for (const auto& [handle, labels] : m_queue_labels) {
    auto queue = m_queues.find(handle);
    if (queue == m_queues.end()) continue;
    const QueueState& q = queue->second;
    const auto device = m_devices.find(q.record.device);
    for (const QueueLabel& l : labels) {
      if (QueueLabelOp(l.record.op) != QueueLabelOp::kInsert) continue;
      Emit(events::Marker{.ts_ns = TimeNs(l.record.cpu_ns),
                          .queue_id = q.id,
                          .thread_id = Thread(l.tid),
                          .name_sid = m_writer.Intern(l.text),
                          .adapter_id = device != m_devices.end() ? device->second.adapter : 0,
                          .marker_type = 0});
    }
  }
}

// Trace meta `vulkan_gpu_clock`: calibrated_timestamps, paired_samples (with the widest
// uncertainty as an info problem) or after_submission (no calibration: GPU times placed so
// that no batch starts before its submission).
void FileImporter::DescribeGpuClock() {
  for (const auto& [handle, device] : m_devices) {
    if (device.calibrations.empty()) {
      if (device.have_offset) m_writer.SetMeta("vulkan_gpu_clock", "after_submission");
      continue;
    }
    uint64_t widest = 0;
    bool paired = false;
    for (const CalibrationRecord& c : device.calibrations) {
      if (c.method != uint32_t(CalibrationMethod::kPairedSamples)) continue;
      paired = true;
      widest = std::max(widest, c.max_deviation_ns);
    }
    m_writer.SetMeta("vulkan_gpu_clock", paired ? "paired_samples" : "calibrated_timestamps");
    if (paired) {
      Problem(
          "vulkan_gpu_clock_paired_samples", Severity::kInfo,
          fmt::format("VK_EXT_calibrated_timestamps not used (the device lacks it, or "
                      "FENCESCOPE_CAPTURE_CALIBRATION=samples): GPU times placed on the CPU clock "
                      "by paired samples, within +-{} ns",
                      widest));
    }
  }
}

}  // namespace importers::vulkan::detail
