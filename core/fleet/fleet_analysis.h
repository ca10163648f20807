// The reduce step of a fleet: the ranks side by side, their steps matched, their clocks aligned
// and, per step, the straggler. Reads RankSummary values only (never a trace).
//
// Rank of a trace: its own (Kineto distributedInfo.rank), else the one in its file name, else
// its position in the sorted input list. Two traces with the same rank are an error naming
// both files.
//
// Steps: a step is matched when every rank has a ProfilerStep#N with that N (or, for graphics
// traces without them, a frame N: RankSummary); the others are counted (steps_unmatched) and
// left out.
//
// Clock alignment: ranks' clocks differ (each host stamps its own trace). A collective ends at
// one instant on every rank, so for rank r and the reference rank (the lowest):
//   offset(r) = median over matched collectives of end(r) - end(reference)
// where the k-th collective of a step on one rank is matched with the k-th on the other. With
// no collective in a matched step on some rank, the step starts are used the same way (less
// exact: a step starts when the rank's host gets there). spread = max - min of those
// differences: 0 for clocks that only differ by a constant, more for drift or mismatches.
// With no step on every rank, offset(r) = start(r) - start(reference), the traces' first
// records ("trace_start", the least exact: one sample, when each began recording).
//
// Stragglers: with arrival(r) = start(r) - offset(r) of each matched collective (on the
// reference rank's clock), the latest rank at that collective is the one everybody else waited
// for; lateness = its arrival - the next latest arrival (what the others waited for it alone),
// and each other rank waited latest arrival - its own arrival. The step's straggler is the one
// of its collective with the largest lateness; a step with no collective uses the step ends.
// What the straggler was doing is its critical path in that step (RankSummary::path).
//
//   reference  ==compute==|nccl......wait.......|      arrival(ref)
//   rank 3     ======compute (slow)========|nccl|      arrival(3) = latest: straggler
//                         ^ next latest    ^       lateness = arrival(3) - next latest
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fleet/fleet_inputs.h"
#include "core/fleet/rank_summary.h"

namespace core::fleet {

struct FailedTrace {
  std::string input;
  std::string error;
};

struct RankRow {
  int64_t rank = 0;
  std::string rank_source;  // "metadata", "file name" or "order"
  std::string input;
  std::string steps_from;         // RankSummary::steps_from: ProfilerStep slices or frames
  size_t steps = 0;               // steps in its trace (matched or not)
  int64_t step_id_min = -1;       // the lowest and highest of their ids (-1: no step)
  int64_t step_id_max = -1;
  std::vector<int64_t> steps_cut_off;  // RankSummary::steps_cut_off: left out, not matched
  DurationNs step_ns_mean = 0;    // over matched steps
  DurationNs busy_ns = 0;         // over matched steps, all queues
  DurationNs waiting_ns = 0;
  DurationNs idle_ns = 0;
  DurationNs collective_ns = 0;       // time in collectives (matched steps)
  DurationNs collective_wait_ns = 0;  // of it, waiting for later ranks
  uint64_t straggler_steps = 0;
  // Over the whole trace, whatever steps matched (RankSummary::queues): what the traces are
  // compared on when no step is on all of them. The queue figures are -1 when unknown (a
  // summary written before they were kept).
  DurationNs trace_ns = 0;       // its span, end - start
  DurationNs trace_busy_ns = 0;  // all queues
  DurationNs trace_waiting_ns = 0;
  DurationNs trace_idle_ns = 0;
  size_t trace_queues = 0;  // queues that did something (RankSummary::queues)
  // Clock alignment
  int64_t offset_ns = 0;  // this rank's clock minus the reference rank's
  uint64_t offset_samples = 0;
  DurationNs offset_spread_ns = 0;
};

struct Straggler {
  int64_t rank = -1;  // -1: no straggler (a single rank)
  DurationNs lateness_ns = 0;
  std::string at;                 // "collective 1 of 2: <name>" or "step end"
  DurationNs others_waited_ns = 0;  // all other ranks' waits at that point, added up
  std::vector<PathItem> doing;      // its critical path in the step
};

struct StepRow {
  int64_t step = 0;
  std::vector<DurationNs> step_ns;  // per rank, in FleetAnalysis::ranks order
  std::vector<TimeNs> start_ns;     // per rank, on that rank's own clock (not in the JSON)
  DurationNs step_ns_min = 0;
  DurationNs step_ns_max = 0;
  DurationNs step_ns_mean = 0;
  Straggler straggler;
};

// The ranks on one time axis, the reference rank's clock (every time minus the rank's offset):
// what the fleet window draws as one track per rank. Steps are all of the rank's steps (matched
// or not); collectives are all of its collectives. In a matched collective (the k-th of a
// matched step, k below every rank's count) the rank waited for the others from its arrival
// (start) until the latest rank's arrival (`others_arrived`); the latest rank is the
// `straggler` of that collective.
struct LaneStep {
  int64_t id = 0;
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  bool matched = false;
};
struct LaneCollective {
  int64_t step = 0;  // the id of the step it is in
  std::string name;
  TimeNs start_ns = 0;        // arrival
  TimeNs end_ns = 0;
  TimeNs others_arrived = 0;  // the latest arrival of its matched group (start_ns if unmatched)
  bool straggler = false;     // this rank arrived last
};
struct RankLane {
  std::vector<LaneStep> steps;              // by start
  std::vector<LaneCollective> collectives;  // by start
};

struct FleetAnalysis {
  std::vector<RankRow> ranks;  // by rank
  FleetOptions options;        // how `ranks` were numbered and compared
  std::string clock_method;    // "collective_end", "step_start", "trace_start" or "none"
  // The ranks' RankSummary::steps_from when they all agree, else "mixed" ("none": no ranks)
  std::string steps_from = "none";
  int64_t reference_rank = 0;
  std::vector<StepRow> steps;  // matched steps, by id
  size_t steps_unmatched = 0;  // step ids some rank lacks
  size_t steps_cut_off = 0;    // ranks' steps left out for ending after their trace's last record
  std::vector<FailedTrace> failed;
  // With FleetDetail::kLanes only (not in the JSON): per rank, in `ranks` order.
  std::vector<RankLane> lanes;
  TimeNs lanes_start_ns = 0;  // the earliest lane item, on the reference clock
  TimeNs lanes_end_ns = 0;
};

enum class FleetDetail {
  kFigures,  // the report's figures
  kLanes,    // and the ranks' lanes on one time axis (the window's timeline)
};

// Throws core::Error for two summaries of the same rank. `failed` is copied into the result.
// With TracesAre::kRuns no trace waits for another: clocks are lined up by step starts only,
// and each step's straggler is the trace whose step took longest ("step time"), late by how
// much longer it took than the next longest, with nobody waiting (others_waited_ns 0).
FleetAnalysis AnalyseFleet(std::vector<RankSummary> summaries, std::vector<FailedTrace> failed,
                           FleetDetail detail = FleetDetail::kFigures,
                           const FleetOptions& options = {});

}  // namespace core::fleet
