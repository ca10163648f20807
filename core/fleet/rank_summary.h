// The map step of a fleet: what the reduce step needs from one trace, computed once beside its
// database, so the reduce never opens a trace (its cost grows with the number of ranks, not with
// their size).
//
// Steps are the training loop's iterations as the PyTorch profiler marks them: one CPU slice
// "ProfilerStep#N" per iteration (N is what matches a step across ranks). A trace without them
// (a graphics workload) has frames for steps: frame N ends at the trace's N-th present (present
// markers, else present packets' completions, else vsync markers; FindFrames in the .cpp says
// exactly) and starts at the one before, the first at the trace's start. Per step:
//   queues       busy / waiting / idle of every queue over [start, end] (ComputeQueueTime, the
//                function `stats` and the window call, so the figures cannot differ)
//   collectives  the packets whose name says NCCL or RCCL ("ncclKernel_AllReduce...",
//                "ncclDevKernel_..."), started inside the step, in start order: start = when this
//                rank arrived at the collective, end = when it finished, which is the same
//                instant on every rank (a collective ends when the last rank's data is in)
//   path         the critical path that leads to the rank's arrival at its first collective of
//                the step (else to the step's end), clipped to the step: what the rank was busy
//                with before it could join the others; the longest items by (kind, track, name)
//
//   rank r   [ProfilerStep#5 .............................................]
//   compute  [==k==][====k====][==k==]|
//   comm                              [nccl .. waiting for the others ..]| <- same end on all
//                                     ^ arrival                          ^ end
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/report/report_data.h"

namespace core::fleet {

using core::model::DurationNs;
using core::model::TimeNs;

struct QueueStepTime {
  std::string queue;  // ReportData::QueueName
  DurationNs busy_ns = 0;
  DurationNs waiting_ns = 0;
  DurationNs idle_ns = 0;
};

struct Collective {
  std::string name;
  std::string queue;
  TimeNs start_ns = 0;  // this rank's arrival, in its own clock
  TimeNs end_ns = 0;
};

// One line of "what the rank was doing": the time the step's critical path spent in one
// (kind, track, name).
struct PathItem {
  std::string kind;   // core::analysis::PathStepKindName
  std::string track;  // queue or thread name
  std::string name;   // the packet's name ("" for CPU runs and gaps)
  DurationNs ns = 0;
};

struct StepSummary {
  int64_t id = 0;  // N of ProfilerStep#N, or of frame N
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::vector<QueueStepTime> queues;
  std::vector<Collective> collectives;
  DurationNs path_ns = 0;        // length of the clipped critical path
  std::vector<PathItem> path;    // longest first, at most kPathItems
};

constexpr size_t kPathItems = 5;

struct RankSummary {
  std::string input;           // the trace file the fleet was given
  int64_t order = 0;           // its position in the fleet's sorted input list
  int64_t metadata_rank = -1;  // the trace's own rank (Kineto distributedInfo.rank), -1: none
  int64_t name_rank = -1;      // the rank in the file name (RankFromFileName), -1: none
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  // What the steps are: "profiler_step" (ProfilerStep#N slices), or frames ended by
  // "present_marker", "present_packet" or "vsync_marker"; "none" when the trace has none.
  std::string steps_from = "profiler_step";
  std::vector<StepSummary> steps;  // by start
  // ProfilerStep slices that end after the trace's last record: the capture ended inside them
  // (the profiler still writes the slice with the step's true end), so what they did until
  // then is not in the trace and their figures would count it as idle. They are left out of
  // `steps`; their ids, by start.
  std::vector<int64_t> steps_cut_off;
  // Every queue over the whole trace, [start_ns, end_ns]: the figures `report` and `stats` give
  // (ReportData::queue_time), quiet queues left out; what the ranks are compared on when no step
  // is on all of them. false for a summary written before it was kept (its queues are unknown).
  std::vector<QueueStepTime> queues;
  bool queues_known = true;
};

// The step and rank figures of an analysed trace (`data` analysed with full = true is not
// needed: the queue split and the critical path are computed per step here). `input` and
// `order` are copied into the result; the ranks are read from the trace and the file name.
RankSummary ComputeRankSummary(const core::report::ReportData& data, const std::string& input,
                               int64_t order);

// True for a packet name of a collective-communication kernel (NCCL, RCCL).
bool IsCollectiveName(std::string_view name);

}  // namespace core::fleet
