#include "app/gui/views/range_stats_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

using core::analysis::kNoIndex;
using core::analysis::kUnknownTime;
using core::model::TimeNs;

struct Edge {
  TimeNs t;
  int busy;
  int wait;
};

void DrawHistogram(const char* title, const LatencySummary& summary) {
  if (summary.count == 0) {
    ImGui::TextDisabled("%s: none in range", title);
    return;
  }
  ImGui::Text("%s: %zu, median %.1f us, p95 %.1f us, max %.1f us", title, summary.count,
              summary.median_us, summary.p95_us, summary.max_us);
  ImGui::PlotHistogram(
      fmt::format("##{}", title).c_str(), summary.histogram.data(),
      static_cast<int>(summary.histogram.size()), 0, "<1us, 1us, 2us, 4us ... (x2 per bar)", 0.0f,
      FLT_MAX,
      ImVec2(ImGui::GetContentRegionAvail().x - 8.0f, 70.0f * ImGui::GetFontSize() / 15.0f));
}

}  // namespace

LatencySummary SummarizeLatencies(std::vector<double> values_us, int buckets) {
  LatencySummary out;
  out.count = values_us.size();
  out.histogram.assign(buckets, 0.0f);
  if (values_us.empty()) return out;
  for (double v : values_us) {
    int k = v < 1.0 ? 0 : std::min(buckets - 1, static_cast<int>(std::log2(v)) + 1);
    out.histogram[k] += 1.0f;
  }
  std::sort(values_us.begin(), values_us.end());
  auto pct = [&](double p) { return values_us[static_cast<size_t>(p * (values_us.size() - 1))]; };
  out.median_us = pct(0.5);
  out.p95_us = pct(0.95);
  out.max_us = values_us.back();
  return out;
}

RangeStats ComputeRangeStats(const state::Document& doc, state::TimeRange range) {
  RangeStats stats;
  stats.range = range;
  const auto& r = doc.reconstruction;
  auto clip = [&](TimeNs a, TimeNs b) {
    return std::pair{std::max(a, range.start), std::min(b, range.end)};
  };
  for (const auto& q : doc.store.queues) {
    if (q.id >= r.queues.size()) continue;
    const auto& track = r.queues[q.id];
    QueueRangeStats qs;
    qs.queue = q.id;
    qs.name = q.name;
    std::vector<Edge> edges;
    for (const auto& seg : track.segments) {
      auto [a, b] = clip(seg.start, seg.end);
      if (b < a || (b == a && (seg.start < range.start || seg.start > range.end))) continue;
      ++qs.segments;
      edges.push_back({a, 1, 0});
      edges.push_back({b, -1, 0});
    }
    for (uint32_t w : track.waits) {
      const auto& wait = r.waits[w];
      TimeNs begin = wait.observed != kUnknownTime ? wait.observed : wait.Begin();
      TimeNs end = wait.unblocked != kUnknownTime ? wait.unblocked : doc.model.end;
      if (begin == kUnknownTime) continue;
      if (wait.unblocked != kUnknownTime && wait.unblocked >= range.start &&
          wait.unblocked <= range.end) {
        ++qs.waits;
        if (wait.signal != kNoIndex && r.signals[wait.signal].executed != kUnknownTime) {
          stats.fence_latency_us.push_back(
              static_cast<double>(wait.unblocked - r.signals[wait.signal].executed) / 1e3);
        }
      }
      auto [a, b] = clip(begin, end);
      if (b <= a) continue;
      edges.push_back({a, 0, 1});
      edges.push_back({b, 0, -1});
    }
    for (uint32_t s : track.signals) {
      TimeNs t = r.signals[s].executed;
      if (t != kUnknownTime && t >= range.start && t <= range.end) ++qs.signals;
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.t < b.t; });
    int busy = 0, wait = 0;
    TimeNs last = range.start;
    for (const Edge& e : edges) {
      TimeNs d = e.t - last;
      if (busy > 0)
        qs.busy += d;
      else if (wait > 0)
        qs.blocked += d;
      last = e.t;
      busy += e.busy;
      wait += e.wait;
    }
    qs.idle = range.Length() - qs.busy - qs.blocked;
    stats.queues.push_back(std::move(qs));
  }
  auto first_interrupt =
      std::lower_bound(r.interrupts.begin(), r.interrupts.end(), range.start,
                       [](const core::analysis::Interrupt& i, TimeNs t) { return i.ts < t; });
  for (auto it = first_interrupt; it != r.interrupts.end() && it->ts <= range.end; ++it) {
    ++stats.interrupts;
    if (it->spurious) ++stats.spurious_interrupts;
  }
  for (const auto& w : r.cpu_waits) {
    if (w.released == kUnknownTime || w.released < range.start || w.released > range.end) continue;
    ++stats.cpu_waits;
    if (w.begin != kUnknownTime) stats.cpu_wait_us.push_back((w.released - w.begin) / 1e3);
  }
  constexpr int kBuckets = 20;
  stats.fence_latency = SummarizeLatencies(stats.fence_latency_us, kBuckets);
  stats.cpu_wait = SummarizeLatencies(stats.cpu_wait_us, kBuckets);
  return stats;
}

void RangeStatsView::Draw(state::Document& doc) {
  state::TimeRange range = doc.view.selected_range.Valid()
                               ? doc.view.selected_range
                               : state::TimeRange{doc.model.start, doc.model.end};
  if (!m_valid || m_doc != &doc || m_stats.range.start != range.start ||
      m_stats.range.end != range.end) {
    m_stats = ComputeRangeStats(doc, range);
    m_doc = &doc;
    m_valid = true;
  }
  ImGui::Text("%s %s .. %s  (%s)",
              doc.view.selected_range.Valid() ? "Selected range" : "Whole trace",
              widgets::FormatTime(range.start, doc.model.start).c_str(),
              widgets::FormatTime(range.end, doc.model.start).c_str(),
              widgets::FormatDuration(range.Length()).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(right-drag or Shift+drag on the timeline selects a range)");
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("queues", 7, kFlags)) {
    for (const char* c :
         {"queue", "busy", "blocked on fence", "idle", "packets", "signals", "waits unblocked"}) {
      ImGui::TableSetupColumn(c);
    }
    ImGui::TableHeadersRow();
    const double len = std::max<double>(1.0, static_cast<double>(range.Length()));
    for (const auto& q : m_stats.queues) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(q.name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::ProgressBar(
          static_cast<float>(q.busy / len), ImVec2(-1, 0),
          fmt::format("{} ({:.1f}%)", widgets::FormatDuration(q.busy), 100.0 * q.busy / len)
              .c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%s (%.1f%%)", widgets::FormatDuration(q.blocked).c_str(),
                  100.0 * q.blocked / len);
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%s (%.1f%%)", widgets::FormatDuration(q.idle).c_str(), 100.0 * q.idle / len);
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%llu", static_cast<unsigned long long>(q.segments));
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%llu", static_cast<unsigned long long>(q.signals));
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%llu", static_cast<unsigned long long>(q.waits));
    }
    ImGui::EndTable();
  }
  ImGui::Text("interrupts %llu (spurious %llu), CPU waits released %llu",
              static_cast<unsigned long long>(m_stats.interrupts),
              static_cast<unsigned long long>(m_stats.spurious_interrupts),
              static_cast<unsigned long long>(m_stats.cpu_waits));
  ImGui::Columns(2, nullptr, false);
  DrawHistogram("fence latency (signal executed -> wait unblocked)", m_stats.fence_latency);
  ImGui::NextColumn();
  DrawHistogram("CPU wait time", m_stats.cpu_wait);
  ImGui::Columns(1);
}

}  // namespace app::gui::views
