#include "app/gui/state/selection_info.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/analysis/packet_stats.h"
#include "core/model/event_kind.h"

namespace app::gui::state {
namespace {

using core::analysis::kUnknownTime;

TimeNs Or(TimeNs t, TimeNs fallback) {
  return t != kUnknownTime ? t : fallback;
}

TimeRange Span(TimeNs begin, TimeNs end, const Document& doc) {
  TimeNs b = Or(begin, Or(end, doc.model.start));
  TimeNs e = Or(end, doc.model.end);
  return {b, std::max(b, e)};
}

std::string FenceName(const Document& doc, core::model::FenceId fence) {
  const auto* f = doc.store.FindFence(fence);
  return f && !f->name.empty() ? f->name : fmt::format("fence {}", fence);
}

}  // namespace

TimeRange SelectionTimeRange(const Document& doc, const Selection& s) {
  const auto& r = doc.analysis.recon;
  switch (s.kind) {
    case SelectionKind::kNone:
      return {doc.model.start, doc.model.end};
    case SelectionKind::kPacket: {
      const auto& p = r.packets[s.index];
      return Span(Or(p.start, p.submit), p.end, doc);
    }
    case SelectionKind::kSignal: {
      const auto& sig = r.signals[s.index];
      return Span(sig.queued, sig.executed, doc);
    }
    case SelectionKind::kWait: {
      const auto& w = r.waits[s.index];
      return Span(w.Begin(), w.unblocked, doc);
    }
    case SelectionKind::kCpuWait: {
      const auto& w = r.cpu_waits[s.index];
      return Span(w.Begin(), w.released, doc);
    }
    case SelectionKind::kTask: {
      const auto& t = r.tasks[s.index];
      return Span(t.Begin(), t.ended, doc);
    }
    case SelectionKind::kInterrupt:
      return {r.interrupts[s.index].ts, r.interrupts[s.index].ts};
    case SelectionKind::kModeChange: {
      const auto& m = r.mode_changes[s.index];
      return {m.ts, std::max(m.ts, Or(m.commit_completed, m.ts))};
    }
    case SelectionKind::kMissing: {
      const auto& m = r.queues[s.queue].missing[s.index];
      return {m.start, m.end};
    }
    case SelectionKind::kEvent: {
      TimeNs ts = doc.store.events.ts[s.index];
      TimeNs end = ts;
      if (doc.store.events.kind[s.index] == core::model::EventKind::CpuSlice) {
        // The duration is a raw field: read through the reader (it keeps recent records, so a
        // view asking every frame does not query every frame). Unreadable: shown as an instant.
        try {
          end = ts + static_cast<TimeNs>(doc.records->Read(s.index).value);
        } catch (const std::exception&) {
          end = ts;
        }
      }
      return {ts, end};
    }
    case SelectionKind::kPacketName: {
      // From the first start to the last end of the packets the row stands for.
      TimeNs begin = kUnknownTime, end = kUnknownTime;
      for (uint32_t p : core::analysis::PacketsCounted(r, s.index, s.queue)) {
        const TimeNs start = r.packets.Get<&core::analysis::Packet::start>(p);
        const TimeNs stop = r.packets.Get<&core::analysis::Packet::end>(p);
        if (begin == kUnknownTime || start < begin) begin = start;
        if (end == kUnknownTime || stop > end) end = stop;
      }
      if (begin == kUnknownTime) return {doc.model.start, doc.model.end};
      return Span(begin, end, doc);
    }
  }
  return {doc.model.start, doc.model.end};
}

std::string SelectionTitle(const Document& doc, const Selection& s) {
  const auto& r = doc.analysis.recon;
  switch (s.kind) {
    case SelectionKind::kNone:
      return "nothing selected";
    case SelectionKind::kPacket: {
      const auto& p = r.packets[s.index];
      const std::string& name = doc.store.String(p.name);
      return name.empty() ? fmt::format("packet {}", p.packet_id)
                          : fmt::format("packet {} '{}'", p.packet_id, name);
    }
    case SelectionKind::kSignal: {
      const auto& sig = r.signals[s.index];
      return fmt::format("{} signal {} = {}", sig.cpu ? "CPU" : "GPU", FenceName(doc, sig.fence),
                         sig.value);
    }
    case SelectionKind::kWait: {
      const auto& w = r.waits[s.index];
      return fmt::format("GPU wait {} >= {}", FenceName(doc, w.fence), w.value);
    }
    case SelectionKind::kCpuWait: {
      const auto& w = r.cpu_waits[s.index];
      return fmt::format("CPU wait {} >= {}", FenceName(doc, w.fence), w.value);
    }
    case SelectionKind::kTask:
      return fmt::format("background task {}", r.tasks[s.index].task_id);
    case SelectionKind::kInterrupt:
      return fmt::format("interrupt{}", r.interrupts[s.index].spurious ? " (spurious)" : "");
    case SelectionKind::kModeChange:
      return fmt::format("SetBackgroundProcessingMode call {}", r.mode_changes[s.index].call_id);
    case SelectionKind::kMissing:
      return "log overrun: data missing";
    case SelectionKind::kEvent:
      return fmt::format("record {} ({})", doc.store.events.RowIdOf(s.index),
                         core::model::EventKindName(doc.store.events.kind[s.index]));
    case SelectionKind::kPacketName: {
      const auto* q = doc.store.FindQueue(s.queue);
      return fmt::format("packets '{}' on {}", core::analysis::PacketLabel(doc.store, s.index),
                         q ? q->name : fmt::format("queue {}", s.queue));
    }
  }
  return {};
}

bool SelectionCovers(const Document& doc, const Selection& selection, const Selection& item) {
  if (item.Empty()) return false;
  if (selection == item) return true;
  if (selection.kind != SelectionKind::kPacketName || item.kind != SelectionKind::kPacket) {
    return false;
  }
  // The same rule as PacketsCounted over the whole trace: a packet the timeline draws has run,
  // so name, queue and completion decide.
  const auto& packets = doc.analysis.recon.packets;
  using core::analysis::Packet;
  return packets.Get<&Packet::name>(item.index) == selection.index &&
         packets.Get<&Packet::queue>(item.index) == selection.queue &&
         packets.Get<&Packet::end>(item.index) != kUnknownTime;
}

void JumpTo(Document& doc, const Selection& selection) {
  doc.view.selection = selection;
  TimeRange item = SelectionTimeRange(doc, selection);
  TimeRange visible = doc.view.visible;
  if (item.Length() > visible.Length() * 9 / 10) {
    ZoomTo(doc.view, item);
    return;
  }
  TimeNs center = item.start + item.Length() / 2;
  Pan(doc.view, center - (visible.start + visible.Length() / 2));
}

}  // namespace app::gui::state
