#include "app/gui/views/range_stats_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <utility>

#include "app/gui/widgets/time_format.h"
#include "core/report/figure_labels.h"

namespace app::gui::views {
namespace {

using core::analysis::LatencyGroup;
using core::analysis::Log2Histogram;
using core::analysis::Percentiles;
using core::model::DurationNs;
namespace labels = core::report;

std::string Share(DurationNs ns, double range_ns) {
  return fmt::format("{} ({:.1f}%)", widgets::FormatDuration(ns), 100.0 * ns / range_ns);
}

std::string PercentilesText(const Percentiles& p) {
  return fmt::format("median {}, p90 {}, p99 {}, max {}", widgets::FormatDuration(p.p50),
                     widgets::FormatDuration(p.p90), widgets::FormatDuration(p.p99),
                     widgets::FormatDuration(p.max));
}

// A log2 histogram as bars: bar 0 holds zeros, bar k >= 1 [2^(k-1), 2^k) ns.
void DrawHistogram(const char* id, const Log2Histogram& h) {
  std::vector<float> bars(h.counts.begin(), h.counts.end());
  if (bars.empty()) return;
  ImGui::PlotHistogram(id, bars.data(), static_cast<int>(bars.size()), 0,
                       "0, 1 ns, 2 ns, 4 ns ... (x2 per bar)", 0.0f, FLT_MAX,
                       ImVec2(ImGui::GetContentRegionAvail().x - 8.0f,
                              70.0f * ImGui::GetFontSize() / 15.0f));
}

void DrawLatency(const char* title, const LatencyGroup& g, const Log2Histogram& to_unblock) {
  if (g.to_unblock.count == 0) {
    ImGui::TextDisabled("%s: none unblocked in range", title);
    return;
  }
  ImGui::Text("%s, %llu waits", title, static_cast<unsigned long long>(g.to_unblock.count));
  ImGui::Text("%s: %s", labels::kToUnblock, PercentilesText(g.to_unblock).c_str());
  ImGui::Text("  %s: median %s, p90 %s", labels::kBeforeReached,
              widgets::FormatDuration(g.before_reached.p50).c_str(),
              widgets::FormatDuration(g.before_reached.p90).c_str());
  ImGui::Text("  %s: median %s, p90 %s", labels::kAfterReached,
              widgets::FormatDuration(g.after_reached.p50).c_str(),
              widgets::FormatDuration(g.after_reached.p90).c_str());
  ImGui::Text("%s: %s", labels::kToSignal, PercentilesText(g.to_signal).c_str());
  DrawHistogram(fmt::format("##{}", title).c_str(), to_unblock);
}

}  // namespace

core::analysis::TimeRange RangeStatsView::RangeShown(const state::Document& doc) {
  if (doc.view.selected_range.Valid()) {
    return {doc.view.selected_range.start, doc.view.selected_range.end};
  }
  return core::analysis::TraceSpan(doc.analysis.recon);
}

const core::analysis::RangeStats& RangeStatsView::StatsFor(const state::Document& doc,
                                                           core::analysis::TimeRange range) {
  if (!m_valid || m_doc != &doc || m_stats.range.start != range.start ||
      m_stats.range.end != range.end) {
    m_stats = core::analysis::ComputeRangeStats(doc.store, doc.analysis.recon, range);
    m_doc = &doc;
    m_valid = true;
  }
  return m_stats;
}

const core::analysis::RangeStats* RangeStatsView::StatsShown(const state::Document& doc,
                                                             core::analysis::TimeRange range) {
  const core::analysis::TimeRange whole = core::analysis::TraceSpan(doc.analysis.recon);
  if (range.start == whole.start && range.end == whole.end) return &doc.whole.range;
  if (m_background_doc != &doc) {
    m_background.Reset();
    m_background_doc = &doc;
  }
  return m_background.Get({range.start, range.end}, [&doc, range] {
    return core::analysis::ComputeRangeStats(doc.store, doc.analysis.recon, range);
  });
}

void RangeStatsView::Draw(state::Document& doc) {
  const core::analysis::TimeRange range = RangeShown(doc);
  const core::analysis::RangeStats* shown = StatsShown(doc, range);
  if (!shown) {
    ImGui::TextDisabled("Computing the figures of the selected range...");
    return;
  }
  const core::analysis::RangeStats& stats = *shown;
  ImGui::Text("%s %s .. %s  (%s)",
              doc.view.selected_range.Valid() ? "Selected range" : "Whole trace",
              widgets::FormatTime(range.start, doc.model.start).c_str(),
              widgets::FormatTime(range.end, doc.model.start).c_str(),
              widgets::FormatDuration(range.Length()).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(right-drag or Shift+drag on the timeline selects a range)");
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("queues", 10, kFlags)) {
    // the three times get the room their bars and percentages need
    const std::pair<const char*, float> columns[] = {
        {"queue", 1.3f},
        {"busy", 1.6f},
        {"waiting on a fence", 1.6f},
        {"idle", 1.6f},
        {labels::kPacketsSubmitted, 1.0f},
        {labels::kPacketsStarted, 0.7f},
        {labels::kPacketsCompleted, 0.7f},
        {labels::kPacketsRunningAtEnd, 0.9f},
        {"signals executed", 0.9f},
        {"waits unblocked", 0.9f}};
    for (const auto& [name, weight] : columns) {
      ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthStretch, weight);
    }
    ImGui::TableHeadersRow();
    const double len = std::max<double>(1.0, static_cast<double>(range.Length()));
    for (const auto& q : stats.queue_time.queues) {
      const auto* queue = doc.store.FindQueue(q.queue);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(queue ? queue->name.c_str() : "-");
      ImGui::TableSetColumnIndex(1);
      ImGui::ProgressBar(static_cast<float>(q.busy_ns / len), ImVec2(-1, 0),
                         Share(q.busy_ns, len).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(Share(q.waiting_ns, len).c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(Share(q.idle_ns, len).c_str());
      const uint64_t counts[] = {q.counts.submitted, q.counts.started, q.counts.completed,
                                 q.counts.running_at_end, q.signals_executed, q.waits_unblocked};
      for (int c = 0; c < 6; ++c) {
        ImGui::TableSetColumnIndex(4 + c);
        ImGui::Text("%llu", static_cast<unsigned long long>(counts[c]));
      }
    }
    ImGui::EndTable();
  }
  ImGui::Text("interrupts %llu (spurious %llu, peak %llu per ms), CPU waits released %llu",
              static_cast<unsigned long long>(stats.interrupts.total),
              static_cast<unsigned long long>(stats.interrupts.spurious),
              static_cast<unsigned long long>(stats.interrupts.peak_per_ms),
              static_cast<unsigned long long>(stats.cpu_waits_released));
  ImGui::TextDisabled("(?) how signal executed -> unblocked is split");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    ImGui::TextUnformatted(labels::kToUnblockExplained);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::Columns(2, nullptr, false);
  DrawLatency("GPU waits", stats.latency.gpu, stats.latency.gpu_to_unblock_hist);
  ImGui::NextColumn();
  DrawLatency("CPU waits", stats.latency.cpu, stats.latency.cpu_to_unblock_hist);
  ImGui::Columns(1);
}

}  // namespace app::gui::views
