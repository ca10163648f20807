#include "app/gui/views/details_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <array>

#include "app/gui/state/record_fields.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"
#include "core/analysis/packet_stats.h"
#include "core/analysis/time_input.h"
#include "core/model/event_kind.h"
#include "core/report/figure_labels.h"
#include "core/report/import_problems_report.h"

namespace app::gui::views {
namespace {

using core::analysis::kNoIndex;
using core::analysis::kUnknownTime;
using state::FenceName;
using state::QueueName;
using state::Selection;
using state::SelectionKind;
using state::ThreadName;

// Both columns of a field table: the names get at most 40% of the panel (long names, such as
// an ETW capture's `etl_read <provider> id N vM` counters, wrap) and the values the rest, so a
// value never shrinks to a letter per line.
void SetupFieldColumns() {
  const float width =
      std::min(11.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.4f);
  ImGui::TableSetupColumn("field",
                          ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize,
                          std::max(width, 1.0f));
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
}

void Field(const char* name, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", name);
  ImGui::PopStyleColor();
  ImGui::TableSetColumnIndex(1);
  ImGui::TextWrapped("%s", value.c_str());
}

std::string Time(const state::Document& doc, core::model::TimeNs t) {
  if (t == kUnknownTime) return "(no record)";
  return core::analysis::FormatTraceTime(t, doc.model.start);
}

std::string Record(const state::Document& doc, uint32_t event) {
  if (event == kNoIndex) return "(none)";
  return fmt::format("rowid {}", doc.store.events.RowIdOf(event));
}
std::string Duration(core::model::TimeNs a, core::model::TimeNs b) {
  if (a == kUnknownTime || b == kUnknownTime) return "(open)";
  return widgets::FormatDuration(b - a);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RecordFields(const state::Document& doc,
                                                              uint32_t event) {
  const core::store::EventRecord r = doc.records->Read(event);
  std::vector<std::pair<std::string, std::string>> out = {
      {"rowid", fmt::format("{}", doc.store.events.RowIdOf(event))},
      {"kind", std::string(core::model::EventKindName(r.kind))},
      {"ts_ns", Time(doc, r.ts)}};
  for (auto& [name, text] : state::NamedFields(doc, r, state::FieldDetail::kFull)) {
    out.emplace_back(std::string(name), std::move(text));
  }
  // What the importer kept beside the fields: a copy's bytes, an NVTX range's domain, ...
  if (doc.args) {
    for (const auto& [key, text] : doc.args->Read(doc.store.events.RowIdOf(event))) {
      out.emplace_back(key, text);
    }
  }
  return out;
}

void DetailsView::Draw(state::Document& doc) {
  const Selection sel = doc.view.selection;
  if (sel.Empty()) {
    DrawTraceSummary(doc);
    return;
  }
  ImGui::TextUnformatted(state::SelectionTitle(doc, sel).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Zoom to")) state::ZoomTo(doc.view, state::SelectionTimeRange(doc, sel));
  ImGui::Separator();
  DrawFields(doc);
  DrawLinks(doc);
}

void DetailsView::DrawTraceSummary(const state::Document& doc) {
  ImGui::TextWrapped("%s", doc.path.string().c_str());
  ImGui::Separator();
  if (ImGui::BeginTable("summary", 2, ImGuiTableFlags_SizingStretchProp)) {
    SetupFieldColumns();
    Field("source", doc.store.MetaOr("source", "?"));
    Field("scenario", doc.store.MetaOr("scenario", "-"));
    Field("events", fmt::format("{}", doc.store.events.size()));
    Field("span", widgets::FormatDuration(doc.model.end - doc.model.start));
    Field("queues", fmt::format("{}", doc.store.queues.size()));
    const core::analysis::PacketCounts packets =
        core::analysis::TotalPacketCounts(doc.analysis.queue_time);
    Field("packets", fmt::format("{} submitted, {} {}, {} {}, {} {}", packets.submitted,
                                 packets.started, core::report::kPacketsStarted,
                                 packets.completed, core::report::kPacketsCompleted,
                                 packets.running_at_end, core::report::kPacketsRunningAtEnd));
    Field("signals / waits", fmt::format("{} / {}", doc.analysis.recon.signals.size(),
                                         doc.analysis.recon.waits.size()));
    Field("CPU waits", fmt::format("{}", doc.analysis.recon.cpu_waits.size()));
    Field("interrupts", fmt::format("{}", doc.analysis.recon.interrupts.size()));
    Field("background tasks", fmt::format("{}", doc.analysis.recon.tasks.size()));
    for (const auto& p : doc.analysis.recon.problems) {
      Field(p.name.c_str(), fmt::format("{} ({})", p.count, p.description));
    }
    for (const auto& p : doc.store.problems) {
      Field(p.name.c_str(), core::report::ImportProblemText(p));
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Click an item on the timeline to see its details.");
}

namespace {

// The fields of each kind of selection.
void PacketFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& p = r.packets[sel.index];
  Field("packet id", fmt::format("{}", p.packet_id));
  Field("name", doc.store.String(p.name));
  Field("queue", QueueName(doc, p.queue));
  Field("submitted by", ThreadName(doc, p.thread));
  const auto* ctx = doc.store.FindContext(p.context);
  Field("context", ctx ? fmt::format("{} (#{})", ctx->name, p.context) : "-");
  Field("submitted", Time(doc, p.submit));
  Field("started", Time(doc, p.start));
  Field("completed", Time(doc, p.end));
  Field("queue latency", Duration(p.submit, p.start));
  Field("run time", Duration(p.start, p.end));
  Field("planned GPU time", widgets::FormatDuration(p.planned_ns));
  Field("preemptions", fmt::format("{}", p.preemptions));
  std::string flags;
  if (p.flags & core::model::kPacketPaging) flags += "paging ";
  if (p.flags & core::model::kPacketInstrumented) flags += "instrumented ";
  if (p.flags & core::model::kPacketUsesVariant) flags += "variant ";
  if (p.flags & core::model::kPacketResubmission) flags += "resubmission ";
  if (p.flags & core::model::kPacketPresent) flags += "present ";
  Field("flags", flags.empty() ? "-" : flags);
  Field("records", fmt::format("{} / {} / {}", Record(doc, p.submit_event),
                               Record(doc, p.start_event), Record(doc, p.end_event)));
}

void SignalFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& s = r.signals[sel.index];
  Field("signal id", fmt::format("{}", s.signal_id));
  Field("fence", FenceName(doc, s.fence));
  Field("value",
        fmt::format("{} (was {}){}", s.value, s.previous_value, s.rewind ? "  REWIND" : ""));
  Field(s.cpu ? "thread (CPU signal)" : "queue",
        s.cpu ? ThreadName(doc, s.thread) : QueueName(doc, s.queue));
  if (!s.cpu) Field("queued by", ThreadName(doc, s.thread));
  Field("queued", Time(doc, s.queued));
  Field("executed", Time(doc, s.executed));
  Field("queued -> executed", Duration(s.queued, s.executed));
  Field("interrupts raised", fmt::format("{}", s.interrupts));
  Field("records",
        fmt::format("{} / {}", Record(doc, s.queued_event), Record(doc, s.executed_event)));
}

void WaitFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& w = r.waits[sel.index];
  Field("wait id", fmt::format("{}", w.wait_id));
  Field("fence", FenceName(doc, w.fence));
  Field("waits for", fmt::format(">= {}", w.value));
  Field("queue", QueueName(doc, w.queue));
  Field("queued by", ThreadName(doc, w.thread));
  Field("queued", Time(doc, w.queued));
  Field("observed on GPU", Time(doc, w.observed));
  Field("unblocked", Time(doc, w.unblocked));
  Field("wait time", Duration(w.Begin(), w.unblocked));
  constexpr const char* kPaths[] = {"GPU-native wait", "held on the CPU by the OS",
                                    "cross-adapter propagation"};
  Field("path", kPaths[static_cast<int>(w.path) % 3]);
  constexpr const char* kLinks[] = {"none found", "explicit (released_by_signal_id)",
                                    "by fence value"};
  Field("link", w.link_inferred && w.signal != kNoIndex
                    ? "inferred by the importer (schemas/kineto_inference.md)"
                    : kLinks[static_cast<int>(w.link) % 3]);
  if (w.pending_at_end) Field("pending at end", fmt::format("CurrentValue {}", w.value_at_end));
  Field("records",
        fmt::format("{} / {}", Record(doc, w.queued_event), Record(doc, w.unblocked_event)));
}

void CpuWaitFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& w = r.cpu_waits[sel.index];
  Field("waiter id", fmt::format("{}", w.waiter_id));
  Field("thread", ThreadName(doc, w.thread));
  Field("fence", FenceName(doc, w.fence));
  Field("waits for", fmt::format(">= {}", w.value));
  constexpr const char* kModes[] = {"single", "wait-any", "wait-all"};
  Field("mode", kModes[w.mode % 3]);
  Field("began", Time(doc, w.begin));
  Field("released", Time(doc, w.released));
  Field("blocked for", Duration(w.Begin(), w.released));
  Field("value seen", fmt::format("{}", w.observed_value));
  if (w.signal != kNoIndex && w.link_inferred) {
    Field("link", "inferred by the importer (schemas/kineto_inference.md)");
  }
  if (w.pending_at_end) Field("pending at end", "yes: never released");
  Field("records",
        fmt::format("{} / {}", Record(doc, w.begin_event), Record(doc, w.released_event)));
}

void TaskFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& t = r.tasks[sel.index];
  constexpr const char* kOutcomes[] = {"pending", "finished", "cancelled", "abandoned"};
  const auto* pso = doc.store.FindPso(t.pso);
  Field("task id", fmt::format("{}", t.task_id));
  Field("PSO", pso ? fmt::format("{} (#{})", pso->name, t.pso) : "-");
  Field("variant", fmt::format("{}", t.variant));
  Field("commit", fmt::format("{}", t.commit));
  Field("queued by", ThreadName(doc, t.queued_by));
  Field("ran on", ThreadName(doc, t.thread));
  Field("priority", t.priority ? "above idle (high-priority commit)" : "idle");
  Field("queued", Time(doc, t.queued));
  Field("started", Time(doc, t.started));
  Field("ended", Time(doc, t.ended));
  Field("run time", Duration(t.started, t.ended));
  Field("outcome", kOutcomes[static_cast<int>(t.outcome) % 4]);
}

void InterruptFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& i = r.interrupts[sel.index];
  constexpr const char* kTypes[] = {"native", "monitored", "cross-adapter", "DMA completion"};
  Field("time", Time(doc, i.ts));
  Field("type", kTypes[static_cast<int>(i.Type()) % 4]);
  Field("HWQueue named", i.queue ? QueueName(doc, i.queue) : "none (scan all logs)");
  Field("fence", FenceName(doc, i.fence));
  Field("value", fmt::format("{}", i.value));
  Field("waiters released",
        fmt::format("{} recorded, {} CPU waits linked", i.waiters_released, i.cpu_waits_linked));
  Field("fences evaluated", fmt::format("{}", i.fences_evaluated));
  Field("spurious", i.spurious ? "yes: released nobody (seed 003: permitted race)" : "no");
  Field("record", Record(doc, i.event));
}

void ModeChangeFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& m = r.mode_changes[sel.index];
  Field("call id", fmt::format("{}", m.call_id));
  Field("caller", ThreadName(doc, m.thread));
  Field("time", Time(doc, m.ts));
  Field("mode", std::string(core::model::BackgroundModeName(m.mode)));
  Field("action", std::string(core::model::MeasurementsActionName(m.action)));
  Field("result", m.result == 0 ? "success" : "refused");
  Field("FurtherMeasurementsDesired", m.further_measurements_desired ? "TRUE" : "FALSE");
  Field("commit", fmt::format("{} ({} tasks)", m.commit, m.commit_tasks));
  Field("commit completed", Time(doc, m.commit_completed));
}

void MissingFields(const state::Document& doc, const Selection& sel) {
  const auto& r = doc.analysis.recon;
  const auto& m = r.queues[sel.queue].missing[sel.index];
  Field("queue", QueueName(doc, m.queue));
  Field("missing since", Time(doc, m.start));
  Field("detected", Time(doc, m.end));
  Field("entries lost", fmt::format("{}", m.entries_lost));
  Field("log", m.log == core::model::LogType::kWait ? "wait log" : "signal log");
  Field("record", Record(doc, m.event));
}

void PacketNameFields(const state::Document& doc, const Selection& sel) {
  Field("name", core::analysis::PacketLabel(doc.store, sel.index));
  Field("queue", QueueName(doc, sel.queue));
}

// Each kind of selection mapped to the function that fills its rows, in SelectionKind's order;
// null where there is nothing to draw (kNone) or the view draws it itself (kEvent).
using FieldsFn = void (*)(const state::Document&, const Selection&);
constexpr size_t kSelectionKinds = static_cast<size_t>(SelectionKind::kPacketName) + 1;
constexpr std::array<FieldsFn, kSelectionKinds> kFieldsByKind = {
    nullptr,           // kNone
    PacketFields,      // kPacket
    SignalFields,      // kSignal
    WaitFields,        // kWait
    CpuWaitFields,     // kCpuWait
    TaskFields,        // kTask
    InterruptFields,   // kInterrupt
    ModeChangeFields,  // kModeChange
    MissingFields,     // kMissing
    nullptr,           // kEvent
    PacketNameFields,  // kPacketName
};

}  // namespace

void DetailsView::DrawFields(state::Document& doc) {
  const Selection sel = doc.view.selection;
  if (!ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    return;
  }
  SetupFieldColumns();
  // The selected record is read through the view's own cache, not the table below.
  if (sel.kind == SelectionKind::kEvent) {
    DrawRecordFields(doc);
  } else if (const FieldsFn draw = kFieldsByKind[static_cast<size_t>(sel.kind)]) {
    draw(doc, sel);
  }
  ImGui::EndTable();
}

// The selected record's fields, read once per selection (not every frame).
void DetailsView::DrawRecordFields(const state::Document& doc) {
  const Selection sel = doc.view.selection;
  if (m_fields_doc != &doc || m_fields_for != sel) {
    m_fields_doc = &doc;
    m_fields_for = sel;
    try {
      m_fields = RecordFields(doc, sel.index);
    } catch (const std::exception& e) {
      m_fields = {{"error", e.what()}};
    }
  }
  for (const auto& [name, value] : m_fields) Field(name.c_str(), value);
}

void DetailsView::RefreshLinks(const state::Document& doc) {
  const Selection sel = doc.view.selection;
  if (m_links_doc == &doc && sel == m_links_for) return;
  m_links_doc = &doc;
  m_links_for = sel;
  m_links.clear();
  const auto& r = doc.analysis.recon;
  switch (sel.kind) {
    case SelectionKind::kWait: {
      const auto& w = r.waits[sel.index];
      if (w.signal != kNoIndex) m_links.push_back({SelectionKind::kSignal, w.signal, 0});
      break;
    }
    case SelectionKind::kCpuWait: {
      const auto& w = r.cpu_waits[sel.index];
      if (w.signal != kNoIndex) m_links.push_back({SelectionKind::kSignal, w.signal, 0});
      if (w.interrupt != kNoIndex) m_links.push_back({SelectionKind::kInterrupt, w.interrupt, 0});
      break;
    }
    case SelectionKind::kSignal: {
      for (uint32_t i = 0; i < r.waits.size() && m_links.size() < 200; ++i) {
        if (r.waits[i].signal == sel.index) m_links.push_back({SelectionKind::kWait, i, 0});
      }
      for (uint32_t i = 0; i < r.cpu_waits.size() && m_links.size() < 200; ++i) {
        if (r.cpu_waits[i].signal == sel.index) m_links.push_back({SelectionKind::kCpuWait, i, 0});
      }
      for (uint32_t i = 0; i < r.interrupts.size() && m_links.size() < 200; ++i) {
        if (r.interrupts[i].signal == sel.index) {
          m_links.push_back({SelectionKind::kInterrupt, i, 0});
        }
      }
      break;
    }
    case SelectionKind::kInterrupt: {
      const auto& i = r.interrupts[sel.index];
      if (i.signal != kNoIndex) m_links.push_back({SelectionKind::kSignal, i.signal, 0});
      for (uint32_t w = 0; w < r.cpu_waits.size() && m_links.size() < 200; ++w) {
        if (r.cpu_waits[w].interrupt == sel.index) {
          m_links.push_back({SelectionKind::kCpuWait, w, 0});
        }
      }
      break;
    }
    case SelectionKind::kPacket: {
      const auto& p = r.packets[sel.index];
      for (uint32_t e : {p.submit_event, p.start_event, p.end_event}) {
        if (e != kNoIndex) m_links.push_back({SelectionKind::kEvent, e, 0});
      }
      break;
    }
    case SelectionKind::kPacketName: {
      // the packets the row stands for, first ones first
      for (uint32_t p : core::analysis::PacketsCounted(r, sel.index, sel.queue)) {
        if (m_links.size() >= 200) break;
        m_links.push_back({SelectionKind::kPacket, p, 0});
      }
      break;
    }
    default:
      break;
  }
}

void DetailsView::DrawLinks(state::Document& doc) {
  RefreshLinks(doc);
  if (m_links.empty()) return;
  ImGui::Spacing();
  ImGui::TextDisabled("Linked");
  ImGui::Separator();
  for (size_t i = 0; i < m_links.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("Jump")) {
      Selection target = m_links[i];
      ImGui::PopID();
      state::JumpTo(doc, target);
      return;
    }
    ImGui::SameLine();
    state::TimeRange range = state::SelectionTimeRange(doc, m_links[i]);
    ImGui::Text("%s at %s", state::SelectionTitle(doc, m_links[i]).c_str(),
                widgets::FormatTime(range.start, doc.model.start).c_str());
    ImGui::PopID();
  }
}

}  // namespace app::gui::views
