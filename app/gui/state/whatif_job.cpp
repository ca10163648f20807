#include "app/gui/state/whatif_job.h"

#include "app/gui/state/prediction.h"
#include "core/analysis/queue_time.h"
#include "core/replay/whatif.h"
#include "core/store/trace_store.h"

namespace app::gui::state {

struct ReplaySource {
  std::filesystem::path path;
  std::filesystem::file_time_type written;
  core::store::TraceStore store;
  core::analysis::Reconstruction recon;
  core::analysis::QueueTimeSplit queue_time;
  std::vector<timeline::Lane> baseline;
  std::vector<core::fleet::StepMark> steps;
};

namespace {

// Thrown by the progress callback to stop a replay.
struct Cancelled {};

// Fractions of the whole question: loading the trace, the replays, opening the prediction.
constexpr double kLoadShare = 0.2;
constexpr double kReplayShare = 0.65;

}  // namespace

std::unique_ptr<Document> Predict(const WhatIfRequest& request,
                                  std::shared_ptr<ReplaySource>& source,
                                  const std::function<void(double)>& progress) {
  auto report = [&](double f) {
    if (progress) progress(f);
  };
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(request.trace, ec);
  if (!source || source->path != request.trace || source->written != written) {
    auto fresh = std::make_shared<ReplaySource>();
    fresh->path = request.trace;
    fresh->written = written;
    fresh->store =
        core::store::LoadTrace(request.trace, [&](double f) { report(kLoadShare * 0.8 * f); });
    fresh->recon = core::analysis::Reconstruct(fresh->store);
    fresh->queue_time = core::analysis::ComputeQueueTime(fresh->store, fresh->recon);
    fresh->baseline = BaselineRuns(fresh->recon);
    std::string steps_from;
    fresh->steps = core::fleet::FindStepMarks(fresh->store, fresh->recon, &steps_from);
    source = std::move(fresh);
  }
  report(kLoadShare);
  auto prediction = std::make_shared<Prediction>();
  prediction->original = request.trace;
  prediction->result =
      core::replay::RunWhatIf(source->store, source->recon, request.edits, request.output,
                              [&](double f) { report(kLoadShare + kReplayShare * f); });
  prediction->text = core::replay::WhatIfText(prediction->result);
  prediction->fidelity = core::replay::FidelitySentence(prediction->result.fidelity);
  auto doc = LoadDocument(request.output, [&](double f) {
    report(kLoadShare + kReplayShare + (1.0 - kLoadShare - kReplayShare) * f);
  });
  prediction->span_before_ns = source->queue_time.span_ns;
  prediction->span_after_ns = doc->analysis.queue_time.span_ns;
  prediction->queues =
      PairQueues(source->store, source->queue_time, doc->analysis.queue_time);
  prediction->baseline = source->baseline;
  prediction->steps_before = source->steps;
  if (!source->steps.empty()) {
    // The document let go of the records steps are read from: the prediction's are read from
    // its file again.
    const core::store::TraceStore predicted = core::store::LoadTrace(request.output);
    const core::analysis::Reconstruction recon = core::analysis::Reconstruct(predicted);
    std::string steps_from;
    prediction->steps_after = core::fleet::FindStepMarks(predicted, recon, &steps_from);
  }
  doc->prediction = std::move(prediction);
  report(1.0);
  return doc;
}

WhatIfJob::WhatIfJob() = default;

WhatIfJob::~WhatIfJob() {
  m_cancel = true;
  if (m_thread.joinable()) m_thread.join();
}

void WhatIfJob::Start(WhatIfRequest request) {
  if (m_busy.load()) return;
  if (m_thread.joinable()) m_thread.join();
  m_busy = true;
  m_cancel = false;
  m_progress = 0.0;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_done = false;
    m_result.reset();
    m_error.clear();
  }
  m_thread = std::thread([this, request = std::move(request)] {
    std::unique_ptr<Document> doc;
    std::string error;
    try {
      doc = Predict(request, m_source, [this](double f) {
        if (m_cancel.load()) throw Cancelled{};
        m_progress = f;
      });
    } catch (const Cancelled&) {
    } catch (const std::exception& e) {
      error = e.what();
    }
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_result = std::move(doc);
      m_error = std::move(error);
      m_done = true;
    }
    m_busy = false;
  });
}

std::optional<std::unique_ptr<Document>> WhatIfJob::TakeResult(std::string& error) {
  if (m_busy.load()) return std::nullopt;
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_done) return std::nullopt;
  m_done = false;
  error = m_error;
  return std::move(m_result);
}

}  // namespace app::gui::state
