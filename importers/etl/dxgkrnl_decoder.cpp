#include "importers/etl/dxgkrnl_decoder.h"

#include <cstring>

namespace importers::etl {
namespace {

// Sequential little-endian reader over one payload. Any read past the end marks it failed; the
// decoder then reports kBadSize instead of using the fields.
class Cursor {
 public:
  Cursor(std::string_view bytes, uint8_t pointer_size) : m_bytes(bytes), m_ptr(pointer_size) {}

  uint32_t U32() { return static_cast<uint32_t>(Read(4)); }
  uint64_t U64() { return Read(8); }
  uint64_t Ptr() { return Read(m_ptr); }
  bool Bool() { return U32() != 0; }  // win:Boolean is a 4-byte BOOL

  // A count that must leave room for `bytes_per_item` bytes per item in what is left.
  uint32_t Count(uint32_t bytes_per_item) {
    uint32_t n = U32();
    if (static_cast<uint64_t>(n) * bytes_per_item > m_bytes.size() - m_pos) m_failed = true;
    return m_failed ? 0 : n;
  }
  uint8_t pointer_size() const { return m_ptr; }
  // True when every byte was consumed and no read ran past the end.
  bool Exact() const { return !m_failed && m_pos == m_bytes.size(); }

 private:
  uint64_t Read(size_t n) {
    if (m_failed || m_pos + n > m_bytes.size()) {
      m_failed = true;
      return 0;
    }
    uint64_t v = 0;
    std::memcpy(&v, m_bytes.data() + m_pos, n);  // little-endian host
    m_pos += n;
    return v;
  }

  std::string_view m_bytes;
  size_t m_pos = 0;
  uint8_t m_ptr;
  bool m_failed = false;
};

void ReadObjects(Cursor& c, uint32_t n, DxgEvent* out) {
  out->objects.resize(n);
  for (auto& o : out->objects) o.object = c.Ptr();
  for (auto& o : out->objects) o.value = c.U64();
}

void ReadContexts(Cursor& c, DxgEvent* out) {
  uint32_t n = c.Count(c.pointer_size());
  out->contexts.resize(n);
  for (auto& ctx : out->contexts) ctx = c.Ptr();
}

// QueuePacket Start / Info / Stop (the wait and signal packets too) and UnwaitQueuePacket.
bool DecodeQueuePacket(uint16_t id, uint8_t version, Cursor& c, DxgEvent* out) {
  const uint32_t pair = c.pointer_size() + 8;  // one object handle + one u64 fence value
  switch (id) {
    case 178:
      if (version != 1) return false;
      out->type = DxgEventType::kQueuePacketStart;
      out->context = c.Ptr();
      out->packet_type = c.U32();
      out->sequence = c.U32();
      c.U64();  // DmaBufferSize
      c.U32();  // AllocationListSize
      c.U32();  // PatchLocationListSize
      out->present = c.Bool();
      c.Ptr();  // hDmaBuffer
      out->queue_packet = c.Ptr();
      c.U64();  // ProgressFenceValue
      break;
    case 244:
      if (version != 1) return false;
      out->type = DxgEventType::kWaitPacketStart;
      out->packet_type = 4;  // wait packet
      out->context = c.Ptr();
      out->sequence = c.U32();
      out->flags = c.U32();
      out->objects.resize(1);
      out->objects[0].object = c.Ptr();
      out->objects[0].value = c.U64();
      out->queue_packet = c.Ptr();
      break;
    case 245: {
      if (version != 2) return false;
      out->type = DxgEventType::kSignalPacketStart;
      out->packet_type = 5;  // signal packet
      out->context = c.Ptr();
      out->sequence = c.U32();
      out->flags = c.U32();
      ReadObjects(c, c.Count(pair), out);
      out->queue_packet = c.Ptr();
      break;
    }
    case 179:
      if (version != 0) return false;
      out->type = DxgEventType::kQueuePacketInfo;
      out->context = c.Ptr();
      out->packet_type = c.U32();
      out->sequence = c.U32();
      break;
    case 180:
      if (version != 1) return false;
      out->type = DxgEventType::kQueuePacketStop;
      out->context = c.Ptr();
      out->packet_type = c.U32();
      out->sequence = c.U32();
      out->preempted = c.Bool();
      out->timed_out = c.Bool();
      out->queue_packet = c.Ptr();
      break;
    case 238:
      if (version != 0) return false;
      out->type = DxgEventType::kUnwaitQueuePacket;
      out->queue_packet = c.Ptr();
      out->context = c.Ptr();
      break;
    default:
      return false;
  }
  return true;
}

// DmaPacket Start / Info / Stop.
bool DecodeDmaPacket(uint16_t id, uint8_t version, Cursor& c, DxgEvent* out) {
  switch (id) {
    case 175:
      if (version != 1) return false;
      out->type = DxgEventType::kDmaPacketStart;
      out->context = c.Ptr();
      out->queue_context = c.Ptr();
      out->packet_type = c.U32();
      out->submission_id = c.U64();
      out->sequence = c.U32();
      c.Ptr();  // pDmaBuffer
      c.U32();  // QuantumStatus
      break;
    case 177:
      if (version != 1) return false;
      out->type = DxgEventType::kDmaPacketInfo;
      out->context = c.Ptr();
      out->packet_type = c.U32();
      out->submission_id = c.U64();
      out->sequence = c.U32();
      out->interrupt_type = c.U32();
      c.U32();  // QuantumStatus
      c.U64();  // FaultedVirtualAddress
      c.U32();  // PageFaultFlags
      c.Ptr();  // FaultedProcessHandle
      break;
    case 176:
      if (version != 0) return false;
      out->type = DxgEventType::kDmaPacketStop;
      out->context = c.Ptr();
      out->packet_type = c.U32();
      out->submission_id = c.U64();
      out->sequence = c.U32();
      out->preempted = c.Bool();
      break;
    default:
      return false;
  }
  return true;
}

// VSync, SelectContext and Present.
bool DecodeDisplay(uint16_t id, uint8_t version, Cursor& c, DxgEvent* out) {
  switch (id) {
    case 17:
      if (version != 0) return false;
      out->type = DxgEventType::kVSyncDpc;
      out->adapter = c.Ptr();
      out->vidpn_target = c.U32();
      c.U64();  // ScannedPhysicalAddress
      out->vidpn_source = c.U32();
      out->frame_number = c.U32();
      out->frame_qpc = static_cast<int64_t>(c.U64());
      c.Ptr();  // hFlipDevice
      out->flags = c.U32();  // FlipType
      c.U64();  // FlipFenceId
      break;
    case 23:
      if (version != 0) return false;
      out->type = DxgEventType::kSelectContext;
      out->adapter = c.Ptr();
      out->context = c.Ptr();
      out->node_ordinal = c.U32();
      c.U32();  // ReadyContextPriorityMapBits
      c.U64();  // ReadyNodeSwMapBits
      c.U64();  // ReadyNodeHwMapBits
      break;
    case 181:
      if (version != 0) return false;
      out->type = DxgEventType::kVSyncInterrupt;
      out->adapter = c.Ptr();
      out->vidpn_target = c.U32();
      c.U64();  // ScannedPhysicalAddress
      break;
    case 184:
      if (version > 1) return false;
      out->type = DxgEventType::kPresent;
      out->context = c.U32();  // hContext is a 32-bit handle here
      c.Ptr();                 // hWindow
      out->vidpn_source = c.U32();
      if (version == 1) c.U32();  // FlipInterval
      out->flags = c.U32();
      c.U32();  // ReturnStatus
      c.Ptr();  // hSrcAllocHandle
      c.Ptr();  // hDstAllocHandle
      break;
    default:
      return false;
  }
  return true;
}

// Synchronization object waits and signals (CPU, GPU and legacy).
bool DecodeSyncObject(uint16_t id, uint8_t version, Cursor& c, DxgEvent* out) {
  const uint8_t pointer_size = c.pointer_size();
  const uint32_t pair = c.pointer_size() + 8;  // one object handle + one u64 fence value
  switch (id) {
    case 230: {
      if (version != 0) return false;
      out->type = DxgEventType::kSignalSyncObject2;
      ReadContexts(c, out);
      uint32_t n = c.Count(pair);
      out->objects.resize(n);
      for (auto& o : out->objects) o.object = c.Ptr();
      out->flags = c.U32();
      for (auto& o : out->objects) o.value = c.U64();
      break;
    }
    case 294: {
      if (version != 0) return false;
      out->type = DxgEventType::kSignalFromGpu;
      ReadContexts(c, out);
      out->flags = c.U32();
      ReadObjects(c, c.Count(pair), out);
      break;
    }
    case 231:
    case 295:
      if (version != 0) return false;
      out->type = id == 231 ? DxgEventType::kWaitSyncObject2 : DxgEventType::kWaitFromGpu;
      out->context = c.Ptr();
      ReadObjects(c, c.Count(pair), out);
      break;
    case 297:
      if (version != 0) return false;
      out->type = DxgEventType::kWaitFromCpu;
      out->context = c.Ptr();  // hDevice
      ReadObjects(c, c.Count(pair), out);
      out->async_event = c.Ptr();
      out->flags = c.U32();
      break;
    case 300: {
      if (version != 0) return false;
      out->type = DxgEventType::kUnwaitCpuWaiter;
      out->context = c.Ptr();  // Event
      uint32_t n = c.Count(pair);
      out->objects.resize(n);
      for (auto& o : out->objects) o.value = c.U64();  // values first, then objects
      for (auto& o : out->objects) o.object = c.Ptr();
      out->flags = c.U32();
      break;
    }
    case 100:
    case 101: {
      if (version != 0) return false;
      out->type = id == 100 ? DxgEventType::kWaitSyncObject2 : DxgEventType::kSignalSyncObject2;
      out->context = c.Ptr();
      uint32_t n = c.Count(pointer_size);
      out->objects.resize(n);
      for (auto& o : out->objects) o.object = c.Ptr();
      if (id == 101) out->flags = c.U32();
      uint64_t value = c.U64();
      for (auto& o : out->objects) o.value = value;
      if (id == 101) out->contexts.assign(1, out->context);
      break;
    }
    default:
      return false;
  }
  return true;
}

}  // namespace

bool IsDecodedDxgKrnlId(uint16_t id) {
  switch (id) {
    case 17: case 23: case 100: case 101: case 175: case 176: case 177: case 178: case 179:
    case 180: case 181: case 184: case 230: case 231: case 238: case 244: case 245: case 294:
    case 295: case 297: case 300:
      return true;
    default:
      return false;
  }
}

DecodeStatus DecodeDxgKrnl(uint16_t id, uint8_t version, uint8_t pointer_size,
                           std::string_view payload, DxgEvent* out) {
  // Most records of a capture are ids without a decoder (profiler, memory events): leave early.
  if (!IsDecodedDxgKrnlId(id)) return DecodeStatus::kNotDecoded;
  *out = DxgEvent{};
  Cursor c(payload, pointer_size);
  // Each id belongs to one family; a family refuses (false) a version it does not know.
  const bool decoded = DecodeQueuePacket(id, version, c, out) ||
                       DecodeDmaPacket(id, version, c, out) || DecodeDisplay(id, version, c, out) ||
                       DecodeSyncObject(id, version, c, out);
  if (!decoded) return DecodeStatus::kNotDecoded;
  return c.Exact() ? DecodeStatus::kDecoded : DecodeStatus::kBadSize;
}

std::string_view DxgKrnlEventName(uint16_t id) {
  switch (id) {
    case 17: return "VSyncDPC";
    case 20: return "UpdateContextStatus";
    case 23: return "SelectContext";
    case 100: return "WaitForSynchronizationObject";
    case 101: return "SignalSynchronizationObject";
    case 105: return "Profiler Start";
    case 106: return "Profiler Stop";
    case 113: return "UpdateContextRunningTime";
    case 166: return "Blit";
    case 167: return "BlitRect";
    case 169: return "Render";
    case 172: return "PresentHistory Info";
    case 173: return "PresentHistory Stop";
    case 175: return "DmaPacket Start";
    case 176: return "DmaPacket Stop";
    case 177: return "DmaPacket Info";
    case 178: return "QueuePacket Start";
    case 179: return "QueuePacket Info";
    case 180: return "QueuePacket Stop";
    case 181: return "VSyncInterrupt";
    case 182: return "GetDeviceState";
    case 184: return "Present";
    case 215: return "PresentHistoryDetailed Start";
    case 230: return "SignalSynchronizationObject2";
    case 231: return "WaitForSynchronizationObject2";
    case 238: return "UnwaitQueuePacket";
    case 244: return "QueuePacket Start (wait packet)";
    case 245: return "QueuePacket Start (signal packet)";
    case 294: return "SignalSynchronizationObjectFromGpu";
    case 295: return "WaitForSynchronizationObjectFromGpu";
    case 297: return "WaitForSynchronizationObjectFromCpu";
    case 300: return "UnwaitCpuWaiter";
    default: return "";
  }
}

std::string_view QueuePacketTypeName(uint32_t type) {
  // DXGKETW_QUEUE_PACKET_TYPE
  switch (type) {
    case 0: return "render";
    case 1: return "deferred";
    case 2: return "system";
    case 3: return "mmio_flip";
    case 4: return "wait";
    case 5: return "signal";
    case 6: return "device";
    case 7: return "software";
    default: return "";
  }
}

}  // namespace importers::etl
