// What the Nsight Systems importer reads from an `nsys export --type sqlite` file: plain rows of
// the tables it uses, before any of them becomes a fencescope record (nsys_trace_builder.h).
// Ids are the file's own; "none" ids (CUPTI writes 0xFFFFFFFF for "no stream" / "no event")
// are read as -1.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace importers::nsys {

// A serialized GlobalId: the process id in bits 24-47, the thread id in bits 0-23.
inline int64_t PidOf(int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
inline int64_t TidOf(int64_t global_id) { return global_id & 0xFFFFFF; }

enum class ActivityKind : uint8_t { kKernel, kMemcpy, kMemset };

// A kernel, memcpy or memset on a device stream.
struct NsysActivity {
  ActivityKind kind = ActivityKind::kKernel;
  int64_t start = 0, end = 0;
  int64_t device = 0, stream = -1, correlation = -1, global_pid = 0;
  int64_t name_id = -1;   // kernel: StringIds id of its demangled (else short) name
  int64_t bytes = 0;      // memcpy / memset
  int64_t copy_kind = 0;  // memcpy: CUpti_ActivityMemcpyKind
  int64_t row = 0;        // rowid in its table, for messages
};

// A CUDA runtime or driver API call.
struct NsysCall {
  int64_t start = 0, end = 0;
  int64_t global_tid = 0, correlation = -1, name_id = -1;
  int64_t row = 0;
};

// A CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row.
struct NsysSyncRow {
  int64_t start = 0, end = 0;
  int64_t device = 0, stream = -1, correlation = -1, global_pid = 0;
  int64_t sync_type = 0, event_id = -1;
  int64_t event_sync_id = -1;  // -1: the schema has no eventSyncId (or the row none)
  int64_t row = 0;
};

// A CUPTI_ACTIVITY_KIND_CUDA_EVENT row: one cudaEventRecord on a stream.
struct NsysEventRecord {
  int64_t timestamp = 0;  // device completion time, 0 when not collected
  int64_t device = 0, stream = -1, correlation = -1, global_pid = 0, event_id = -1;
  int64_t event_sync_id = -1;
  int64_t row = 0;
};

// A TARGET_INFO_CUDA_STREAM row.
struct NsysStream {
  int64_t pid = 0, stream = 0, context = 0, priority = 0;
  int64_t flag = 0;  // CUpti_ActivityStreamFlag: 1 default, 2 non-blocking, 3 NULL stream
};

struct NsysRange {  // an NVTX push/pop or start/end range, or a mark (end = start)
  int64_t start = 0, end = 0, global_tid = 0;
  uint32_t text = 0;  // index into NsysCapture::range_texts
  int64_t domain = 0;  // domainId: 0 the default domain
};

struct NsysCapture {
  std::string product_version;  // EXPORT_PRODUCT_VERSION
  std::string schema_version;   // EXPORT_SCHEMA_VERSION
  int64_t session_start_utc_ns = 0;
  std::unordered_map<int64_t, std::string> strings;  // StringIds
  std::map<int64_t, std::string> gpu_names;          // TARGET_INFO_GPU id -> name
  std::map<int64_t, std::string> process_names;      // pid -> name
  std::map<int64_t, int64_t> thread_names;           // globalTid -> StringIds id
  std::map<std::pair<int64_t, int64_t>, NsysStream> streams;  // (pid, streamId)
  std::vector<NsysActivity> activities;
  std::vector<NsysCall> calls;
  std::vector<NsysCall> os_calls;  // OSRT_API: futex, poll, ioctl, ... (no correlation)
  std::vector<NsysSyncRow> syncs;
  std::vector<NsysEventRecord> event_records;
  bool has_event_table = false;    // CUPTI_ACTIVITY_KIND_CUDA_EVENT is in the file
  bool has_event_sync_id = false;  // ... and the sync table has eventSyncId
  std::vector<NsysRange> ranges;
  std::vector<NsysRange> marks;  // NVTX marks (instantaneous)
  // (pid, domainId) -> the domain's name (NvtxDomainCreate rows).
  std::map<std::pair<int64_t, int64_t>, std::string> domain_names;
  // The ranges' texts, each once: a program names its ranges with a few texts, over and over
  // (a 1 GB export holds millions of ranges).
  std::vector<std::string> range_texts;
  std::unordered_map<std::string, uint32_t> range_text_index;
  uint64_t ranges_unended = 0;  // NVTX ranges with no end (skipped)

  const std::string* String(int64_t id) const {
    auto it = strings.find(id);
    return it == strings.end() ? nullptr : &it->second;
  }
};

}  // namespace importers::nsys
