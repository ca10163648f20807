#include "core/replay/replayed_trace.h"

#include "core/fleet/step_marks.h"
#include "core/replay/replay_writer.h"
#include "core/store/memory_trace.h"
#include "core/store/trace_writer.h"

namespace core::replay {

ReplayedTrace ReplayToFile(const core::store::TraceStore& trace, const DerivedProgram& program,
                           const std::filesystem::path& path, const std::string& edits,
                           const std::function<void(double)>& progress) {
  core::store::TraceWriter writer(path, "replay");
  writer.KeepEvents();
  ReplayRun run;
  run.edits = edits;
  run.progress = progress;
  WriteReplay(trace, program, writer, run);
  writer.Commit();
  ReplayedTrace out;
  out.store = core::store::LoadTraceWithEvents(path, writer.TakeKeptEvents());
  out.recon = analysis::Reconstruct(out.store);
  return out;
}

ReplayedTrace ReplayInMemory(const core::store::TraceStore& trace, const DerivedProgram& program,
                             const std::string& edits,
                             const std::function<void(double)>& progress) {
  core::store::MemoryTrace memory("replay");
  ReplayRun run;
  run.edits = edits;
  run.progress = progress;
  WriteReplay(trace, program, memory, run);
  ReplayedTrace out;
  out.store = memory.TakeStore("(replay of " + trace.path.string() + ")");
  out.recon = analysis::Reconstruct(out.store);
  return out;
}

std::map<int64_t, DurationNs> StepLengths(const core::store::TraceStore& store,
                                          const analysis::Reconstruction& recon) {
  std::string from;
  return StepLengths(core::fleet::FindStepMarks(store, recon, &from));
}

std::map<int64_t, DurationNs> StepLengths(const std::vector<core::fleet::StepMark>& marks) {
  std::map<int64_t, DurationNs> out;
  for (const auto& mark : marks) out.try_emplace(mark.id, mark.end - mark.start);
  return out;
}

double GainPct(double before, double after) {
  return before > 0 ? (before - after) / before * 100 : 0;
}

double StepGainPct(const std::map<int64_t, DurationNs>& before,
                   const std::map<int64_t, DurationNs>& after) {
  double b = 0, a = 0;
  for (const auto& [id, ns] : before) {
    auto it = after.find(id);
    if (it == after.end()) continue;
    b += static_cast<double>(ns);
    a += static_cast<double>(it->second);
  }
  return GainPct(b, a);
}

}  // namespace core::replay
