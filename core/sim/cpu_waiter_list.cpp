// seed 003: the OS's list of outstanding CPU waiters per fence, and the MonitoredValue that the
// GPU compares new fence values against to decide whether to interrupt.
#include <algorithm>

#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::EventKind;

void UpdateMonitoredValue(Sim& sim, uint32_t fence) {
  FenceState& f = sim.fences[fence];
  if (!f.tracks_monitored) return;
  // seed 003: MonitoredValue = least currently waited value - 1; UINT64_MAX with no waiter.
  uint64_t least = core::model::kNoWaiterMonitoredValue;
  for (const CpuWaiter& w : f.cpu_waiters) least = std::min(least, w.value);
  const uint64_t monitored = f.cpu_waiters.empty() ? core::model::kNoWaiterMonitoredValue
                                                   : least - 1;
  if (monitored == f.monitored) return;
  f.monitored = monitored;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::MonitoredValueUpdated;
  e.fence = f.id;
  e.value = monitored;
  e.arg0 = sim.adapter_ids[f.owner];
  sim.Emit(e);
}

namespace {

// A wait-any group whose first member was released: the other members leave the waiter list.
void WithdrawRest(Sim& sim, uint32_t group_index) {
  WaitGroup& g = sim.groups[group_index];
  for (size_t m = 0; m < g.members.size(); ++m) {
    const uint32_t fence = g.member_fences[m];
    FenceState& f = sim.fences[fence];
    auto it = std::find_if(f.cpu_waiters.begin(), f.cpu_waiters.end(),
                           [&](const CpuWaiter& w) { return w.waiter_id == g.members[m]; });
    if (it == f.cpu_waiters.end()) continue;
    EventRecord e;
    e.ts = sim.now;
    e.kind = EventKind::CpuWaitWithdrawn;
    e.thread = sim.threads[g.thread].id;
    e.fence = f.id;
    e.value = it->value;
    e.op = it->waiter_id;
    e.arg0 = group_index;
    e.arg1 = g.members[static_cast<size_t>(g.satisfied_member)];
    sim.Emit(e);
    f.cpu_waiters.erase(it);
    UpdateMonitoredValue(sim, fence);
  }
}

// A member of a group was released; returns true when the group is now complete.
bool MemberReleased(Sim& sim, uint32_t group_index, int64_t waiter_id) {
  WaitGroup& g = sim.groups[group_index];
  if (g.done) return false;
  if (g.pending > 0) --g.pending;
  if (g.satisfied_member < 0) {
    for (size_t m = 0; m < g.members.size(); ++m) {
      if (g.members[m] == waiter_id) g.satisfied_member = static_cast<int32_t>(m);
    }
  }
  if (g.mode == WaitMode::kAll && g.pending > 0) return false;
  g.done = true;
  if (g.mode == WaitMode::kAny) WithdrawRest(sim, group_index);
  return true;
}

void RecordRelease(Sim& sim, const CpuWaiter& w, uint32_t fence, uint64_t observed,
                   int64_t interrupt_row) {
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::CpuWaitReleased;
  e.thread = sim.threads[w.thread].id;
  e.fence = sim.fences[fence].id;
  e.value = w.value;
  e.op = w.waiter_id;
  e.arg0 = interrupt_row;
  e.arg1 = static_cast<int64_t>(observed);
  sim.Emit(e);
}

}  // namespace

uint32_t BeginCpuWait(Sim& sim, uint32_t thread, const std::vector<uint32_t>& fences,
                      const std::vector<uint64_t>& values, WaitMode mode, bool* satisfied) {
  const uint32_t group_index = static_cast<uint32_t>(sim.groups.size());
  sim.groups.emplace_back();
  sim.groups.back().thread = thread;
  sim.groups.back().mode = mode;
  *satisfied = false;
  for (size_t m = 0; m < fences.size(); ++m) {
    WaitGroup& g = sim.groups[group_index];
    if (g.done) break;  // wait-any already satisfied by an earlier member
    const uint32_t fence = fences[m];
    FenceState& f = sim.fences[fence];
    CpuWaiter w{sim.next_waiter_id++, values[m], thread, group_index};
    g.members.push_back(w.waiter_id);
    g.member_fences.push_back(fence);
    ++g.pending;
    EventRecord e;
    e.ts = sim.now;
    e.kind = EventKind::CpuWaitBegin;
    e.thread = sim.threads[thread].id;
    e.fence = f.id;
    e.value = w.value;
    e.op = w.waiter_id;
    e.arg0 = group_index;
    e.flags = static_cast<uint32_t>(mode);
    sim.Emit(e);
    if (f.current >= w.value) {
      // SetEventOnCompletion on a value already reached: the event is set at once.
      RecordRelease(sim, w, fence, f.current, 0);
      if (MemberReleased(sim, group_index, w.waiter_id)) *satisfied = true;
      continue;
    }
    f.cpu_waiters.push_back(w);
    UpdateMonitoredValue(sim, fence);
  }
  return group_index;
}

uint32_t ReleaseCpuWaiters(Sim& sim, uint32_t fence, uint64_t observed, int64_t interrupt_row) {
  uint32_t released = 0;
  FenceState& f = sim.fences[fence];
  // Release in the order the waits began, so wait-any groups resolve deterministically.
  for (size_t i = 0; i < f.cpu_waiters.size();) {
    const CpuWaiter w = f.cpu_waiters[i];
    if (w.value > observed) {
      ++i;
      continue;
    }
    f.cpu_waiters.erase(f.cpu_waiters.begin() + static_cast<std::ptrdiff_t>(i));
    RecordRelease(sim, w, fence, observed, interrupt_row);
    ++released;
    if (MemberReleased(sim, w.group, w.waiter_id)) WakeThread(sim, w.thread);
    // WithdrawRest may have removed later waiters of this fence: rescan from the start.
    i = 0;
  }
  UpdateMonitoredValue(sim, fence);
  return released;
}

}  // namespace core::sim
