// What the ROCm profiler importer reads from a capture, whichever file it came from (rocprofv3
// JSON, rocprof v1 / v2 / v3 CSV): plain rows before any of them becomes a fencescope record
// (rocprof_trace_builder.h). Ids are the file's own: agent handles, HSA queue ids, HIP stream
// ids, correlation ids. Times are nanoseconds on the profiler's clock, as the file states them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/store/string_hash.h"

namespace importers::rocprof {

// The texts records name (kernel symbols, API functions, roctx messages), each held once: a
// record keeps a view of its text here, not a copy of its own (a file of millions of dispatches
// names a few thousand kernels). Views stay valid while the pool lives, moved or not.
class RocTexts {
 public:
  RocTexts() = default;
  RocTexts(RocTexts&&) = default;
  RocTexts& operator=(RocTexts&&) = default;
  RocTexts(const RocTexts&) = delete;  // a copy's views would name the original's texts
  RocTexts& operator=(const RocTexts&) = delete;

  std::string_view Keep(std::string_view text) {
    auto it = m_texts.find(text);
    if (it == m_texts.end()) it = m_texts.emplace(text).first;
    return *it;
  }

 private:
  // Nodes: the texts' addresses stay where they are.
  std::unordered_set<std::string, core::store::TransparentStringHash, std::equal_to<>> m_texts;
};

// An HSA agent: a CPU or a GPU.
struct RocAgent {
  int64_t handle = 0;  // the id records name it by
  bool gpu = false;
  std::string product;  // "AMD Instinct MI350X"; empty when the file does not say
  std::string gfx;      // "gfx950"
  int64_t node_id = -1;
};

struct Dim3 {
  int64_t x = 0, y = 0, z = 0;
};

// One kernel dispatch on an HSA queue.
struct RocDispatch {
  int64_t start = 0, end = 0;
  int64_t agent = 0;    // RocAgent::handle
  int64_t queue = 0;    // HSA queue id
  int64_t stream = -1;  // HIP stream id (-1: not in the file)
  int64_t thread = -1;  // OS thread that launched it (-1: not in the file)
  // The process that dispatched it, where the file says so per row (rocprof v1 / v2 CSV, which
  // may hold several); -1: the capture's process.
  int64_t pid = -1;
  int64_t correlation = -1, external = 0;
  int64_t dispatch_id = -1;
  std::string_view name;  // the kernel symbol, demangled where the file gives it so (texts)
  Dim3 grid, workgroup;
};

// One asynchronous memory copy (an SDMA engine or a blit kernel).
struct RocCopy {
  int64_t start = 0, end = 0;
  int64_t src_agent = 0, dst_agent = 0;
  int64_t bytes = 0;
  std::string direction;  // "HtoD", "DtoH", "DtoD", "HtoH"
  int64_t stream = -1;
  int64_t thread = -1;
  int64_t correlation = -1, external = 0;
};

enum class CallDomain : uint8_t { kHip, kHsa, kMarker };

// A HIP / HSA API call, or a roctx range or mark (marker API).
struct RocCall {
  int64_t start = 0, end = 0;
  int64_t thread = 0;
  int64_t correlation = -1, external = 0;
  CallDomain domain = CallDomain::kHip;
  std::string_view name;     // the API function ("hipLaunchKernel", "roctxRangePushA") (texts)
  std::string_view message;  // marker API: the roctx text, when the file keeps it (texts)
  // From the call's arguments, when the file keeps them (rocpd's rocpd_arg): the HIP stream
  // (`stream` / `hStream`; 0 the NULL stream) and HIP event (`event`) handles, -1 when absent.
  int64_t stream = -1, event = -1;
};

struct RocCapture {
  std::string format;  // "rocprofv3-json", "rocprof-csv"
  int64_t pid = -1;
  std::string process_name;
  std::string hostname;
  RocTexts texts;  // what the records' names view
  std::map<int64_t, RocAgent> agents;  // by handle
  std::vector<RocDispatch> dispatches;
  std::vector<RocCopy> copies;
  std::vector<RocCall> calls;
  std::map<std::string, std::string> meta;  // written as trace meta
  uint64_t skipped = 0;       // malformed records left out (lenient imports only)
  std::string first_skipped;  // where the first of them was, and why
};

}  // namespace importers::rocprof
