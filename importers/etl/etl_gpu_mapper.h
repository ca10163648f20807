// Maps decoded DxgKrnl events (in time order) onto fencescope's model the way GPUView shows them.
//
//   CPU thread   QueuePacket Start ──────────────────────────── QueuePacket Stop
//   context SW   [ packet queued ....... | on hardware ......... ]            (software queue)
//   node HW                          DmaPacket Start ── running ── DmaPacket Info (interrupt)
//                                        ^ linked by (hContext, SubmitSequence)
//
// * One software queue per hContext (queues.type = software): packet_submitted at QueuePacket
//   Start (178 render & co, 244 wait, 245 signal packets), packet_started when its DMA packet is
//   handed to the hardware (DmaPacket Start with the same hContext and ulQueueSubmitSequence),
//   packet_completed at QueuePacket Stop (180).
// * One hardware queue per GPU node. The capture has no Context/NodeMetadata events naming
//   nodes, so nodes are inferred: uliSubmissionId is a per-node, increasing fence, and contexts
//   whose submission-id ranges interleave share a node; the node's ordinal comes from
//   SelectContext (23) NodeOrdinal of its contexts (both agree on the sample). Engine types are
//   unknown ('other').
//   DMA packets: packet_submitted at DmaPacket Start, packet_started when the previous packet of
//   the node completed (the head of the node's FIFO runs, as GPUView draws it), packet_completed
//   and an interrupt (interrupt_type dma_completion) at DmaPacket Info with InterruptType 1;
//   InterruptType 2 (preempted) gives packet_preempted; the packet's resubmission (a new
//   DmaPacket Start with the same hContext and sequence) continues it: packet_resumed when it
//   reaches the head of the node, then packet_completed under the same packet id.
// * Fences: one per sync-object handle (monitored when it appears in a FromGpu/FromCpu/UnwaitCpu
//   event). Signal packets (245, or 245 without objects followed by the
//   SignalSynchronizationObject2 call that names them) queue fence_signal_queued on the context's
//   software queue; execution is SignalSynchronizationObjectFromGpu (294) for the same (object,
//   value), else the signal packet's retirement, else (signal calls whose packet is not in the
//   capture) the moment a wait on that fence is released by it (counted as inferred), else,
//   when signals queued after it on its queue executed, the first of those (queue order,
//   counted as inferred). Wait packets
//   (244) give fence_wait_queued, and fence_wait_unblocked at UnwaitQueuePacket (238) with
//   wait_path 1: the OS held the wait on the CPU (monitored fences, no native GPU waits in
//   WDDM 2.x), released_by_signal_id = the signal op that satisfied it. 231/295 are the API calls
//   behind 244 packets and are merged.
// * CPU waits: WaitForSynchronizationObjectFromCpu (297) -> cpu_wait_begin per object,
//   UnwaitCpuWaiter (300) -> cpu_wait_released for the waiter on the same (object, value).
// * VSyncDPC -> marker (marker_type vsync) at FrameQPCTime; Present -> marker (present).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/etl/dxgkrnl_decoder.h"

namespace importers::etl {

struct TimedDxgEvent {
  int64_t ts_ns = 0;
  uint32_t process_id = 0;
  uint32_t thread_id = 0;
  DxgEvent event;
};

// Named counts the mapper found (linking statistics and problems), reported by the importer.
struct GpuMapperCounts {
  uint64_t queue_packets = 0;            // software-queue packets submitted
  uint64_t queue_packets_completed = 0;  // of which retired in the capture
  uint64_t render_packets = 0;           // QueuePacket Start 178 (not wait/signal packets)
  uint64_t render_packets_completed = 0; // of which matched by a Stop on (hContext, sequence)
  uint64_t stop_without_start = 0;       // QueuePacket Stop for a packet queued before the capture
  uint64_t completed_without_dma = 0;    // retired packets that never had a DMA packet
  uint64_t dma_packets = 0;
  uint64_t dma_completed = 0;
  uint64_t dma_preempted = 0;
  uint64_t dma_resumed = 0;              // preempted packets resubmitted (same hContext, sequence)
  uint64_t dma_linked = 0;               // DMA packets whose (context, sequence) names a queue packet
  uint64_t dma_info_without_start = 0;
  uint64_t dma_out_of_order = 0;         // completions that were not the head of their node FIFO
  uint64_t signals_queued = 0;
  uint64_t signal_calls_merged = 0;      // 230 objects already queued by their 245 packets
  uint64_t signals_executed = 0;
  uint64_t signal_from_gpu_calls_merged = 0;    // 294 calls behind signal packets already queued
  uint64_t signals_from_gpu_without_packet = 0;  // 294 calls whose signal packet is not captured
  uint64_t signals_inferred_from_unwait = 0;
  uint64_t signals_executed_by_queue_order = 0;  // no execution event; later ones of its queue ran
  uint64_t signals_never_executed = 0;
  uint64_t waits_queued = 0;
  uint64_t waits_unblocked = 0;
  uint64_t waits_linked_to_signal = 0;   // unblocked with a known releasing signal op
  uint64_t waits_unblocked_at_retire = 0;
  uint64_t waits_pending_at_end = 0;
  uint64_t wait_calls_merged = 0;        // 231/295 merged into their 244 wait packet
  uint64_t wait_calls_without_packet = 0;
  uint64_t cpu_waits = 0;
  uint64_t cpu_waits_released = 0;
  uint64_t cpu_unwaits_without_wait = 0;
  uint64_t vsyncs = 0;
  uint64_t presents = 0;
  uint64_t nodes = 0;
  uint64_t nodes_with_ordinal = 0;       // nodes whose ordinal SelectContext gave
  uint64_t node_ordinal_conflicts = 0;   // groups whose contexts SelectContext puts on several nodes
};

class EtlGpuMapper {
 public:
  // `perf_freq`: QPC ticks per second, to place VSyncDPC markers at their FrameQPCTime.
  EtlGpuMapper(core::store::TraceWriter& writer, int64_t perf_freq);

  // The image name of process `pid` (from process rundown or start events), before Prepare.
  void NameProcess(uint32_t pid, std::string image) { m_process_names[pid] = std::move(image); }
  // Sees every event once before mapping (any order): node inference, fence kinds, context
  // owners, so that the topology tables are complete and stable.
  void Prepare(const std::vector<TimedDxgEvent>& events);
  // Maps one event; call in non-decreasing ts_ns order.
  void Map(const TimedDxgEvent& e);
  // A text marker (string-marker providers) on the thread that wrote it. Its text is interned
  // when written (ResolveText), so that string inserts count as writing, not decoding: until
  // then the marker's name_sid holds the index of its text in the marker texts.
  void AddTextMarker(int64_t ts_ns, uint32_t pid, uint32_t tid, std::string_view text);
  // Interns a deferred marker text and puts its string id into the record.
  void ResolveText(core::store::EventRecord& record);
  // Closes what is still open at `end_ns` (waits pending at the end).
  void Finish(int64_t end_ns);

  std::vector<core::store::EventRecord>& records() { return m_records; }
  const GpuMapperCounts& counts() const { return m_counts; }

 private:
  struct SwPacket {
    int64_t op = 0;
    uint32_t queue = 0;
    bool started = false;
    bool done = false;
    int64_t wait_op = 0;               // wait packets: their fence wait
    std::vector<int64_t> signal_ops;   // signal packets: their fence signals
    int64_t ts = 0;
    uint32_t tid = 0;
    bool objects_pending = false;      // 245 without objects, waiting for its 230 call
    bool render = false;               // a QueuePacket Start 178 packet
  };
  struct Context {
    uint32_t queue = 0;     // software queue
    uint32_t context = 0;   // contexts.id
    int node = -1;          // index into m_nodes, -1 when it never reached the hardware
  };
  struct DmaPacket {
    int64_t op = 0;
    uint64_t submission_id = 0;
    bool started = false;
    bool resumes = false;  // the resubmission of a preempted packet (same op)
  };
  struct Node {
    uint32_t engine = 0;
    std::string name;  // the engine's name ("node 0")
    uint32_t queue = 0;
    std::deque<DmaPacket> fifo;  // submitted, not completed, in submission order
  };
  enum class OpKind : uint8_t { kSignal, kGpuWait, kCpuWait };
  struct FenceOp {
    int64_t op = 0;
    OpKind kind = OpKind::kSignal;
    uint64_t handle = 0;
    uint32_t fence = 0;
    uint64_t value = 0;
    uint32_t queue = 0;
    uint32_t thread = 0;
    int64_t queued_ts = 0;
    bool done = false;
    // Signals: when, and which record of m_records, executed it (kNoRecord: not executed).
    int64_t executed_ts = 0;
    size_t executed_record = kNoRecord;
  };
  static constexpr size_t kNoRecord = SIZE_MAX;
  struct FenceState {
    uint32_t id = 0;
    uint64_t current = 0;        // last executed value
    int64_t last_signal_op = 0;  // op of the signal that wrote `current`
    std::vector<size_t> writes;  // its fence_signal_executed records in m_records, in order
  };

  uint32_t Thread(uint32_t pid, uint32_t tid);
  uint32_t PacketName(bool dma, uint32_t packet_type);
  FenceOp& NewOp(OpKind kind, const SyncPair& pair, uint32_t queue, uint32_t thread);
  uint32_t Process(uint32_t pid);
  // "image (pid N)" when the capture names the process, else "pid N".
  std::string ProcessLabel(uint32_t pid) const;
  Context& ContextFor(uint64_t handle, uint32_t pid);
  FenceState& Fence(uint64_t handle);
  template <core::model::events::TypedEvent E>
  void Emit(const E& event) {
    m_records.push_back(event.Record());
  }

  void OnQueuePacketStart(const TimedDxgEvent& e);
  void OnQueuePacketStop(const TimedDxgEvent& e);
  void OnSignalCall(const TimedDxgEvent& e);
  void OnSignalFromGpu(const TimedDxgEvent& e);
  bool QueuedByThisThread(const SyncPair& pair, uint32_t thread, int64_t ts) const;
  void OnWaitCall(const TimedDxgEvent& e);
  void OnUnwaitQueuePacket(const TimedDxgEvent& e);
  void OnDmaStart(const TimedDxgEvent& e);
  void OnDmaInfo(const TimedDxgEvent& e);
  void OnCpuWait(const TimedDxgEvent& e);
  void OnCpuUnwait(const TimedDxgEvent& e);
  void QueueSignal(int64_t ts, SwPacket* packet, uint32_t queue, uint32_t thread,
                   const SyncPair& pair);
  void ExecuteSignal(int64_t ts, FenceOp& op);
  // Signals of a queue left unexecuted while later signals of that queue executed (seed 001:
  // a queue's Signal runs only after all earlier work on the queue): placed at the first of
  // those executions, counted as signals_executed_by_queue_order.
  void InferSignalsSkippedInQueueOrder();
  void UnblockWait(int64_t ts, FenceOp& wait);
  // The head of the node's FIFO runs: packet_started, or packet_resumed for a resubmission.
  void StartNextDma(Node& node, int64_t ts);
  void RunDma(const Node& node, DmaPacket& dma, int64_t ts);

  core::store::TraceWriter& m_writer;
  uint32_t m_adapter = 0;
  std::vector<Node> m_nodes;
  std::unordered_map<uint64_t, int> m_context_node;   // hContext -> node (from Prepare)
  std::unordered_map<uint64_t, uint32_t> m_context_pid;
  std::unordered_map<uint64_t, bool> m_monitored;     // sync objects seen in monitored events
  std::unordered_map<uint64_t, Context> m_contexts;
  std::unordered_map<uint64_t, FenceState> m_fences;
  std::unordered_map<uint32_t, uint32_t> m_processes;
  std::unordered_map<uint32_t, std::string> m_process_names;  // pid -> image name
  std::unordered_map<uint64_t, uint32_t> m_threads;   // (pid << 32 | tid) -> threads.id
  std::map<std::pair<uint64_t, uint32_t>, SwPacket> m_packets;  // (hContext, SubmitSequence)
  std::unordered_map<uint64_t, std::pair<uint64_t, uint32_t>> m_by_queue_packet;
  std::set<std::pair<uint64_t, uint32_t>> m_dma_sequences;  // (hContext, sequence) sent to a node
  std::map<std::pair<uint64_t, uint32_t>, int64_t> m_preempted;  // (hContext, sequence) -> op
  std::unordered_map<uint64_t, std::pair<uint64_t, uint32_t>> m_signal_without_objects;  // ctx
  std::vector<FenceOp> m_ops;  // fence operations, index = op - 1
  std::map<std::pair<uint64_t, uint64_t>, std::deque<int64_t>> m_pending_signals;
  std::map<std::pair<uint64_t, uint64_t>, std::deque<int64_t>> m_pending_cpu_waits;
  std::map<std::pair<uint64_t, uint64_t>, std::deque<std::pair<uint64_t, int64_t>>> m_recent_waits;
  std::unordered_map<uint64_t, uint32_t> m_names;      // (dma << 32 | packet type) -> sid
  std::unordered_map<uint32_t, uint32_t> m_vsync_names;  // VidPnTargetId -> sid
  int64_t m_perf_freq = 0;
  int64_t m_now = 0;  // ts_ns of the event being mapped
  std::vector<std::string_view> m_marker_texts;  // views into the input bytes
  int64_t m_cpu_wait_calls = 0;
  int64_t m_next_packet = 1;
  std::vector<core::store::EventRecord> m_records;
  GpuMapperCounts m_counts;
  uint32_t m_present_name = 0;
};

}  // namespace importers::etl
