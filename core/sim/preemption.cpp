// GPU preemption and TDR (seed 004, the WDDM 1.2 preemption model), hooked into the run lists of
// hardware_queue.cpp:
//   * a queue of higher priority becoming ready while a lower one runs makes the scheduler
//     request preemption of the running packet (preemption_requested);
//   * the packet runs on to its next preemption point, which the adapter's granularity and the
//     packet's structure (PacketShape) place, then its context state is saved
//     (packet_preempted at the point, preemption_completed once saved); at DMA buffer
//     granularity the point is the end of the packet;
//   * the preempted packet is resubmitted: a paging packet with its fence id, ahead of all other
//     work of the engine once the preempting work has run; any other packet with a new fence id,
//     in priority order. It resumes after a context restore (packet_resumed);
//   * a request whose point lies beyond the adapter's TDR timeout resets the engine at the
//     timeout (tdr): the hung context loses its packets and runs nothing more;
//   * granularity `none` is the pre-WDDM 1.2 model: no mid-packet preemption, the split DMA
//     packets of one render command run back to back, and a GPU wait reached while the engine is
//     idle holds the engine until it is satisfied (a hardware wait it cannot preempt), so work
//     that wants the engine meanwhile waits for it, or for a TDR.
#include "core/sim/preemption.h"

#include <algorithm>
#include <cmath>

#include "core/sim/thread_program.h"

namespace core::sim {

using core::model::EngineType;
using G = PreemptionGranularity;

std::optional<PreemptionGranularity> ParsePreemptionGranularity(std::string_view name,
                                                                bool compute) {
  static constexpr G kGraphics[] = {G::kNone, G::kDmaBuffer, G::kPrimitive, G::kTriangle,
                                    G::kPixel, G::kShader};
  static constexpr G kCompute[] = {G::kNone, G::kDmaBuffer, G::kDispatch, G::kThreadGroup,
                                   G::kThread, G::kShader};
  for (G g : compute ? kCompute : kGraphics) {
    if (core::model::PreemptionGranularityName(g) == name) return g;
  }
  return std::nullopt;
}

bool ApplyGranularityOverride(std::string_view name, SimOptions& options) {
  const auto graphics = ParsePreemptionGranularity(name, /*compute=*/false);
  const auto compute = ParsePreemptionGranularity(name, /*compute=*/true);
  if (graphics) options.preemption_graphics = graphics;
  if (compute) options.preemption_compute = compute;
  return graphics || compute;
}

std::vector<AdapterPreemption> ResolvePreemption(const Scenario& scenario,
                                                 const SimOptions& options) {
  std::vector<AdapterPreemption> out;
  for (const AdapterSpec& a : scenario.adapters) {
    AdapterPreemption p = a.preemption;
    if (options.preemption_graphics) p.graphics = *options.preemption_graphics;
    if (options.preemption_compute) p.compute = *options.preemption_compute;
    out.push_back(p);
  }
  return out;
}

namespace {

const PacketShape kDefaultShape;

// The granularity in force on an engine: graphics on 3D engines, compute on compute engines.
// Copy and video packets have no primitives or dispatches: DMA buffer boundaries at best.
G GranularityOf(const EngineContext& ctx, uint32_t engine) {
  const AdapterPreemption& p = ctx.preemption.adapters[ctx.gpu.engines[engine].adapter];
  switch (ctx.run.scenario->engines[engine].type) {
    case EngineType::k3D: return p.graphics;
    case EngineType::kCompute: return p.compute;
    default: return p.graphics == G::kNone ? G::kNone : G::kDmaBuffer;
  }
}

const AdapterSpec& AdapterOf(const EngineContext& ctx, uint32_t engine) {
  return ctx.run.scenario->adapters[ctx.gpu.engines[engine].adapter];
}

// Equal units of work a packet divides into at granularity g; a point lies between two units.
double UnitsOf(G g, const PacketShape& s) {
  const double primitives = static_cast<double>(s.primitives);
  const double triangles = primitives * static_cast<double>(s.triangles);
  const double pixels = triangles * static_cast<double>(s.pixels);
  const double groups = static_cast<double>(s.dispatches) * static_cast<double>(s.thread_groups);
  const double threads = groups * static_cast<double>(s.threads);
  switch (g) {
    case G::kPrimitive: return primitives;
    case G::kTriangle: return triangles;
    case G::kPixel: return pixels;
    case G::kDispatch: return static_cast<double>(s.dispatches);
    case G::kThreadGroup: return groups;
    case G::kThread: return threads;
    default: return 1;  // none, dma_buffer: the whole packet
  }
}

// Units at shader granularity: instruction boundaries of the engine's kind of work.
double ShaderUnits(bool compute_engine, const PacketShape& s) {
  return UnitsOf(compute_engine ? G::kThread : G::kPixel, s) * static_cast<double>(s.instructions);
}

struct PreemptionPoint {
  TimeNs at = 0;
  bool mid_packet = false;  // false: the end of the packet (or of its render command)
};

// Where the running packet can stop at granularity g, seen from now.
PreemptionPoint NextPoint(const EngineContext& ctx, uint32_t engine, G g) {
  const EngineState& en = ctx.gpu.engines[engine];
  const HwQueue& q = ctx.gpu.queues[en.running];
  const GpuCommand& p = q.commands.front();
  const DurationNs duration = p.work.duration_ns;
  const EnginePreemption& ep = ctx.preemption.engines[engine];
  // Work done so far; during a context restore the work has not begun yet.
  const TimeNs base = std::max(ctx.run.now, ep.work_start);
  const DurationNs done = (duration - ep.remaining_at_start) + (base - ep.work_start);
  DurationNs to_end = std::max<DurationNs>(0, duration - done);
  const int64_t render_command = p.preemption.render_command;
  if (g == G::kNone) {
    // seed 004: in the Windows 7 model the split packets of one render command run back to back,
    // so the next point is the end of the command's last split packet.
    for (size_t i = 1; i < q.commands.size() && render_command != 0; ++i) {
      const GpuCommand& c = q.commands[i];
      if (c.kind != GpuCommand::Kind::kPacket || c.preemption.render_command != render_command) {
        break;
      }
      to_end += c.work.remaining_ns;
    }
    return {base + to_end, false};
  }
  const PacketShape& shape = p.preemption.shape ? *p.preemption.shape : kDefaultShape;
  const EngineType type = ctx.run.scenario->engines[engine].type;
  const bool compute_engine = type == EngineType::kCompute;
  const bool structured = type == EngineType::k3D || compute_engine;
  const double units = !structured ? 1.0
                       : g == G::kShader ? ShaderUnits(compute_engine, shape)
                                         : UnitsOf(g, shape);
  if (units <= 1.0 || duration <= 0) return {base + to_end, false};
  // seed 004: mid-DMA-buffer preemption at the next unit boundary.
  const double unit = static_cast<double>(duration) / units;
  const double boundary = std::ceil(static_cast<double>(done) / unit - 1e-9) * unit;
  const DurationNs point = std::max(done, static_cast<DurationNs>(std::llround(boundary)));
  if (point >= duration) return {base + to_end, false};
  return {base + (point - done), true};
}

void ClearRequest(EnginePreemption& ep) {
  ep.phase = PreemptionPhase::kIdle;
  ep.request_id = 0;
}

// packet_id 0: the request was waiting for a held GPU wait, not a packet.
void RecordCompleted(const EngineContext& ctx, uint32_t engine, uint32_t queue, int64_t packet_id,
                     G reached) {
  const EnginePreemption& ep = ctx.preemption.engines[engine];
  ctx.run.Emit(events::PreemptionCompleted{.ts_ns = ctx.run.now,
                                           .queue_id = ctx.gpu.queues[queue].id,
                                           .preemption_id = ep.request_id,
                                           .latency_ns = ctx.run.now - ep.requested_at,
                                           .packet_id = packet_id,
                                           .engine_id = ctx.gpu.engines[engine].id,
                                           .granularity = reached});
}

// The ready queue that asks the engine to preempt what holds it, or -1. A held wait makes no
// progress, so any ready work asks for the engine; a packet makes way only for higher priority.
int32_t PreemptingQueue(const GpuQueues& gpu, const EngineState& en, const HwQueue& running,
                        bool held_wait) {
  int32_t requester = -1;
  for (uint32_t qi : en.queues) {
    const HwQueue& q = gpu.queues[qi];
    if (q.status != QueueStatus::kReady || (!held_wait && q.priority <= running.priority)) continue;
    if (requester < 0 || q.priority > gpu.queues[requester].priority) {
      requester = static_cast<int32_t>(qi);
    }
  }
  return requester;
}

}  // namespace

void RequestPreemptionIfNeeded(const EngineContext& ctx, uint32_t engine) {
  SimRun& run = ctx.run;
  EngineState& en = ctx.gpu.engines[engine];
  EnginePreemption& ep = ctx.preemption.engines[engine];
  // seed 004: paging packets resubmitted after a preemption are scheduled before any other
  // command on the engine, so they are not asked to make way again.
  const int32_t holder = en.running >= 0 ? en.running : ep.wait_holder;
  if (holder < 0 || ep.phase != PreemptionPhase::kIdle || ep.running_paging_first) return;
  const HwQueue& running = ctx.gpu.queues[holder];
  // seed 004: "signal on submit" waits must be preemptible before their condition is met. A
  // queue whose head is an unsatisfied wait never holds the engine here (it is kBlocked, not
  // running), so such a wait is always preemptible.
  const bool held_wait = en.running < 0;
  const int32_t requester = PreemptingQueue(ctx.gpu, en, running, held_wait);
  if (requester < 0) return;
  const G g = GranularityOf(ctx, engine);
  ep.request_id = ctx.preemption.next_preemption_id++;
  ep.requested_at = run.now;
  ep.requesting_queue = static_cast<uint32_t>(requester);
  ep.granularity = g;
  run.Emit(events::PreemptionRequested{
      .ts_ns = run.now,
      .queue_id = running.id,
      .preemption_id = ep.request_id,
      .packet_id = en.running >= 0 ? running.commands.front().op : 0,  // 0: a held wait
      .requesting_queue_id = ctx.gpu.queues[requester].id,
      .engine_id = en.id,
      .granularity = g});
  const DurationNs timeout = AdapterOf(ctx, engine).tdr_timeout_ns;
  if (en.running < 0) {
    // seed 004: without preemption awareness a hardware wait cannot be preempted before its
    // condition is met: the request completes when the wait is satisfied (ReleaseWaitHold), or
    // the engine is reset at the timeout.
    ep.phase = PreemptionPhase::kToPacketEnd;
    run.events.Push(run.now + timeout, SimEventType::kTdrTimeout, engine,
                    static_cast<uint64_t>(ep.request_id));
    return;
  }
  const PreemptionPoint point = NextPoint(ctx, engine, g);
  ep.phase = point.mid_packet ? PreemptionPhase::kToPoint : PreemptionPhase::kToPacketEnd;
  if (point.at - run.now > timeout) {
    // seed 004: preemption is always requested before a TDR; the engine is reset only when the
    // packet does not reach a preemption point within the timeout.
    run.events.Push(run.now + timeout, SimEventType::kTdrTimeout, engine,
                    static_cast<uint64_t>(ep.request_id));
  } else if (point.mid_packet) {
    run.events.Push(point.at, SimEventType::kPreemption, engine,
                    static_cast<uint64_t>(ep.request_id));
  }
}

int32_t ForcedNextQueue(const GpuQueues& gpu, EnginePreemption& ep) {
  if (ep.pinned_queue >= 0) {
    const int32_t qi = ep.pinned_queue;
    ep.pinned_queue = -1;
    if (gpu.queues[qi].status == QueueStatus::kReady) return qi;
  }
  if (ep.paging_queue >= 0 && ep.skip_before_paging == 0 &&
      gpu.queues[ep.paging_queue].status == QueueStatus::kReady) {
    return ep.paging_queue;
  }
  return -1;
}

DurationNs BeginPacketWork(const EngineContext& ctx, uint32_t engine) {
  SimRun& run = ctx.run;
  const EngineState& en = ctx.gpu.engines[engine];
  EnginePreemption& ep = ctx.preemption.engines[engine];
  const HwQueue& q = ctx.gpu.queues[en.running];
  const GpuCommand& p = q.commands.front();
  if (en.running == ep.paging_queue) {
    ep.paging_queue = -1;
    ep.skip_before_paging = 0;
    ep.running_paging_first = true;
  }
  DurationNs restore = 0;
  if (p.preemption.preempted) {
    restore = AdapterOf(ctx, engine).context_restore_ns;
    run.Emit(events::PacketResumed{.ts_ns = run.now,
                                   .queue_id = q.id,
                                   .packet_id = p.op,
                                   .fence_submission_id = p.preemption.fence_submission});
  }
  ep.work_start = run.now + restore;
  ep.remaining_at_start = p.work.remaining_ns;
  return restore;
}

void OnPacketFinished(const EngineContext& ctx, uint32_t engine) {
  const EngineState& en = ctx.gpu.engines[engine];
  EnginePreemption& ep = ctx.preemption.engines[engine];
  const uint32_t queue = static_cast<uint32_t>(en.running);
  const GpuCommand& p = ctx.gpu.queues[queue].commands.front();
  ep.running_paging_first = false;
  if (ep.paging_queue >= 0 && ep.skip_before_paging > 0 &&
      queue != static_cast<uint32_t>(ep.paging_queue)) {
    --ep.skip_before_paging;  // the work that preempted the paging packet has run
  }
  const bool windows7 = GranularityOf(ctx, engine) == G::kNone;
  if (windows7 && !p.preemption.last_split) {
    // seed 004: the Windows 7 scheduler runs the split packets of one render command
    // sequentially, without switching to another context in between.
    ep.pinned_queue = static_cast<int32_t>(queue);
    return;
  }
  if (ep.phase == PreemptionPhase::kToPacketEnd || ep.phase == PreemptionPhase::kToPoint) {
    RecordCompleted(ctx, engine, queue, p.op, windows7 ? G::kNone : G::kDmaBuffer);
    ClearRequest(ep);
  }
}

void HoldEngineForWait(const EngineContext& ctx, uint32_t queue) {
  const HwQueue& q = ctx.gpu.queues[queue];
  const EngineState& en = ctx.gpu.engines[q.engine];
  EnginePreemption& ep = ctx.preemption.engines[q.engine];
  if (GranularityOf(ctx, q.engine) != G::kNone || en.running >= 0 || ep.wait_holder >= 0) {
    return;  // seed 004: with preemption awareness a wait never holds the engine
  }
  ep.wait_holder = static_cast<int32_t>(queue);
  RequestPreemptionIfNeeded(ctx, q.engine);
}

void ReleaseWaitHold(const EngineContext& ctx, uint32_t queue) {
  const uint32_t engine = ctx.gpu.queues[queue].engine;
  EnginePreemption& ep = ctx.preemption.engines[engine];
  if (ep.wait_holder != static_cast<int32_t>(queue)) return;
  ep.wait_holder = -1;
  if (ep.phase != PreemptionPhase::kIdle) {
    RecordCompleted(ctx, engine, queue, 0, G::kNone);
    ClearRequest(ep);
  }
  TryStartEngine(ctx, engine);
}

void OnPreemptionEvent(const EngineContext& ctx, uint32_t engine, int64_t preemption_id) {
  SimRun& run = ctx.run;
  EngineState& en = ctx.gpu.engines[engine];
  EnginePreemption& ep = ctx.preemption.engines[engine];
  if (ep.request_id != preemption_id || en.running < 0) return;  // completed at the packet's end
  HwQueue& q = ctx.gpu.queues[en.running];
  GpuCommand& p = q.commands.front();
  if (ep.phase == PreemptionPhase::kToPoint) {
    // The packet stops at its preemption point; its completion will not come.
    p.work.remaining_ns = ep.remaining_at_start - (run.now - ep.work_start);
    ++en.generation;
    run.Emit(events::PacketPreempted{.ts_ns = run.now,
                                     .queue_id = q.id,
                                     .packet_id = p.op,
                                     .remaining_ns = p.work.remaining_ns,
                                     .preemption_id = preemption_id,
                                     .granularity = ep.granularity});
    ep.phase = PreemptionPhase::kSaving;
    run.events.Push(run.now + AdapterOf(ctx, engine).context_save_ns, SimEventType::kPreemption,
                    engine, static_cast<uint64_t>(preemption_id));
    return;
  }
  if (ep.phase != PreemptionPhase::kSaving) return;
  RecordCompleted(ctx, engine, static_cast<uint32_t>(en.running), p.op, ep.granularity);
  // seed 004: preempted paging commands are resubmitted with the fence ids they had and are
  // scheduled before any other command on the engine; other commands get new fence ids.
  p.preemption.preempted = true;
  if (p.preemption.paging) {
    ep.paging_queue = en.running;
    ep.skip_before_paging = 1;
  } else {
    p.preemption.fence_submission = ctx.gpu.next_packet_id++;
  }
  q.status = QueueStatus::kReady;
  q.ready_seq = ctx.gpu.next_ready_seq++;
  en.running = -1;
  ClearRequest(ep);
  TryStartEngine(ctx, engine);
}

namespace {

// The hung context's queued GPU waits are gone with its commands; a wait it held the engine
// with will not be unblocked by any signal any more.
void DropWaitsOfQueue(FenceTable& fences, uint32_t queue, bool held_wait) {
  for (FenceState& f : fences.fences) {
    std::erase_if(f.unreached_waits,
                  [queue](const OutstandingWait& w) { return w.queue == queue; });
  }
  if (!held_wait) return;
  for (FenceState& f : fences.fences) {
    std::erase_if(f.gpu_waiters, [queue](const GpuWaiter& w) { return w.queue == queue; });
  }
}

}  // namespace

void OnTdrTimeout(const EngineContext& ctx, FenceTable& fences, uint32_t engine,
                  int64_t preemption_id) {
  SimRun& run = ctx.run;
  EngineState& en = ctx.gpu.engines[engine];
  EnginePreemption& ep = ctx.preemption.engines[engine];
  const int32_t hung = en.running >= 0 ? en.running : ep.wait_holder;
  if (ep.request_id != preemption_id || hung < 0) return;
  // seed 004: no preemption point within the timeout: Timeout Detection and Recovery resets the
  // engine. The hung context loses its packets (the running one and those queued behind it).
  HwQueue& q = ctx.gpu.queues[hung];
  uint64_t packets_lost = 0;
  for (const GpuCommand& c : q.commands) {
    if (c.kind == GpuCommand::Kind::kPacket) ++packets_lost;
  }
  run.Emit(events::Tdr{.ts_ns = run.now,
                       .queue_id = q.id,
                       .adapter_id = ctx.ids.adapter_ids[en.adapter],
                       .engine_id = en.id,
                       .packets_lost = static_cast<int64_t>(packets_lost),
                       .contexts_lost = 1,  // the hung one
                       .preemption_id = preemption_id});
  q.commands.clear();
  q.status = QueueStatus::kIdle;
  q.lost = true;
  DropWaitsOfQueue(fences, static_cast<uint32_t>(hung), ep.wait_holder == hung);
  if (ep.wait_holder == hung) ep.wait_holder = -1;
  if (ep.paging_queue == hung) ep.paging_queue = -1;
  ep.pinned_queue = -1;
  ep.running_paging_first = false;
  ClearRequest(ep);
  ++en.generation;
  en.running = -1;
  TryStartEngine(ctx, engine);
}

void SubmitRenderCommand(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                         const Step& step, core::model::StringId name, GpuCommand& packet,
                         uint32_t flags) {
  packet.preemption.shape = &step.detail.get().shape;
  packet.preemption.paging = step.paging;
  if (step.paging) flags |= core::model::kPacketPaging;
  if (step.present) flags |= core::model::kPacketPresent;
  const int64_t splits = std::max<int64_t>(1, step.detail.get().split_packets);
  const DurationNs total = packet.work.remaining_ns;
  // seed 004: a render command split into several DMA packets; each is a full submission of its
  // own (the Windows 8 scheduler may run other contexts' packets in between).
  packet.preemption.render_command = splits > 1 ? ctx.gpu.next_packet_id : 0;
  if (splits == 1) {
    packet.preemption.last_split = true;
    SubmitPacket(ctx, thread, queue, total, name, packet, flags);
    return;
  }
  for (int64_t i = 0; i < splits; ++i) {
    const DurationNs part = total / splits + (i < total % splits ? 1 : 0);
    GpuCommand split = packet;  // each split gets its own id
    split.preemption.last_split = i == splits - 1;
    SubmitPacket(ctx, thread, queue, part, name, split, flags);
  }
}

}  // namespace core::sim
