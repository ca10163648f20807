// Decodes Microsoft-Windows-DxgKrnl event payloads by (event id, version).
//
// Layouts: shared/guide/trace-formats.md section 2.2 (every size below was checked against the
// gpuvis SteamVR capture: each event of an id/version has exactly the size its layout implies,
// array lengths taken from their count fields). Packed little-endian; `ptr` is the event's pointer
// size (8 on x64). BOOLs are 4 bytes (win:Boolean). A payload whose size differs from what its
// layout and counts imply is refused (kBadSize), never half-read.
//
//   id  ver  name                                   payload
//   178  1   QueuePacket Start (render/other)       ptr hContext, u32 PacketType, u32 SubmitSequence,
//                                                   u64 DmaBufferSize, u32 AllocationListSize,
//                                                   u32 PatchLocationListSize, BOOL bPresent,
//                                                   ptr hDmaBuffer, ptr pQueuePacket, u64 ProgressFenceValue
//   244  1   QueuePacket Start, wait packet         ptr hContext, u32 SubmitSequence, u32 Flags,
//                                                   ptr hSyncObject, u64 FenceValue, ptr pQueuePacket
//   245  2   QueuePacket Start, signal packet       ptr hContext, u32 SubmitSequence, u32 Flags,
//                                                   u32 ObjectCount, ptr[n] objects, u64[n] values,
//                                                   ptr pQueuePacket
//   179  0   QueuePacket Info                       ptr hContext, u32 PacketType, u32 SubmitSequence
//   180  1   QueuePacket Stop                       ptr hContext, u32 PacketType, u32 SubmitSequence,
//                                                   BOOL bPreempted, BOOL bTimeouted, ptr pQueuePacket
//   238  0   UnwaitQueuePacket                      ptr pQueuePacket, ptr hContext
//   175  1   DmaPacket Start                        ptr hContext, ptr hQueuePacketContext, u32 PacketType,
//                                                   u64 uliSubmissionId, u32 ulQueueSubmitSequence,
//                                                   ptr pDmaBuffer, u32 QuantumStatus
//   177  1   DmaPacket Info (completion interrupt)  ptr hContext, u32 PacketType, u64 uliCompletionId,
//                                                   u32 ulQueueSubmitSequence, u32 InterruptType,
//                                                   u32 QuantumStatus, u64 FaultedVirtualAddress,
//                                                   u32 PageFaultFlags, ptr FaultedProcessHandle
//   176  0   DmaPacket Stop                         ptr hContext, u32 PacketType, u64 uliCompletionId,
//                                                   u32 ulQueueSubmitSequence, BOOL bPreempted
//    17  0   VSyncDPC                               ptr pDxgAdapter, u32 VidPnTargetId, u64 ScannedPhysicalAddress,
//                                                   u32 VidPnSourceId, u32 FrameNumber, i64 FrameQPCTime,
//                                                   ptr hFlipDevice, u32 FlipType, u64 FlipFenceId
//    23  0   SelectContext                          ptr pDxgAdapter, ptr hContext, u32 NodeOrdinal,
//                                                   u32 ReadyContextPriorityMapBits,
//                                                   u64 ReadyNodeSwMapBits, u64 ReadyNodeHwMapBits
//   181  0   VSyncInterrupt                         ptr pDxgAdapter, u32 VidPnTargetId, u64 ScannedPhysicalAddress
//   184  0   Present                                u32 hContext, ptr hWindow, u32 VidPnSourceId, u32 Flags,
//                                                   u32 ReturnStatus, ptr hSrcAlloc, ptr hDstAlloc
//   184  1   Present                                as version 0 with u32 FlipInterval after VidPnSourceId
//   230  0   SignalSynchronizationObject2           u32 ContextCount, ptr[c] contexts, u32 ObjectCount,
//                                                   ptr[n] objects, u32 Flags, u64[n] values
//   231  0   WaitForSynchronizationObject2          ptr hContext, u32 ObjectCount, ptr[n], u64[n]
//   294  0   SignalSynchronizationObjectFromGpu     u32 ContextCount, ptr[c] contexts, u32 Flags,
//                                                   u32 ObjectCount, ptr[n] objects, u64[n] values
//   295  0   WaitForSynchronizationObjectFromGpu    ptr hContext, u32 ObjectCount, ptr[n], u64[n]
//   297  0   WaitForSynchronizationObjectFromCpu    ptr hDevice, u32 ObjectCount, ptr[n], u64[n],
//                                                   ptr hAsyncEvent, u32 Flags
//   300  0   UnwaitCpuWaiter                        ptr Event, u32 WaitConditionCount, u64[n] values,
//                                                   ptr[n] objects, u32 Flags
//   100  0   WaitForSynchronizationObject (older)   ptr hContext, u32 ObjectCount, ptr[n], u64 FenceValue
//   101  0   SignalSynchronizationObject (older)    ptr hContext, u32 ObjectCount, ptr[n], u32 Flags,
//                                                   u64 FenceValue   (100/101: guide layout, not in
//                                                   the sample, so unverified)
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace importers::etl {

inline constexpr std::string_view kDxgKrnlProvider = "802ec45a-1e99-4b83-9920-87c98277ba9d";

enum class DxgEventType : uint8_t {
  kQueuePacketStart,   // 178
  kWaitPacketStart,    // 244
  kSignalPacketStart,  // 245
  kQueuePacketInfo,    // 179
  kQueuePacketStop,    // 180
  kUnwaitQueuePacket,  // 238
  kDmaPacketStart,     // 175
  kDmaPacketInfo,      // 177
  kDmaPacketStop,      // 176
  kVSyncDpc,           // 17
  kVSyncInterrupt,     // 181
  kPresent,            // 184
  kSignalSyncObject2,  // 230 and 101
  kWaitSyncObject2,    // 231 and 100
  kSignalFromGpu,      // 294
  kWaitFromGpu,        // 295
  kWaitFromCpu,        // 297
  kUnwaitCpuWaiter,    // 300
  kSelectContext,      // 23: the scheduler picked a context to run on node NodeOrdinal
};

// A (sync object, fence value) pair as the events carry it.
struct SyncPair {
  uint64_t object = 0;
  uint64_t value = 0;
};

// The decoded fields of one DxgKrnl event. Which fields are set depends on `type` (see the
// table in the file comment); unused ones stay zero / empty.
struct DxgEvent {
  DxgEventType type = DxgEventType::kQueuePacketStart;
  uint64_t context = 0;          // hContext (or hDevice for 297, Event for 300)
  uint64_t queue_context = 0;    // DmaPacket Start hQueuePacketContext
  uint32_t packet_type = 0;      // DXGKETW_QUEUE_PACKET_TYPE (kept when unknown)
  uint32_t sequence = 0;         // SubmitSequence / ulQueueSubmitSequence
  uint64_t submission_id = 0;    // uliSubmissionId / uliCompletionId
  uint64_t queue_packet = 0;     // pQueuePacket
  uint32_t flags = 0;
  uint32_t interrupt_type = 0;   // DmaPacket Info InterruptType
  bool present = false;          // bPresent
  bool preempted = false;        // bPreempted
  bool timed_out = false;        // bTimeouted
  uint64_t adapter = 0;          // pDxgAdapter
  uint32_t node_ordinal = 0;     // SelectContext NodeOrdinal
  uint32_t vidpn_target = 0;
  uint32_t vidpn_source = 0;
  uint32_t frame_number = 0;
  int64_t frame_qpc = 0;         // VSyncDPC FrameQPCTime
  uint64_t async_event = 0;      // 297 hAsyncEvent
  std::vector<uint64_t> contexts;  // 230 / 294 context lists
  std::vector<SyncPair> objects;   // sync objects and fence values
};

enum class DecodeStatus : uint8_t {
  kDecoded,
  kNotDecoded,  // an id/version this decoder does not know (counted by the caller)
  kBadSize,     // known id/version, but the payload size does not match its layout
};

// True for the ids DecodeDxgKrnl has a layout for (at some version).
bool IsDecodedDxgKrnlId(uint16_t id);

// Decodes `payload` of DxgKrnl event (`id`, `version`) with `pointer_size`-byte pointers.
DecodeStatus DecodeDxgKrnl(uint16_t id, uint8_t version, uint8_t pointer_size,
                           std::string_view payload, DxgEvent* out);

// Name of a DxgKrnl event id (from the provider manifest as listed in the guide), or "" when
// this importer has no name for it.
std::string_view DxgKrnlEventName(uint16_t id);

// Name of a DXGKETW_QUEUE_PACKET_TYPE value ("packet type N" style text is the caller's job for
// values outside the enum, which real captures contain).
std::string_view QueuePacketTypeName(uint32_t type);

}  // namespace importers::etl
