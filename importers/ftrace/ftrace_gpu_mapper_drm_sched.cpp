// The DRM GPU scheduler's tracepoints (gpu_scheduler_trace.h) on the mapper's model: jobs queued,
// run and done on a ring, and the dependency fences a job waits for before it may run.
#include <fmt/format.h>

#include "importers/ftrace/drm_sched_fields.h"
#include "importers/ftrace/ftrace_gpu_mapper.h"

namespace importers::ftrace {

using namespace core::model;  // NOLINT: the model's vocabulary

// drm_sched_job / drm_run_job / drm_sched_process_job (fence=%p) and the newer
// drm_sched_job_queue / _run / _done (fence=context:seqno). stage: 0 queued, 1 run, 2 done.
void FtraceGpuMapper::OnDrmSchedJob(const FtraceEvent& e, int stage) {
  const auto key = DrmSchedJob(e);
  if (!key) {
    ++m_counts.unmapped_events;
    return;
  }
  const std::string_view driver = e.Text("dev").value_or("drm");
  const std::string_view ring = DrmSchedRing(e);
  const bool fence_key = key->lo != kPointerKey;  // the finished fence as (context, seqno)
  auto it = m_jobs.find({key->hi, key->lo});
  Job* job = it != m_jobs.end() ? &it->second : nullptr;
  if (stage == 2 && !job) return;  // completed already (its fence's signal) or never seen
  if (stage == 0 || !job) {
    if (ring.empty()) {
      ++m_counts.unmapped_events;
      return;
    }
    Queue& q = QueueFor(driver, ring);
    const uint32_t thread = stage == 0 ? Thread(e.pid, e.tgid, e.comm) : 0;
    job = SubmitJob(e.ts_ns, key->hi, key->lo, q, thread, "job");
    if (stage != 0) ++m_counts.jobs_without_submit;
    if (auto id = e.Number("id")) m_job_by_id[{std::string(ring), *id}] = {key->hi, key->lo};
    if (fence_key) {
      // An entity allocates two fence contexts: its jobs' scheduled fences (context - 1) and
      // finished fences (context); both are signalled by work on this ring.
      const auto owner = std::make_pair(std::string(driver), std::string(ring));
      m_context_ring.emplace(key->hi, owner);
      if (key->hi > 0) m_context_ring.emplace(key->hi - 1, owner);
      // The job's finished fence signals when the job is done: queued with the job.
      QueueSignal(e.ts_ns, Fence(key->hi, driver, ring), key->hi, key->lo, thread);
    }
  }
  if (stage == 1) {
    StartJob(e.ts_ns, *job);
    // The scheduler signals the job's scheduled fence right after handing it to the ring.
    if (fence_key && key->hi > 0) SignalByJob(e, key->hi - 1, key->lo, driver, ring);
  }
  if (stage == 2) {
    CompleteJob(e.ts_ns, *job);
    m_jobs.erase({key->hi, key->lo});
    // drm_sched_job_done is traced just before the finished fence is signalled: its signal
    // executes here, and the dma_fence_signaled that follows is not a second one.
    if (fence_key) SignalByJob(e, key->hi, key->lo, driver, ring);
  }
}

// A scheduler fence signalled by the job event `e`; the dma_fence_signaled the kernel traces
// right after it is then not a second signal.
void FtraceGpuMapper::SignalByJob(const FtraceEvent& e, uint64_t context, uint64_t seqno,
                                  std::string_view driver, std::string_view ring) {
  FenceState& fence = Fence(context, driver, ring);
  if (fence.current >= seqno && fence.last_signal) return;
  QueueSignal(e.ts_ns, fence, context, seqno, 0);
  SignalFence(e.ts_ns, context, seqno, driver, ring);
  m_signalled_by_job.insert({context, seqno});
}

// The fence a dependency names, on the ring that owns it when the capture says which: its
// context is a scheduler entity's (a job of that ring has a fence of it), dma_fence events named
// its timeline, or (older kernels) the dependency's pointer is a job's finished fence.
FtraceGpuMapper::FenceState& FtraceGpuMapper::DependencyFence(uint64_t context, uint64_t,
                                                               uint64_t pointer) {
  if (auto owner = m_context_ring.find(context); owner != m_context_ring.end()) {
    return Fence(context, owner->second.first, owner->second.second);
  }
  FenceState& fence = Fence(context, "", "");
  if (pointer && fence.queue == 0) {
    auto job = m_jobs.find({pointer, kPointerKey});
    if (job != m_jobs.end()) fence.queue = job->second.queue;
  }
  return fence;
}

// drm_sched_job_wait_dep (older kernels: the job is blocked on this fence when the scheduler
// picks it), drm_sched_job_add_dep (newer kernels: the job is pushed with this fence among its
// dependencies) and drm_sched_job_unschedulable (newer: the job is blocked on it). All mean the
// job does not run before the fence signals: one GPU wait of the job's ring per job and fence.
void FtraceGpuMapper::OnDependency(const FtraceEvent& e) {
  const auto dep = DrmSchedDependency(e);
  if (!dep) {
    ++m_counts.unmapped_events;
    return;
  }
  Job* job = nullptr;
  std::string_view ring = DrmSchedRing(e);
  std::string_view driver = e.Text("dev").value_or("drm");
  if (e.name != "drm_sched_job_wait_dep") {
    // add_dep / unschedulable name the job by its finished fence, not by its ring.
    const auto key = DrmSchedJob(e);
    auto it = key ? m_jobs.find({key->hi, key->lo}) : m_jobs.end();
    if (it == m_jobs.end()) {
      ++m_counts.dependencies_without_job;
      return;
    }
    job = &it->second;
    auto owner = m_context_ring.find(key->hi);
    if (owner == m_context_ring.end()) {
      ++m_counts.dependencies_without_job;
      return;
    }
    driver = owner->second.first;
    ring = owner->second.second;
  } else if (auto id = e.Number("id"); id && !ring.empty()) {
    auto key = m_job_by_id.find({std::string(ring), *id});
    if (key != m_job_by_id.end()) {
      auto it = m_jobs.find(key->second);
      if (it != m_jobs.end()) job = &it->second;
    }
  }
  if (ring.empty()) {
    ++m_counts.unmapped_events;
    return;
  }
  if (job && !m_dependencies.insert({job->packet, dep->context, dep->seqno}).second) return;
  AddGpuWait(e, QueueFor(driver, ring), job, dep->context, dep->seqno);
}

void FtraceGpuMapper::AddGpuWait(const FtraceEvent& e, Queue& q, Job* job, uint64_t context,
                                 uint64_t seqno) {
  const bool pointer_dep = e.name == "drm_sched_job_wait_dep";
  FenceState& fence = DependencyFence(context, seqno, pointer_dep ? e.Number("fence").value_or(0) : 0);
  GpuWait wait;
  wait.op = m_next_op++;
  wait.queue = q.id;
  wait.context = context;
  wait.seqno = seqno;
  Emit(events::FenceWaitQueued{.ts_ns = e.ts_ns,
                               .queue_id = q.id,
                               .thread_id = Thread(e.pid, e.tgid, e.comm),
                               .fence_id = fence.id,
                               .fence_value = seqno,
                               .wait_id = wait.op});
  ++m_counts.gpu_waits;
  const size_t index = m_gpu_waits.size();
  m_gpu_waits.push_back(wait);
  if (job) job->waits.push_back(index);
  if (fence.last_signal && fence.current >= seqno) {
    ReleaseGpuWait(e.ts_ns, m_gpu_waits[index], fence.last_signal);
  } else {
    m_waits_on[{context, seqno}].push_back(index);
  }
}

}  // namespace importers::ftrace
