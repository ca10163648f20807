#include "app/gui/state/whatif_question.h"

#include <fmt/format.h>

#include "core/model/event_kind.h"

namespace app::gui::state {
namespace {

using core::analysis::kNoIndex;

std::string QueueNamed(const Document& doc, core::model::QueueId id) {
  const core::model::Queue* q = doc.store.FindQueue(id);
  return q ? q->name : std::string();
}

std::string ThreadNamed(const Document& doc, core::model::ThreadId id) {
  const core::model::Thread* t = doc.store.FindThread(id);
  return t ? t->name : std::string();
}

WhatIfQuestion FasterHost() {
  WhatIfQuestion q{"What if the host were 2x faster?", {}};
  q.edits.cpu_scale = 0.5;
  return q;
}

void AskAboutName(const std::string& name, std::vector<WhatIfQuestion>& out) {
  if (name.empty()) return;
  WhatIfQuestion faster{fmt::format("What if {} were 2x faster?", name), {}};
  faster.edits.scale.push_back({name, 0.5});
  out.push_back(std::move(faster));
  WhatIfQuestion removed{fmt::format("What if {} were removed?", name), {}};
  removed.edits.scale.push_back({name, 0.0});
  out.push_back(std::move(removed));
}

}  // namespace

std::vector<WhatIfQuestion> QuestionsAbout(const Document& doc, const Selection& item) {
  std::vector<WhatIfQuestion> out;
  const auto& r = doc.analysis.recon;
  switch (item.kind) {
    case SelectionKind::kPacket: {
      if (item.index >= r.packets.size()) break;
      AskAboutName(doc.store.String(r.packets.Get<&core::analysis::Packet::name>(item.index)),
                   out);
      break;
    }
    case SelectionKind::kPacketName:
      AskAboutName(doc.store.String(item.index), out);
      break;
    case SelectionKind::kWait: {
      if (item.index >= r.waits.size()) break;
      const core::analysis::WaitBox w = r.waits[item.index];
      WhatIfQuestion one{"What if this wait were not there?", {}};
      one.edits.remove_wait.push_back(w.wait_id);
      out.push_back(std::move(one));
      if (w.signal != kNoIndex && w.signal < r.signals.size()) {
        const core::analysis::SignalBox s = r.signals[w.signal];
        const std::string waiting = QueueNamed(doc, w.queue);
        const std::string signalling = s.cpu ? std::string() : QueueNamed(doc, s.queue);
        if (!waiting.empty() && !signalling.empty()) {
          WhatIfQuestion every{
              fmt::format("What if every wait of {} on {} were not there?", waiting, signalling),
              {}};
          every.edits.remove_waits.push_back({waiting, signalling});
          out.push_back(std::move(every));
        }
      }
      break;
    }
    case SelectionKind::kCpuWait: {
      if (item.index >= r.cpu_waits.size()) break;
      const core::analysis::CpuWait w = r.cpu_waits[item.index];
      WhatIfQuestion one{"What if this CPU wait were not made?", {}};
      one.edits.remove_cpu_wait.push_back(w.waiter_id);
      out.push_back(std::move(one));
      if (const std::string thread = ThreadNamed(doc, w.thread); !thread.empty()) {
        WhatIfQuestion every{fmt::format("What if {} made no CPU wait?", thread), {}};
        every.edits.remove_cpu_waits.push_back(thread);
        out.push_back(std::move(every));
      }
      out.push_back(FasterHost());
      break;
    }
    case SelectionKind::kEvent: {
      if (item.index >= doc.store.events.size() ||
          doc.store.events.kind[item.index] != core::model::EventKind::CpuSlice) {
        break;
      }
      // A host call (cudaStreamSynchronize): the CPU waits made inside it.
      std::string call;
      try {
        call = doc.store.String(
            static_cast<core::model::StringId>(doc.records->Read(item.index).arg0));
      } catch (const std::exception&) {
      }
      if (!call.empty()) {
        WhatIfQuestion every{fmt::format("What if every {} were not made?", call), {}};
        every.edits.remove_sync.push_back(call);
        out.push_back(std::move(every));
      }
      out.push_back(FasterHost());
      break;
    }
    default:
      break;
  }
  return out;
}

}  // namespace app::gui::state
