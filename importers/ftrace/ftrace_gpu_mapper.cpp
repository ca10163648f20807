#include "importers/ftrace/ftrace_gpu_mapper.h"

#include "importers/ftrace/drm_sched_fields.h"

#include <algorithm>

#include <fmt/format.h>

namespace importers::ftrace {

using namespace core::model;  // NOLINT: the model's vocabulary
using namespace core::store;  // NOLINT: *Info structs and EventRecord

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The adapter a driver name belongs to: amdgpu's scheduler fences are amdgpu's.
std::string_view AdapterName(std::string_view driver) {
  if (driver == "amd_sched") return "amdgpu";
  if (driver.empty() || driver == "drm_sched") return "drm";
  return driver;
}

// i915 engine classes (uabi): render, copy, video, video enhance, compute.
std::string I915EngineName(std::string_view engine) {
  const size_t colon = engine.find(':');
  if (colon == std::string_view::npos) return std::string(engine);
  static constexpr std::string_view kClass[] = {"rcs", "bcs", "vcs", "vecs", "ccs"};
  const auto cls = ParseFtraceNumber(engine.substr(0, colon));
  const std::string instance(engine.substr(colon + 1));
  if (cls && *cls < 5) return std::string(kClass[*cls]) + instance;
  return "engine " + std::string(engine);
}

std::string SleepState(std::string_view state) {
  if (auto n = ParseFtraceNumber(state); n && !state.empty() && state[0] >= '0' && state[0] <= '9') {
    // The kernel's task state bits: 0 running (preempted), 1 interruptible, 2 uninterruptible.
    if (*n == 0) return "preempted";
    if (*n & 1) return "sleeping";
    if (*n & 2) return "blocked (D)";
    return fmt::format("waiting (state {})", *n);
  }
  if (StartsWith(state, "R")) return "preempted";
  if (StartsWith(state, "S")) return "sleeping";
  if (StartsWith(state, "D")) return "blocked (D)";
  return fmt::format("waiting ({})", state);
}

}  // namespace

EngineType EngineTypeOfRing(std::string_view ring) {
  auto has = [&](std::string_view word) { return ring.find(word) != std::string_view::npos; };
  if (StartsWith(ring, "gfx") || StartsWith(ring, "rcs") || has("render") || StartsWith(ring, "3d")) {
    return EngineType::k3D;
  }
  if (StartsWith(ring, "comp") || StartsWith(ring, "ccs") || has("compute")) {
    return EngineType::kCompute;
  }
  if (StartsWith(ring, "sdma") || has("copy") || StartsWith(ring, "bcs") || has("blit")) {
    return EngineType::kCopy;
  }
  if (StartsWith(ring, "vcn") || StartsWith(ring, "uvd") || StartsWith(ring, "vce") ||
      StartsWith(ring, "vcs") || StartsWith(ring, "vecs") || has("video")) {
    return EngineType::kVideo;
  }
  return EngineType::kOther;
}

FtraceGpuMapper::FtraceGpuMapper(TraceWriter& writer) : m_writer(writer) {}

uint32_t FtraceGpuMapper::Name(std::string_view text) {
  auto it = m_names.find(text);
  if (it != m_names.end()) return it->second;
  const uint32_t sid = m_writer.Intern(text);
  m_names.emplace(std::string(text), sid);
  return sid;
}

uint32_t FtraceGpuMapper::Adapter(std::string_view driver) {
  const std::string_view name = AdapterName(driver);
  auto it = m_adapters.find(name);
  if (it != m_adapters.end()) return it->second;
  core::model::Adapter info;
  info.name = std::string(name);
  const uint32_t id = m_writer.AddAdapter(info);
  m_adapters.emplace(std::string(name), id);
  return id;
}

FtraceGpuMapper::Queue& FtraceGpuMapper::QueueFor(std::string_view driver, std::string_view ring) {
  const uint32_t adapter = Adapter(driver);
  auto key = std::make_pair(adapter, std::string(ring));
  auto it = m_queues.find(key);
  if (it != m_queues.end()) return it->second;
  core::model::Engine engine;
  engine.adapter = adapter;
  engine.type = EngineTypeOfRing(ring);
  engine.ordinal = static_cast<uint32_t>(m_queues.size());
  engine.name = std::string(ring);
  core::model::Queue queue;
  queue.engine = m_writer.AddEngine(engine);
  queue.adapter = adapter;
  queue.type = QueueTypeOf(engine.type);
  queue.name = std::string(ring);
  queue.sort_index = static_cast<int32_t>(m_queues.size());
  Queue q{m_writer.AddQueue(queue), adapter};
  return m_queues.emplace(std::move(key), q).first->second;
}

uint32_t FtraceGpuMapper::Thread(int32_t pid, int32_t tgid, std::string_view comm) {
  auto it = m_threads.find(pid);
  if (it != m_threads.end()) return it->second;
  if (tgid < 0) {
    auto known = m_tgids.find(pid);
    tgid = known != m_tgids.end() ? known->second : pid;
  }
  std::string name(comm);
  if (name.empty()) {
    auto known = m_comms.find(pid);
    name = known != m_comms.end() ? known->second : fmt::format("pid {}", pid);
  }
  core::model::Thread info;
  info.process = Process(tgid, tgid == pid ? std::string_view(name) : std::string_view());
  info.tid = pid;
  info.kind = pid == 0 ? ThreadKind::kOs : ThreadKind::kApplication;
  info.name = std::move(name);
  info.sort_index = static_cast<int32_t>(m_threads.size());
  const uint32_t id = m_writer.AddThread(info);
  m_threads.emplace(pid, id);
  return id;
}

uint32_t FtraceGpuMapper::Process(int32_t tgid, std::string_view leader_name) {
  auto process = m_processes.find(tgid);
  if (process != m_processes.end()) return process->second;
  core::model::Process info;
  info.pid = tgid;
  auto leader = m_comms.find(tgid);
  info.name = !leader_name.empty()      ? std::string(leader_name)
              : leader != m_comms.end() ? leader->second
                                        : fmt::format("pid {}", tgid);
  return m_processes.emplace(tgid, m_writer.AddProcess(info)).first->second;
}

FtraceGpuMapper::FenceState& FtraceGpuMapper::Fence(uint64_t context, std::string_view driver,
                                                    std::string_view timeline) {
  auto it = m_fences.find(context);
  if (it != m_fences.end()) {
    // A fence first met as a dependency learns its ring when its own events name it.
    if (it->second.queue == 0 && !timeline.empty()) it->second.queue = QueueFor(driver, timeline).id;
    return it->second;
  }
  core::model::Fence info;
  info.name = driver.empty() ? fmt::format("fence context {}", context)
                             : fmt::format("{} {} context {}", driver, timeline, context);
  info.kind = FenceKind::kNative;
  info.handle = static_cast<int64_t>(context);
  FenceState state;
  if (!timeline.empty()) {
    info.owner_adapter = Adapter(driver);
    info.adapter_mask = info.owner_adapter <= 32 ? 1u << (info.owner_adapter - 1) : 0;
    state.queue = QueueFor(driver, timeline).id;
  }
  state.id = m_writer.AddFence(info);
  state.name = info.name;
  return m_fences.emplace(context, std::move(state)).first->second;
}

int64_t FtraceGpuMapper::QueueSignal(int64_t ts, FenceState& fence, uint64_t /*context*/,
                                     uint64_t seqno, uint32_t thread) {
  auto it = fence.queued.find(seqno);
  if (it != fence.queued.end()) return it->second;
  const int64_t op = m_next_op++;
  Emit(events::FenceSignalQueued{.ts_ns = ts,
                                 .queue_id = fence.queue,
                                 .thread_id = thread,
                                 .fence_id = fence.id,
                                 .fence_value = seqno,
                                 .signal_id = op});
  fence.queued.emplace(seqno, op);
  return op;
}

void FtraceGpuMapper::SignalFence(int64_t ts, uint64_t context, uint64_t seqno,
                                  std::string_view driver, std::string_view timeline) {
  FenceState& fence = Fence(context, driver, timeline);
  auto queued = fence.queued.find(seqno);
  int64_t op;
  if (queued == fence.queued.end()) {
    op = QueueSignal(ts, fence, context, seqno, 0);
    ++m_counts.signals_without_emit;
    queued = fence.queued.find(seqno);
  }
  op = queued->second;
  fence.queued.erase(queued);
  Emit(events::FenceSignalExecuted{.ts_ns = ts,
                                   .queue_id = fence.queue,
                                   .fence_id = fence.id,
                                   .fence_value = seqno,
                                   .signal_id = op,
                                   .previous_value = fence.current});
  ++m_counts.signals_executed;
  fence.current = std::max(fence.current, seqno);
  fence.last_signal = op;
  // GPU waits satisfied by this value.
  auto first = m_waits_on.lower_bound({context, 0});
  auto last = m_waits_on.upper_bound({context, seqno});
  for (auto it = first; it != last; ++it) {
    for (size_t index : it->second) ReleaseGpuWait(ts, m_gpu_waits[index], op);
  }
  m_waits_on.erase(first, last);
}

FtraceGpuMapper::Job* FtraceGpuMapper::SubmitJob(int64_t ts, uint64_t key_hi, uint64_t key_lo,
                                                 Queue& q, uint32_t thread,
                                                 std::string_view name) {
  auto [it, fresh] = m_jobs.try_emplace({key_hi, key_lo});
  Job& job = it->second;
  if (!fresh) return &job;
  job.packet = m_next_packet++;
  job.queue = q.id;
  job.cpu_submit = thread != 0;
  Emit(events::PacketSubmitted{.ts_ns = ts,
                               .queue_id = q.id,
                               .thread_id = thread,
                               .packet_id = job.packet,
                               .name_sid = Name(name),
                               .fence_submission_id = static_cast<int64_t>(key_lo)});
  ++m_counts.jobs_submitted;
  if (thread) ++m_counts.cpu_submits;
  return &job;
}

// A job handed to its ring (amdgpu_sched_run_job, drm_run_job, i915_request_in, ...) has its
// dependencies met: its waits are released. A ring executes the jobs handed to it one after the
// other, in that order (its fences signal in that order), so the job starts running when the
// job handed before it has completed, or at once on an idle ring.
void FtraceGpuMapper::StartJob(int64_t ts, Job& job) {
  if (job.handed) return;
  job.handed = true;
  job.handed_ts = ts;
  ++m_counts.jobs_started;
  if (job.cpu_submit) ++m_counts.cpu_submits_run;
  for (size_t index : job.waits) ReleaseGpuWait(ts, m_gpu_waits[index], 0);
  auto& ring = m_on_ring[job.queue];
  if (ring.empty()) RunJob(ts, job);
  ring.push_back(&job);
}

void FtraceGpuMapper::RunJob(int64_t ts, Job& job) {
  if (job.started) return;
  job.started = true;
  Emit(events::PacketStarted{.ts_ns = ts, .queue_id = job.queue, .packet_id = job.packet});
}

void FtraceGpuMapper::CompleteJob(int64_t ts, Job& job) {
  if (job.completed) return;
  StartJob(ts, job);
  // Jobs handed before it with no completion yet have completed too (the ring is in order),
  // but the capture lacks when: the job ran from its hand-over, as far as the trace can say.
  auto& ring = m_on_ring[job.queue];
  const auto it = std::find(ring.begin(), ring.end(), &job);
  RunJob(job.handed_ts, job);
  // Not on its ring any more: a job handed after it completed first and took it off as
  // completed at a time the capture lacked. Its completion is here after all, out of order.
  if (it != ring.end()) {
    m_counts.completions_not_in_capture += static_cast<uint64_t>(it - ring.begin());
    ring.erase(ring.begin(), it + 1);
  }
  job.completed = true;
  Emit(events::PacketCompleted{.ts_ns = ts, .queue_id = job.queue, .packet_id = job.packet});
  ++m_counts.jobs_completed;
  if (!ring.empty()) RunJob(ts, *ring.front());
}

void FtraceGpuMapper::ReleaseGpuWait(int64_t ts, GpuWait& wait, int64_t signal) {
  if (wait.done) return;
  wait.done = true;
  const FenceState& fence = m_fences.at(wait.context);
  Emit(events::FenceWaitUnblocked{
      .ts_ns = ts,
      .queue_id = wait.queue,
      .fence_id = fence.id,
      .fence_value = wait.seqno,
      .wait_id = wait.op,
      .released_by_signal_id = signal,
      .release_link = signal ? ReleaseLink::kFromCapture : ReleaseLink::kNotGiven,
      .wait_path = WaitPath::kGpuNative});
  if (signal) ++m_counts.gpu_waits_released_by_signal;
}

FtraceGpuMapper::ThreadState& FtraceGpuMapper::ThreadStateFor(int32_t pid, std::string_view comm) {
  auto it = m_thread_states.find(pid);
  if (it != m_thread_states.end()) return it->second;
  ThreadState t;
  t.id = Thread(pid, -1, comm);
  return m_thread_states.emplace(pid, t).first->second;
}

void FtraceGpuMapper::CloseSlice(ThreadState& t, int64_t ts) {
  if (t.slice_name == 0) return;
  Emit(events::CpuSlice{.ts_ns = t.since,
                        .thread_id = t.id,
                        .duration_ns = ts - t.since,
                        .name_sid = t.slice_name,
                        .category_sid = Name("sched")});
  ++m_counts.thread_slices;
  t.slice_name = 0;
}

void FtraceGpuMapper::OpenSlice(ThreadState& t, int64_t ts, std::string_view name) {
  CloseSlice(t, ts);
  t.since = ts;
  t.slice_name = Name(name);
}

void FtraceGpuMapper::OnSchedSwitch(const FtraceEvent& e) {
  const auto prev = e.Number("prev_pid");
  const auto next = e.Number("next_pid");
  if (auto comm = e.Text("prev_comm"); comm && prev) m_comms[static_cast<int32_t>(*prev)] = *comm;
  if (auto comm = e.Text("next_comm"); comm && next) m_comms[static_cast<int32_t>(*next)] = *comm;
  if (prev && *prev != 0) {
    ThreadState& t = ThreadStateFor(static_cast<int32_t>(*prev), e.Text("prev_comm").value_or(""));
    OpenSlice(t, e.ts_ns, SleepState(e.Text("prev_state").value_or("?")));
  }
  if (next && *next != 0) {
    ThreadState& t = ThreadStateFor(static_cast<int32_t>(*next), e.Text("next_comm").value_or(""));
    OpenSlice(t, e.ts_ns, "running");
  }
}

void FtraceGpuMapper::OnAmdgpuJob(const FtraceEvent& e, bool run) {
  const auto context = e.Number("context");
  const auto seqno = e.Number("seqno");
  const std::string_view ring = e.Text("timeline").value_or("");
  if (!context || !seqno || ring.empty()) {
    ++m_counts.unmapped_events;
    return;
  }
  Queue& q = QueueFor("amdgpu", ring);
  if (!run) {
    const uint32_t thread = Thread(e.pid, e.tgid, e.comm);
    SubmitJob(e.ts_ns, *context, *seqno, q, thread, "job");
    FenceState& finished = Fence(*context, "amd_sched", ring);
    QueueSignal(e.ts_ns, finished, *context, *seqno, thread);
    return;
  }
  auto it = m_jobs.find({*context, *seqno});
  Job* job;
  if (it == m_jobs.end()) {
    job = SubmitJob(e.ts_ns, *context, *seqno, q, 0, "job");
    ++m_counts.jobs_without_submit;
    FenceState& finished = Fence(*context, "amd_sched", ring);
    QueueSignal(e.ts_ns, finished, *context, *seqno, 0);
  } else {
    job = &it->second;
  }
  StartJob(e.ts_ns, *job);
  // The job's scheduled fence (context - 1, same seqno) signals as soon as it has run.
  if (*context > 0) {
    FenceState& scheduled = Fence(*context - 1, "amd_sched", ring);
    QueueSignal(e.ts_ns, scheduled, *context - 1, *seqno, Thread(e.pid, e.tgid, e.comm));
  }
}

void FtraceGpuMapper::OnDmaFence(const FtraceEvent& e) {
  const auto context = e.Number("context");
  const auto seqno = e.Number("seqno");
  if (!context || !seqno) {
    ++m_counts.unmapped_events;
    return;
  }
  const std::string_view driver = e.Text("driver").value_or("");
  const std::string_view timeline = e.Text("timeline").value_or("");
  const std::string_view what = e.name.substr(e.name.find('_', 4) + 1);  // after "dma_fence_"
  if (what == "signaled") {
    // drm_sched_job_done has executed this finished fence's signal just before.
    if (m_signalled_by_job.erase({*context, *seqno})) return;
    SignalFence(e.ts_ns, *context, *seqno, driver, timeline);
    auto job = m_jobs.find({*context, *seqno});
    if (job != m_jobs.end()) {
      CompleteJob(e.ts_ns, job->second);
      m_jobs.erase(job);  // a finished fence signals once
    }
    return;
  }
  FenceState& fence = Fence(*context, driver, timeline);
  if (what == "init" || what == "emit") {
    if (fence.current < *seqno || fence.last_signal == 0) {
      QueueSignal(e.ts_ns, fence, *context, *seqno, Thread(e.pid, e.tgid, e.comm));
    }
  } else if (what == "wait_start") {
    const uint32_t thread = Thread(e.pid, e.tgid, e.comm);
    const int64_t waiter = m_next_op++;
    Emit(events::CpuWaitBegin{.ts_ns = e.ts_ns,
                              .thread_id = thread,
                              .fence_id = fence.id,
                              .fence_value = *seqno,
                              .waiter_id = waiter});
    m_cpu_waits[e.pid].push_back({waiter, *context, *seqno});
    ++m_counts.cpu_waits;
  } else if (what == "wait_end") {
    auto& open = m_cpu_waits[e.pid];
    auto it = std::find_if(open.begin(), open.end(), [&](const CpuWait& w) {
      return w.context == *context && w.seqno == *seqno;
    });
    if (it == open.end()) {
      ++m_counts.cpu_wait_end_without_start;
      return;
    }
    Emit(events::CpuWaitReleased{
        .ts_ns = e.ts_ns,
        .thread_id = Thread(e.pid, e.tgid, e.comm),
        .fence_id = fence.id,
        .fence_value = *seqno,
        .waiter_id = it->waiter,
        .observed_value = fence.current,
        .release_link = fence.current >= *seqno ? ReleaseLink::kFromCapture : ReleaseLink::kNotGiven});
    open.erase(it);
    ++m_counts.cpu_waits_released;
  }
}

void FtraceGpuMapper::OnI915(const FtraceEvent& e) {
  const auto ctx = e.Number("ctx");
  const auto seqno = e.Number("seqno");
  std::string_view engine = e.Text("engine").value_or("");
  if (engine.empty()) engine = e.Text("ring").value_or("");
  if (!ctx || !seqno || engine.empty()) {
    ++m_counts.unmapped_events;
    return;
  }
  const std::string ring = I915EngineName(engine);
  const std::string_view what = e.name.substr(e.name.rfind("request_") + 8);
  if (what == "wait_begin" || what == "wait_end") {
    FtraceEvent as_fence = e;
    as_fence.name = what == "wait_begin" ? "dma_fence_wait_start" : "dma_fence_wait_end";
    as_fence.fields.push_back({"context", e.Text("ctx").value_or("")});
    as_fence.fields.push_back({"driver", "i915"});
    as_fence.fields.push_back({"timeline", ring});
    OnDmaFence(as_fence);
    return;
  }
  Queue& q = QueueFor("i915", ring);
  auto it = m_jobs.find({*ctx, *seqno});
  Job* job = it != m_jobs.end() ? &it->second : nullptr;
  if (what == "add" || what == "queue" || !job) {
    const bool cpu = what == "add" || what == "queue";
    const uint32_t thread = cpu ? Thread(e.pid, e.tgid, e.comm) : 0;
    job = SubmitJob(e.ts_ns, *ctx, *seqno, q, thread, "request");
    if (!cpu) ++m_counts.jobs_without_submit;
    FenceState& fence = Fence(*ctx, "i915", ring);
    QueueSignal(e.ts_ns, fence, *ctx, *seqno, thread);
  }
  if (what == "in") StartJob(e.ts_ns, *job);
  if (what == "out" || what == "retire") {
    if (!job->completed) {
      CompleteJob(e.ts_ns, *job);
      FenceState& fence = Fence(*ctx, "i915", ring);
      if (fence.queued.count(*seqno)) SignalFence(e.ts_ns, *ctx, *seqno, "i915", ring);
    }
  }
}

// xe: xe_sched_job_create / _run / _free, keyed by the job's fence pointer, on the queue of its
// GuC context (the format names no ring). The free comes after the job's completion: it is the
// latest the capture says it had finished.
// msm: msm_gpu_submit / _submit_flush / _submit_retired, keyed by (ring, submit id).
void FtraceGpuMapper::OnDriverJob(const FtraceEvent& e, std::string_view driver, int stage) {
  uint64_t hi = 0;
  std::string ring;
  if (driver == "xe") {
    const auto fence = e.Number("fence");
    const auto guc = e.Number("guc_id");
    if (!fence || !guc) {
      ++m_counts.unmapped_events;
      return;
    }
    hi = *fence;
    ring = fmt::format("guc {}", *guc);
  } else {
    const auto id = e.Number("id");
    std::string_view ring_text = e.Text("ring").value_or("");
    ring_text = ring_text.substr(0, ring_text.find(':'));  // flush prints ring:fence-seqno
    const auto ring_index = ParseFtraceNumber(ring_text);
    if (!id || !ring_index) {
      ++m_counts.unmapped_events;
      return;
    }
    hi = *ring_index << 32 | (*id & 0xffffffffu);
    ring = fmt::format("ring {}", *ring_index);
  }
  const std::string_view adapter = driver == "xe" ? e.Text("dev").value_or("xe") : driver;
  const uint64_t lo = kPointerKey - 1;  // apart from drm_sched's pointer keys
  auto it = m_jobs.find({hi, lo});
  Job* job = it != m_jobs.end() ? &it->second : nullptr;
  if (stage == 2 && !job) return;
  if (!job) {
    Queue& q = QueueFor(adapter, ring);
    job = SubmitJob(e.ts_ns, hi, lo, q, stage == 0 ? Thread(e.pid, e.tgid, e.comm) : 0, "job");
    if (stage != 0) ++m_counts.jobs_without_submit;
  }
  if (stage == 1) StartJob(e.ts_ns, *job);
  if (stage == 2) {
    CompleteJob(e.ts_ns, *job);
    m_jobs.erase({hi, lo});
  }
}

void FtraceGpuMapper::Map(const FtraceEvent& e) {
  m_last_ts = std::max(m_last_ts, e.ts_ns);
  m_coverage.Add(e.cpu, e.ts_ns);
  auto counted = m_counts.events_by_name.find(e.name);
  if (counted == m_counts.events_by_name.end()) {
    counted = m_counts.events_by_name.emplace(std::string(e.name), 0).first;
  }
  ++counted->second;
  const std::string_view n = e.name;
  if (n == "sched_switch") {
    OnSchedSwitch(e);
  } else if (n == "sched_wakeup" || n == "sched_waking" || n == "sched_wakeup_new") {
    if (auto pid = e.Number("pid"); pid && *pid != 0) {
      ThreadState& t = ThreadStateFor(static_cast<int32_t>(*pid), e.Text("comm").value_or(""));
      if (t.slice_name != 0 && t.slice_name != Name("running")) OpenSlice(t, e.ts_ns, "runnable");
    }
  } else if (n == "amdgpu_cs_ioctl") {
    OnAmdgpuJob(e, false);
  } else if (n == "amdgpu_sched_run_job") {
    OnAmdgpuJob(e, true);
  } else if (n == "drm_sched_job" || n == "drm_sched_job_queue") {
    OnDrmSchedJob(e, 0);
  } else if (n == "drm_run_job" || n == "drm_sched_job_run") {
    OnDrmSchedJob(e, 1);
  } else if (n == "drm_sched_process_job" || n == "drm_sched_job_done") {
    OnDrmSchedJob(e, 2);
  } else if (n == "drm_sched_job_wait_dep" || n == "drm_sched_job_add_dep" ||
             n == "drm_sched_job_unschedulable") {
    OnDependency(e);
  } else if (StartsWith(n, "dma_fence_") || StartsWith(n, "fence_")) {
    if (StartsWith(n, "fence_")) {
      FtraceEvent renamed = e;
      std::string name = "dma_" + std::string(n);
      renamed.name = name;
      OnDmaFence(renamed);
    } else {
      OnDmaFence(e);
    }
  } else if (StartsWith(n, "i915_request_") || StartsWith(n, "i915_gem_request_")) {
    OnI915(e);
  } else if (n == "xe_sched_job_create" || n == "xe_sched_job_run" ||
             n == "xe_sched_job_free") {
    OnDriverJob(e, "xe", n == "xe_sched_job_create" ? 0 : n == "xe_sched_job_run" ? 1 : 2);
  } else if (n == "msm_gpu_submit" || n == "msm_gpu_submit_flush" ||
             n == "msm_gpu_submit_retired") {
    OnDriverJob(e, "msm", n == "msm_gpu_submit" ? 0 : n == "msm_gpu_submit_flush" ? 1 : 2);
  } else if (n == "drm_vblank_event") {
    const auto crtc = e.Number("crtc");
    Emit(events::Marker{.ts_ns = e.ts_ns,
                        .name_sid = Name(fmt::format("VSync (crtc {})", crtc.value_or(0))),
                        .marker_type = 1});
    ++m_counts.vblanks;
  } else if (n == "print" || n == "tracing_mark_write" || n == "0") {
    OnPrint(e);
  } else if (n == "amdgpu_vm_flush" || n == "amdgpu_bo_move" || n == "amdgpu_ttm_bo_move") {
    Emit(events::Instant{.ts_ns = e.ts_ns,
                         .thread_id = Thread(e.pid, e.tgid, e.comm),
                         .name_sid = Name(n),
                         .category_sid = Name("amdgpu")});
  } else {
    auto it = m_counts.unmapped_by_name.find(n);
    if (it == m_counts.unmapped_by_name.end()) {
      it = m_counts.unmapped_by_name.emplace(std::string(n), 0).first;
    }
    ++it->second;
  }
}

void FtraceGpuMapper::Finish() {
  for (auto& [pid, t] : m_thread_states) CloseSlice(t, m_last_ts);
  for (const GpuWait& wait : m_gpu_waits) {
    if (wait.done) continue;
    const FenceState& fence = m_fences.at(wait.context);
    Emit(events::WaitPendingAtEnd{.ts_ns = m_last_ts,
                                  .queue_id = wait.queue,
                                  .fence_id = fence.id,
                                  .fence_value = wait.seqno,
                                  .wait_id = wait.op,
                                  .current_value = fence.current});
  }
  for (const auto& [pid, waits] : m_cpu_waits) {
    for (const CpuWait& wait : waits) {
      const FenceState& fence = m_fences.at(wait.context);
      Emit(events::WaitPendingAtEnd{.ts_ns = m_last_ts,
                                    .thread_id = m_threads.at(pid),
                                    .fence_id = fence.id,
                                    .fence_value = wait.seqno,
                                    .wait_id = wait.waiter,
                                    .current_value = fence.current});
    }
  }
  CloseAtrace();
  PlaceVblanks();
  CropToCompleteWindow();
  WriteCounters();
  std::stable_sort(m_records.begin(), m_records.end(),
                   [](const EventRecord& a, const EventRecord& b) { return a.ts < b.ts; });
  for (const EventRecord& r : m_records) m_writer.Append(r);
  m_records.clear();
  m_records.shrink_to_fit();
}

}  // namespace importers::ftrace

namespace importers::ftrace {

// drm_vblank_event names a CRTC but not its device: with one GPU driver in the capture, the
// CRTC is that adapter's; with several, the marker stays trace-wide and is counted.
void FtraceGpuMapper::PlaceVblanks() {
  for (EventRecord& r : m_records) {
    if (r.kind != EventKind::Marker) continue;
    auto marker = events::Marker::Of(r);
    if (marker.marker_type != 1) continue;
    if (m_adapters.size() == 1) {
      marker.adapter_id = m_adapters.begin()->second;
      r = marker.Record();
    } else {
      ++m_counts.vblanks_without_adapter;
    }
  }
}

void FtraceGpuMapper::CropToCompleteWindow() {
  const int64_t from = m_coverage.CompleteFrom();
  if (from <= m_coverage.FirstTs()) return;
  const CropCounts crop = CropToWindow(m_records, from);
  m_counts.window_from = from;
  m_counts.window_dropped = crop.dropped;
  m_counts.window_moved = crop.moved;
  m_counts.cpu_coverage = m_coverage.Describe();
}

}  // namespace importers::ftrace
