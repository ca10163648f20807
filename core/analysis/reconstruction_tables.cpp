#include "core/analysis/reconstruction_tables.h"

namespace core::analysis {
namespace {

// Heap bytes of a plain vector (its capacity) or of a packed column / table.
template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
template <typename Packed>
size_t Bytes(const Packed& packed) {
  return packed.HeapBytes();
}

// Packs one plain vector and frees it.
template <typename T>
void PackInto(std::vector<T>& plain, PackedTable<T>& packed) {
  packed.Assign(plain);
  std::vector<T>().swap(plain);
}
void PackInto(std::vector<uint32_t>& plain, IndexList& packed) {
  packed.Assign(plain);
  std::vector<uint32_t>().swap(plain);
}

}  // namespace

void PackReconstruction(Boxes& boxes, std::vector<PlainQueueTrack>& queues,
                        std::vector<PlainThreadTrack>& threads, Reconstruction& out) {
  PackInto(boxes.packets, out.packets);
  PackInto(boxes.signals, out.signals);
  PackInto(boxes.waits, out.waits);
  PackInto(boxes.cpu_waits, out.cpu_waits);
  PackInto(boxes.interrupts, out.interrupts);
  PackInto(boxes.tasks, out.tasks);
  PackInto(boxes.mode_changes, out.mode_changes);
  PackInto(boxes.preemptions, out.preemptions);
  PackInto(boxes.tdrs, out.tdrs);
  out.queues.resize(queues.size());
  for (size_t q = 0; q < queues.size(); ++q) {
    PlainQueueTrack& plain = queues[q];
    QueueTrack& track = out.queues[q];
    track.id = static_cast<QueueId>(q);
    PackInto(plain.packets, track.packets);
    PackInto(plain.segments, track.segments);
    PackInto(plain.signals, track.signals);
    PackInto(plain.waits, track.waits);
    PackInto(plain.interrupts, track.interrupts);
    PackInto(plain.missing, track.missing);
    PackInto(plain.preemptions, track.preemptions);
    PackInto(plain.tdrs, track.tdrs);
  }
  out.threads.resize(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) {
    PlainThreadTrack& plain = threads[t];
    ThreadTrack& track = out.threads[t];
    track.id = static_cast<ThreadId>(t);
    PackInto(plain.cpu_waits, track.cpu_waits);
    PackInto(plain.cpu_signals, track.cpu_signals);
    PackInto(plain.submissions, track.submissions);
    PackInto(plain.tasks, track.tasks);
  }
}

size_t Reconstruction::HeapBytes() const {
  size_t bytes = Bytes(packets) + Bytes(signals) + Bytes(waits) + Bytes(cpu_waits) +
                 Bytes(interrupts) + Bytes(tasks) + Bytes(mode_changes) + Bytes(preemptions) +
                 Bytes(tdrs) + Bytes(queues) + Bytes(threads) + Bytes(problems);
  for (const auto& q : queues) {
    bytes += Bytes(q.packets) + Bytes(q.segments) + Bytes(q.signals) + Bytes(q.waits) +
             Bytes(q.interrupts) + Bytes(q.missing) + Bytes(q.preemptions) + Bytes(q.tdrs);
  }
  for (const auto& t : threads) {
    bytes += Bytes(t.cpu_waits) + Bytes(t.cpu_signals) + Bytes(t.submissions) + Bytes(t.tasks);
  }
  return bytes;
}

uint64_t Reconstruction::Problem(const std::string& name) const {
  for (const LinkProblem& p : problems) {
    if (p.name == name) return p.count;
  }
  return 0;
}

}  // namespace core::analysis
