#include "app/gui/state/prediction.h"

#include "core/report/report_data.h"

namespace app::gui::state {

std::vector<timeline::Lane> BaselineRuns(const core::analysis::Reconstruction& original) {
  std::vector<timeline::Lane> out(original.queues.size());
  for (size_t q = 0; q < original.queues.size(); ++q) {
    const auto& segments = original.queues[q].segments;
    std::vector<uint32_t> items(segments.size());
    std::vector<core::model::TimeNs> start(segments.size()), end(segments.size());
    for (uint32_t i = 0; i < segments.size(); ++i) {
      const core::analysis::RunSegment s = segments[i];
      items[i] = i;
      start[i] = s.start;
      end[i] = std::max(s.start, s.end);
    }
    out[q] = timeline::MakeLane(timeline::LaneKind::kRunSegments, static_cast<uint32_t>(q), items,
                                start, end);
  }
  return out;
}

const core::fleet::StepMark* FindStep(const std::vector<core::fleet::StepMark>& steps,
                                      int64_t id) {
  for (const auto& step : steps) {
    if (step.id == id) return &step;
  }
  return nullptr;
}

std::vector<QueueBeforeAfter> PairQueues(const core::store::TraceStore& names,
                                         const core::analysis::QueueTimeSplit& before,
                                         const core::analysis::QueueTimeSplit& after) {
  std::vector<QueueBeforeAfter> out;
  for (const core::analysis::QueueTime& b : before.queues) {
    QueueBeforeAfter row;
    row.queue = b.queue;
    row.name = core::report::QueueName(names, b.queue);
    row.before = b;
    for (const core::analysis::QueueTime& a : after.queues) {
      if (a.queue == b.queue) row.after = a;
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace app::gui::state
