#include "app/gui/views/fleet_view.h"

#include <imgui.h>

#include <fmt/format.h>

#include <map>

#include "app/cli/fleet_commands.h"
#include "app/gui/views/fleet_heat_map.h"
#include "core/fleet/fleet_report.h"
#include "core/model/error.h"
#include "core/report/svg_chart.h"

namespace app::gui::views {

bool IsFleetDirectory(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         std::filesystem::exists(core::fleet::FleetPaths{path}.InputList(), ec);
}

std::unique_ptr<FleetView> LoadFleet(const std::filesystem::path& dir) {
  const core::fleet::FleetPaths paths{std::filesystem::absolute(dir)};
  core::fleet::FleetAnalysis analysis = cli::ReduceFleet(paths, core::fleet::FleetDetail::kLanes);
  const std::vector<std::filesystem::path> inputs = core::fleet::ReadInputList(paths);
  std::map<std::string, size_t> index_of;
  for (size_t i = 0; i < inputs.size(); ++i) index_of[inputs[i].string()] = i;
  std::vector<std::filesystem::path> databases;
  for (const core::fleet::RankRow& r : analysis.ranks) {
    databases.push_back(paths.Database(index_of.at(r.input)));
  }
  return std::make_unique<FleetView>(std::move(analysis), std::move(databases));
}

FleetView::FleetView(core::fleet::FleetAnalysis analysis,
                     std::vector<std::filesystem::path> databases)
    : m_analysis(std::move(analysis)), m_databases(std::move(databases)) {}

FleetView::OpenRequest FleetView::RequestFor(size_t rank_index, size_t step_index) const {
  const core::fleet::StepRow& step = m_analysis.steps.at(step_index);
  OpenRequest request;
  request.database = m_databases.at(rank_index);
  request.start = step.start_ns.at(rank_index);
  request.end = request.start + step.step_ns.at(rank_index);
  return request;
}

FleetView::OpenRequest FleetView::RequestFor(const FleetTimeline::Click& click) const {
  const core::fleet::LaneStep& step = m_analysis.lanes.at(click.rank).steps.at(click.step);
  const int64_t offset = m_analysis.ranks.at(click.rank).offset_ns;
  return {m_databases.at(click.rank), step.start_ns + offset, step.end_ns + offset};
}

FleetView::Tab FleetView::TabNamed(const std::string& name) {
  if (name == "heat-map") return Tab::kHeatMap;
  if (name == "timeline") return Tab::kTimeline;
  if (name == "stragglers") return Tab::kStragglers;
  if (name == "ranks") return Tab::kRanks;
  throw core::Error("--fleet-tab " + name +
                    ": not a fleet tab (heat-map, timeline, stragglers, ranks)");
}

std::optional<FleetView::OpenRequest> FleetView::Draw() {
  using core::report::FormatDuration;
  std::optional<OpenRequest> request;
  const auto& a = m_analysis;
  ImGui::SetNextWindowSize(ImVec2(700, 420), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Fleet")) {
    ImGui::End();
    return request;
  }
  const bool runs = a.options.traces_are == core::fleet::TracesAre::kRuns;
  const char* unit = core::fleet::TraceName(a.options.traces_are);
  const std::string clocks =
      a.clock_method == "none"
          ? std::string("clocks not aligned (no step matched)")
          : fmt::format("clocks aligned by {} to {} {}", a.clock_method, unit, a.reference_rank);
  ImGui::TextWrapped("%zu %ss, %zu steps matched (%zu unmatched), %zu traces failed; %s%s",
                     a.ranks.size(), unit, a.steps.size(), a.steps_unmatched, a.failed.size(),
                     clocks.c_str(),
                     runs ? "; a step's straggler is the run whose step took longest" : "");
  auto flags = [&](Tab tab) {
    return m_show_tab == tab ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
  };
  if (ImGui::BeginTabBar("fleet tabs")) {
    if (ImGui::BeginTabItem("Step time", nullptr, flags(Tab::kHeatMap))) {
      if (auto cell = DrawHeatMap(a)) request = RequestFor(cell->rank, cell->step);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Timeline", nullptr, flags(Tab::kTimeline))) {
      if (auto click = m_timeline.Draw(a)) request = RequestFor(*click);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Stragglers", nullptr, flags(Tab::kStragglers))) {
      if (a.steps.empty()) {
        ImGui::TextDisabled("No step matched on every %s: no straggler to name.", unit);
      } else if (ImGui::BeginTable(
                     "stragglers", 5,
                     ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable)) {
        for (const char* h : {"step", unit, "late by", "others waited", "doing"}) {
          ImGui::TableSetupColumn(h);
        }
        ImGui::TableHeadersRow();
        for (size_t s = 0; s < a.steps.size(); ++s) {
          const core::fleet::Straggler& st = a.steps[s].straggler;
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          ImGui::Text("%lld", static_cast<long long>(a.steps[s].step));
          ImGui::TableSetColumnIndex(1);
          ImGui::Text("%lld", static_cast<long long>(st.rank));
          ImGui::TableSetColumnIndex(2);
          ImGui::TextUnformatted(FormatDuration(static_cast<double>(st.lateness_ns)).c_str());
          ImGui::TableSetColumnIndex(3);
          ImGui::TextUnformatted(FormatDuration(static_cast<double>(st.others_waited_ns)).c_str());
          ImGui::TableSetColumnIndex(4);
          std::string doing;
          for (const core::fleet::PathItem& item : st.doing) {
            doing += fmt::format("{}{} {} on {}", doing.empty() ? "" : "; ",
                                 FormatDuration(static_cast<double>(item.ns)), item.kind,
                                 item.track);
          }
          ImGui::TextUnformatted(doing.c_str());
        }
        ImGui::EndTable();
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Ranks", nullptr, flags(Tab::kRanks))) {
      // Mean step and waits are over matched steps ("-" when none matched); span and busy over
      // the whole trace, whatever matched.
      const bool matched = !a.steps.empty();
      if (ImGui::BeginTable(
              "ranks", 8,
              ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable)) {
        for (const char* h : {unit, "steps", "mean step", "waiting for others", "span",
                              "busy (whole trace)", "clock offset", "trace"}) {
          ImGui::TableSetupColumn(h);
        }
        ImGui::TableHeadersRow();
        auto duration = [](core::model::DurationNs ns, bool known) {
          ImGui::TextUnformatted(known ? FormatDuration(static_cast<double>(ns)).c_str() : "-");
        };
        for (const core::fleet::RankRow& r : a.ranks) {
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          ImGui::Text("%lld", static_cast<long long>(r.rank));
          ImGui::TableSetColumnIndex(1);
          std::string steps = std::to_string(r.steps);
          if (r.step_id_min == r.step_id_max && r.step_id_min >= 0) {
            steps += fmt::format(" ({})", r.step_id_min);
          } else if (r.step_id_min >= 0) {
            steps += fmt::format(" ({}-{})", r.step_id_min, r.step_id_max);
          }
          if (!r.steps_cut_off.empty()) {
            steps += fmt::format(", {} cut off", r.steps_cut_off.size());
          }
          ImGui::TextUnformatted(steps.c_str());
          if (!r.steps_cut_off.empty() && ImGui::IsItemHovered()) {
            ImGui::SetTooltip(
                "left out: the capture ended inside (the step ends after the "
                "trace's last record)");
          }
          ImGui::TableSetColumnIndex(2);
          duration(r.step_ns_mean, matched);
          ImGui::TableSetColumnIndex(3);
          duration(r.collective_wait_ns, matched);
          ImGui::TableSetColumnIndex(4);
          duration(r.trace_ns, true);
          ImGui::TableSetColumnIndex(5);
          duration(r.trace_busy_ns, r.trace_busy_ns >= 0);
          ImGui::TableSetColumnIndex(6);
          ImGui::TextUnformatted(core::fleet::OffsetText(m_analysis, r).c_str());
          ImGui::TableSetColumnIndex(7);
          ImGui::TextUnformatted(r.input.c_str());
        }
        ImGui::EndTable();
      }
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    m_show_tab.reset();
  }
  ImGui::End();
  return request;
}

}  // namespace app::gui::views
