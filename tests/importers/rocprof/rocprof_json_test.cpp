// rocprofv3 JSON made by hand with what the real capture lacks: HIP API calls whose correlation
// ids launch the kernels and a copy, two HIP streams sharing one HSA queue, a host-to-device copy
// on the SDMA engine, roctx ranges and marks. Every expected figure is worked out by hand from
// the text below.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/store/query.h"
#include "importers/import_file.h"
#include "tests/importers/rocprof/packet_rows.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::vector<std::string>>;

// Kind numbers are positions in strings.buffer_records: 5 HIP_RUNTIME_API, 7 MARKER_CORE_API,
// 10 MEMORY_COPY, 11 KERNEL_DISPATCH (as rocprofiler-sdk numbers them).
const char* const kCapture = R"json({"rocprofiler-sdk-tool": [{
  "metadata": {"pid": 4242, "node": {"hostname": "node7"}, "command": ["/usr/bin/python3", "train.py"]},
  "agents": [
    {"id": {"handle": 1}, "type": 1, "name": "AMD EPYC", "product_name": "AMD EPYC", "logical_node_id": 0},
    {"id": {"handle": 3}, "type": 2, "name": "gfx942", "product_name": "AMD Instinct MI300X", "logical_node_id": 2},
    {"id": {"handle": 2}, "type": 2, "name": "gfx942", "product_name": "AMD Instinct MI300X", "logical_node_id": 1}
  ],
  "strings": {
    "buffer_records": [
      {"kind": "NONE", "operations": []}, {"kind": "HSA_CORE_API", "operations": []},
      {"kind": "HSA_AMD_EXT_API", "operations": []}, {"kind": "HSA_IMAGE_EXT_API", "operations": []},
      {"kind": "HSA_FINALIZE_EXT_API", "operations": []},
      {"kind": "HIP_RUNTIME_API", "operations": ["hipApiName", "hipLaunchKernel", "hipMemcpyAsync", "hipDeviceSynchronize"]},
      {"kind": "HIP_COMPILER_API", "operations": []},
      {"kind": "MARKER_CORE_API", "operations": ["roctxMarkA", "roctxRangePushA", "roctxRangePop"]},
      {"kind": "MARKER_CONTROL_API", "operations": []}, {"kind": "MARKER_NAME_API", "operations": []},
      {"kind": "MEMORY_COPY", "operations": ["MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST",
        "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE"]},
      {"kind": "KERNEL_DISPATCH", "operations": ["NONE", "ENQUEUE", "COMPLETE"]}
    ],
    "marker_api": [{"key": 10, "value": "step 1"}, {"key": 11, "value": "checkpoint"}]
  },
  "kernel_symbols": [
    {"kernel_id": 1, "kernel_name": "_Z4axpyPf.kd", "demangled_kernel_name": "axpy(float*).kd"},
    {"kernel_id": 2, "kernel_name": "_Z5scalePf.kd", "demangled_kernel_name": "scale(float*)"}
  ],
  "buffer_records": {
    "hip_api": [
      {"kind": 5, "operation": 1, "thread_id": 10, "correlation_id": {"internal": 1, "external": 77},
       "start_timestamp": 1000, "end_timestamp": 1020},
      {"kind": 5, "operation": 1, "thread_id": 10, "correlation_id": {"internal": 2, "external": 0},
       "start_timestamp": 1030, "end_timestamp": 1040},
      {"kind": 5, "operation": 2, "thread_id": 11, "correlation_id": {"internal": 3, "external": 0},
       "start_timestamp": 1040, "end_timestamp": 1060},
      {"kind": 5, "operation": 3, "thread_id": 10, "correlation_id": {"internal": 5, "external": 0},
       "start_timestamp": 2900, "end_timestamp": 3050}
    ],
    "marker_api": [
      {"kind": 7, "operation": 1, "thread_id": 10, "correlation_id": {"internal": 10, "external": 0},
       "start_timestamp": 900, "end_timestamp": 1100},
      {"kind": 7, "operation": 0, "thread_id": 10, "correlation_id": {"internal": 11, "external": 0},
       "start_timestamp": 950, "end_timestamp": 950}
    ],
    "kernel_dispatch": [
      {"kind": 11, "operation": 2, "thread_id": 10, "correlation_id": {"internal": 1, "external": 77},
       "start_timestamp": 2000, "end_timestamp": 2500,
       "dispatch_info": {"agent_id": {"handle": 2}, "queue_id": {"handle": 7}, "kernel_id": 1,
         "dispatch_id": 1, "workgroup_size": {"x": 256, "y": 1, "z": 1},
         "grid_size": {"x": 65536, "y": 2, "z": 1}},
       "stream_id": {"handle": 1}},
      {"kind": 11, "operation": 2, "thread_id": 10, "correlation_id": {"internal": 2, "external": 0},
       "start_timestamp": 2400, "end_timestamp": 3000,
       "dispatch_info": {"agent_id": {"handle": 2}, "queue_id": {"handle": 7}, "kernel_id": 2,
         "dispatch_id": 2, "workgroup_size": {"x": 64, "y": 1, "z": 1},
         "grid_size": {"x": 64, "y": 1, "z": 1}},
       "stream_id": {"handle": 2}},
      {"kind": 11, "operation": 2, "thread_id": 12, "correlation_id": {"internal": 4, "external": 0},
       "start_timestamp": 2100, "end_timestamp": 2200,
       "dispatch_info": {"agent_id": {"handle": 3}, "queue_id": {"handle": 9}, "kernel_id": 2,
         "dispatch_id": 3, "workgroup_size": {"x": 64, "y": 1, "z": 1},
         "grid_size": {"x": 64, "y": 1, "z": 1}},
       "stream_id": {"handle": 3}}
    ],
    "memory_copy": [
      {"kind": 10, "operation": 2, "thread_id": 11, "correlation_id": {"internal": 3, "external": 0},
       "start_timestamp": 1500, "end_timestamp": 1900, "src_agent_id": {"handle": 1},
       "dst_agent_id": {"handle": 2}, "bytes": 4096}
    ]
  }
}]})json";

class RocprofJson : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path json = m_dir / "capture.json";
    std::ofstream(json) << kCapture;
    importers::ImportFile(json, m_db);
  }
  Rows Query(const std::string& sql) { return core::store::RunQuery(m_db, sql).rows; }

  test_support::ScratchDir m_dir;
  fs::path m_db = m_dir / "trace.db";
};

TEST_F(RocprofJson, EachGpuAgentIsAnAdapterInNodeOrderAndTheCpuAgentNone) {
  EXPECT_EQ(Query("SELECT s.value FROM adapters a JOIN strings s ON s.id = a.name_sid "
                  "ORDER BY a.id"),
            (Rows{{"AMD Instinct MI300X (GPU 0, gfx942)"},
                  {"AMD Instinct MI300X (GPU 1, gfx942)"}}));
}

TEST_F(RocprofJson, QueuesAreTheHsaQueuesAndTheCopyEngineOfTheirGpu) {
  // Queue 7 of agent 2 (GPU 0) with two kernels, its SDMA copy queue, queue 9 of agent 3.
  EXPECT_EQ(Query("SELECT s.value, q.type, a.s FROM queues q JOIN strings s ON s.id = q.name_sid "
                  "JOIN (SELECT a.id, n.value AS s FROM adapters a JOIN strings n ON n.id = "
                  "a.name_sid) a ON a.id = q.adapter_id ORDER BY s.value"),
            (Rows{{"GPU 0 copies (SDMA)", "2", "AMD Instinct MI300X (GPU 0, gfx942)"},
                  {"GPU 0 queue 7", "1", "AMD Instinct MI300X (GPU 0, gfx942)"},
                  {"GPU 1 queue 9", "1", "AMD Instinct MI300X (GPU 1, gfx942)"}}));
}

TEST_F(RocprofJson, KernelsAndTheCopyAreLaunchedByTheHipCallOfTheirCorrelationId) {
  // Submitted when their call began, on its thread; started / completed at the GPU times. The
  // kernel of correlation 4 has no call in the file: submitted at its start, no thread.
  EXPECT_EQ(Query(rocprof_test::kPacketRows),
            (Rows{{"Memcpy HtoD", "GPU 0 copies (SDMA)", "1040", "11", "1500", "1900"},
                  {"axpy(float*)", "GPU 0 queue 7", "1000", "10", "2000", "2500"},
                  {"scale(float*)", "GPU 1 queue 9", "2100", "", "2100", "2200"},
                  {"scale(float*)", "GPU 0 queue 7", "1030", "10", "2400", "3000"}}));
  // One launch flow from each call's slice to its packet's start.
  EXPECT_EQ(Query("SELECT n.value, s.ts_ns FROM flows f JOIN cpu_slice c ON c.event_id = "
                  "f.from_event JOIN strings n ON n.id = c.name_sid JOIN packet_started s ON "
                  "s.event_id = f.to_event WHERE f.kind = 1 ORDER BY s.ts_ns"),
            (Rows{{"hipMemcpyAsync", "1500"}, {"hipLaunchKernel", "2000"},
                  {"hipLaunchKernel", "2400"}}));
}

TEST_F(RocprofJson, PacketsKeepTheirStreamSizesBytesAndCorrelationIds) {
  EXPECT_EQ(Query("SELECT p.packet_id, k.value, a.int_value FROM packet_submitted p JOIN "
                  "event_args a ON a.event_rowid = p.event_id JOIN strings k ON k.id = a.key_sid "
                  "JOIN packet_started s ON s.packet_id = p.packet_id AND s.queue_id = p.queue_id "
                  "WHERE s.ts_ns = 2000 ORDER BY k.value"),
            (Rows{{"1", "correlation_id", "1"},
                  {"1", "dispatch_id", "1"},
                  {"1", "external_correlation_id", "77"},
                  {"1", "grid_size_x", "65536"},
                  {"1", "grid_size_y", "2"},
                  {"1", "grid_size_z", "1"},
                  {"1", "stream_id", "1"},
                  {"1", "workgroup_size_x", "256"},
                  {"1", "workgroup_size_y", "1"},
                  {"1", "workgroup_size_z", "1"}}));
  EXPECT_EQ(Query("SELECT a.int_value FROM packet_submitted p JOIN event_args a ON "
                  "a.event_rowid = p.event_id JOIN strings k ON k.id = a.key_sid WHERE "
                  "k.value = 'bytes'"),
            (Rows{{"4096"}}));
}

TEST_F(RocprofJson, EachQueueSaysWhichHipStreamsItCarried) {
  EXPECT_EQ(Query("SELECT key, value FROM meta WHERE key LIKE 'queue_streams.%' ORDER BY key"),
            (Rows{{"queue_streams.GPU 0 queue 7", "1 (1), 2 (1)"},
                  {"queue_streams.GPU 1 queue 9", "3 (1)"}}));
}

// hipDeviceSynchronize needs no argument: thread 10 last launched on GPU 0 (agent 2), whose
// queue that finished last is queue 7 (scale ends at 3000; the copy queue at 1900). Its signal
// executes when that work is done (3000, after the call at 2900); the CPU wait ends at the
// call's return, 3050.
TEST_F(RocprofJson, HipDeviceSynchronizeIsACpuWaitForTheQueueThatFinishedLast) {
  EXPECT_EQ(Query("SELECT t.tid, b.ts_ns, r.ts_ns, q.value, x.ts_ns FROM cpu_wait_released r "
                  "JOIN cpu_wait_begin b ON b.waiter_id = r.waiter_id JOIN threads t ON t.id = "
                  "r.thread_id JOIN fence_signal_executed x ON x.fence_id = r.fence_id AND "
                  "x.fence_value = r.fence_value JOIN queues qq ON qq.id = x.queue_id JOIN "
                  "strings q ON q.id = qq.name_sid"),
            (Rows{{"10", "2900", "3050", "GPU 0 queue 7", "3000"}}));
}

// The roctx range "step 1" also marks an iteration: ProfilerStep#1 on the steps thread (tid -1).
TEST_F(RocprofJson, ApiCallsAndRoctxRangesAreSlicesOfTheirThreadsAndMarksInstants) {
  EXPECT_EQ(Query(rocprof_test::kSliceRows),
            (Rows{{"-1", "ProfilerStep#1", "roctx step", "900", "200", "0"},
                  {"10", "step 1", "roctx", "900", "200", "0"},
                  {"10", "hipLaunchKernel", "hip_api", "1000", "20", "1"},
                  {"10", "hipLaunchKernel", "hip_api", "1030", "10", "1"},
                  {"11", "hipMemcpyAsync", "hip_api", "1040", "20", "0"},
                  {"10", "hipDeviceSynchronize", "hip_api", "2900", "150", "0"}}));
  EXPECT_EQ(Query("SELECT i.ts_ns, n.value FROM instant i JOIN strings n ON n.id = i.name_sid"),
            (Rows{{"950", "checkpoint"}}));
  EXPECT_EQ(Query("SELECT p.pid, s.value FROM processes p JOIN strings s ON s.id = p.name_sid"),
            (Rows{{"4242", "python3"}}));
}

}  // namespace
