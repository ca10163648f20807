// seed 003: the OS's list of outstanding CPU waiters per fence, and the MonitoredValue that the
// GPU compares new fence values against to decide whether to interrupt.
#include "core/sim/cpu_waiter_list.h"

#include <algorithm>

#include "core/sim/thread_program.h"

namespace core::sim {

void UpdateMonitoredValue(SimRun& run, const Topology& ids, FenceState& f,
                          const std::vector<CpuWaiter>& waiters) {
  if (!f.tracks_monitored) return;
  // seed 003: MonitoredValue = least currently waited value - 1; UINT64_MAX with no waiter.
  uint64_t least = core::model::kNoWaiterMonitoredValue;
  for (const CpuWaiter& w : waiters) least = std::min(least, w.value);
  const uint64_t monitored = waiters.empty() ? core::model::kNoWaiterMonitoredValue : least - 1;
  if (monitored == f.monitored) return;
  f.monitored = monitored;
  run.Emit(events::MonitoredValueUpdated{.ts_ns = run.now,
                                         .fence_id = f.id,
                                         .monitored_value = monitored,
                                         .adapter_id = ids.adapter_ids[f.owner]});
}

namespace {

void UpdateMonitoredValue(const CpuWaitContext& ctx, uint32_t fence) {
  UpdateMonitoredValue(ctx.run, ctx.ids, ctx.fences.fences[fence], ctx.waiters.per_fence[fence]);
}

// A wait-any group whose first member was released: the other members leave the waiter list.
void WithdrawRest(const CpuWaitContext& ctx, uint32_t group_index) {
  WaitGroup& g = ctx.waiters.groups[group_index];
  for (size_t m = 0; m < g.members.size(); ++m) {
    const uint32_t fence = g.member_fences[m];
    std::vector<CpuWaiter>& list = ctx.waiters.per_fence[fence];
    auto it = std::find_if(list.begin(), list.end(),
                           [&](const CpuWaiter& w) { return w.waiter_id == g.members[m]; });
    if (it == list.end()) continue;
    ctx.run.Emit(events::CpuWaitWithdrawn{
        .ts_ns = ctx.run.now,
        .thread_id = ctx.cpu.threads[g.thread].id,
        .fence_id = ctx.fences.fences[fence].id,
        .fence_value = it->value,
        .waiter_id = it->waiter_id,
        .group_id = group_index,
        .satisfied_waiter_id = g.members[static_cast<size_t>(g.satisfied_member)]});
    list.erase(it);
    UpdateMonitoredValue(ctx, fence);
  }
}

// A member of a group was released; returns true when the group is now complete.
bool MemberReleased(const CpuWaitContext& ctx, uint32_t group_index, int64_t waiter_id) {
  WaitGroup& g = ctx.waiters.groups[group_index];
  if (g.done) return false;
  if (g.pending > 0) --g.pending;
  if (g.satisfied_member < 0) {
    for (size_t m = 0; m < g.members.size(); ++m) {
      if (g.members[m] == waiter_id) g.satisfied_member = static_cast<int32_t>(m);
    }
  }
  if (g.mode == WaitMode::kAll && g.pending > 0) return false;
  g.done = true;
  if (g.mode == WaitMode::kAny) WithdrawRest(ctx, group_index);
  return true;
}

void RecordRelease(const CpuWaitContext& ctx, const CpuWaiter& w, uint32_t fence, uint64_t observed,
                   int64_t interrupt_row) {
  ctx.run.Emit(events::CpuWaitReleased{.ts_ns = ctx.run.now,
                                       .thread_id = ctx.cpu.threads[w.thread].id,
                                       .fence_id = ctx.fences.fences[fence].id,
                                       .fence_value = w.value,
                                       .waiter_id = w.waiter_id,
                                       .interrupt_event = interrupt_row,
                                       .observed_value = observed});
}

}  // namespace

uint32_t BeginCpuWait(const CpuWaitContext& ctx, uint32_t thread,
                      const std::vector<uint32_t>& fences, const std::vector<uint64_t>& values,
                      WaitMode mode, bool* satisfied) {
  std::vector<WaitGroup>& groups = ctx.waiters.groups;
  const uint32_t group_index = static_cast<uint32_t>(groups.size());
  groups.emplace_back();
  groups.back().thread = thread;
  groups.back().mode = mode;
  *satisfied = false;
  for (size_t m = 0; m < fences.size(); ++m) {
    WaitGroup& g = groups[group_index];
    if (g.done) break;  // wait-any already satisfied by an earlier member
    const uint32_t fence = fences[m];
    const FenceState& f = ctx.fences.fences[fence];
    CpuWaiter w{ctx.waiters.next_waiter_id++, values[m], thread, group_index};
    g.members.push_back(w.waiter_id);
    g.member_fences.push_back(fence);
    ++g.pending;
    ctx.run.Emit(events::CpuWaitBegin{.ts_ns = ctx.run.now,
                                      .thread_id = ctx.cpu.threads[thread].id,
                                      .fence_id = f.id,
                                      .fence_value = w.value,
                                      .waiter_id = w.waiter_id,
                                      .group_id = group_index,
                                      .wait_mode = static_cast<uint32_t>(mode)});
    if (f.current >= w.value) {
      // SetEventOnCompletion on a value already reached: the event is set at once.
      RecordRelease(ctx, w, fence, f.current, 0);
      if (MemberReleased(ctx, group_index, w.waiter_id)) *satisfied = true;
      continue;
    }
    ctx.waiters.per_fence[fence].push_back(w);
    UpdateMonitoredValue(ctx, fence);
  }
  return group_index;
}

uint32_t ReleaseCpuWaiters(const CpuWaitContext& ctx, uint32_t fence, uint64_t observed,
                           int64_t interrupt_row) {
  uint32_t released = 0;
  std::vector<CpuWaiter>& list = ctx.waiters.per_fence[fence];
  // Release in the order the waits began, so wait-any groups resolve deterministically.
  for (size_t i = 0; i < list.size();) {
    const CpuWaiter w = list[i];
    if (w.value > observed) {
      ++i;
      continue;
    }
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    RecordRelease(ctx, w, fence, observed, interrupt_row);
    ++released;
    if (MemberReleased(ctx, w.group, w.waiter_id)) WakeThread(ctx.run, ctx.cpu, w.thread);
    // WithdrawRest may have removed later waiters of this fence: rescan from the start.
    i = 0;
  }
  UpdateMonitoredValue(ctx, fence);
  return released;
}

}  // namespace core::sim
