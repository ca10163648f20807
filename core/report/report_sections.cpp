#include "core/report/report_sections.h"

#include <initializer_list>

namespace core::report {
namespace {

using core::model::EventKind;

bool AnyOf(const ReportData& d, std::initializer_list<EventKind> kinds) {
  for (EventKind k : kinds) {
    if (d.Count(k) != 0) return true;
  }
  return false;
}

}  // namespace

ReportSections SectionsOf(const ReportData& d) {
  ReportSections s;
  s.interrupts = AnyOf(d, {EventKind::Interrupt});
  s.log_buffers =
      AnyOf(d, {EventKind::LogWrite, EventKind::LogWraparound, EventKind::LogOverrun,
                EventKind::LogFallbackScan, EventKind::LogFlush, EventKind::LogResized});
  s.background =
      AnyOf(d, {EventKind::TaskQueued, EventKind::TaskStarted, EventKind::TaskFinished,
                EventKind::TaskCancelled, EventKind::TaskAbandoned, EventKind::ModeChanged,
                EventKind::CommitCompleted, EventKind::VariantApplied, EventKind::ApiError,
                EventKind::PsoDestroyed});
  s.preemption = AnyOf(d, {EventKind::PreemptionRequested, EventKind::PreemptionCompleted,
                           EventKind::Tdr, EventKind::PacketPreempted});
  return s;
}

std::vector<std::string> SectionNames(const ReportSections& s) {
  std::vector<std::string> out;
  if (s.interrupts) out.emplace_back("interrupts");
  if (s.log_buffers) out.emplace_back("log_buffers");
  if (s.background) out.emplace_back("background");
  if (s.preemption) out.emplace_back("preemption");
  return out;
}

}  // namespace core::report
