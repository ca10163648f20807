// rocprof kernel-trace CSV of the three generations, made by hand: v1 results.csv (KernelName,
// gpu-id, queue-id, BeginNs, EndNs), v3 *_kernel_trace.csv (Agent_Id "Agent N", Stream_Id,
// sizes per dimension). Expected rows are read off the text below.
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

Rows ImportAndQuery(const std::string& csv, const std::string& sql) {
  test_support::ScratchDir dir;
  std::ofstream(dir / "results.csv") << csv;
  importers::ImportFile(dir / "results.csv", dir / "t.db");
  return core::store::RunQuery(dir / "t.db", sql).rows;
}


TEST(RocprofCsv, Version1ResultsWithBeginAndEndNs) {
  // Two GPUs (gpu-id 1 and 0), the kernels on their queue-id; " [clone .kd]" left out.
  const std::string csv =
      "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
      "accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs\n"
      "0,\"Cijk_Alik_Bljk_SB(float, int) [clone .kd]\",1,2,0,77,78,4096,256,0,0,8,0,16,64,0x1,"
      "0x2,90,100,250,260\n"
      "1,\"fill(float*)\",0,5,1,77,78,64,64,0,0,8,0,16,64,0x1,0x2,280,300,330,340\n";
  // A CSV has no API calls: each is submitted at its start, by no thread.
  EXPECT_EQ(ImportAndQuery(csv, rocprof_test::kPacketRows),
            (Rows{{"Cijk_Alik_Bljk_SB(float, int)", "GPU 1 queue 2", "100", "", "100", "250"},
                  {"fill(float*)", "GPU 0 queue 5", "300", "", "300", "330"}}));
  EXPECT_EQ(ImportAndQuery(csv, "SELECT p.pid FROM processes p"), (Rows{{"77"}}));
}

// rocprof v1 / v2 write the rows of every profiled process into one file: each pid is a process
// of its own, and an HSA queue id seen in two processes is two hardware queues (each process
// creates its own queues), named by their pid.
TEST(RocprofCsv, RowsOfSeveralProcessesAreSeveralProcessesAndTheirQueues) {
  const std::string csv =
      "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
      "accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs\n"
      "0,a,0,0,0,77,78,64,64,0,0,8,0,16,64,0x1,0x2,90,100,150,160\n"
      "1,b,0,0,0,91,92,64,64,0,0,8,0,16,64,0x1,0x2,95,120,200,210\n"
      "2,c,0,1,0,77,78,64,64,0,0,8,0,16,64,0x1,0x2,150,160,170,180\n"
      "3,d,0,0,1,91,92,64,64,0,0,8,0,16,64,0x1,0x2,205,210,230,240\n";
  EXPECT_EQ(ImportAndQuery(csv, rocprof_test::kPacketRows),
            (Rows{{"a", "GPU 0 queue 0 (pid 77)", "100", "", "100", "150"},
                  {"b", "GPU 0 queue 0 (pid 91)", "120", "", "120", "200"},
                  {"c", "GPU 0 queue 1 (pid 77)", "160", "", "160", "170"},
                  {"d", "GPU 0 queue 0 (pid 91)", "210", "", "210", "230"}}));
  EXPECT_EQ(ImportAndQuery(csv, "SELECT q.value, p.pid FROM queues qq JOIN strings q ON q.id = "
                                "qq.name_sid JOIN processes p ON p.id = qq.process_id ORDER BY 1"),
            (Rows{{"GPU 0 queue 0 (pid 77)", "77"},
                  {"GPU 0 queue 0 (pid 91)", "91"},
                  {"GPU 0 queue 1 (pid 77)", "77"}}));
  EXPECT_EQ(ImportAndQuery(csv, "SELECT p.pid, n.value FROM processes p JOIN strings n ON n.id = p.name_sid ORDER BY 1"),
            (Rows{{"77", "process 77"}, {"91", "process 91"}}));
}

TEST(RocprofCsv, Version3KernelTraceWithStreamsAndSizesPerDimension) {
  const std::string csv =
      "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
      "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\","
      "\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\","
      "\"Grid_Size_Y\",\"Grid_Size_Z\"\n"
      "\"KERNEL_DISPATCH\",\"Agent 4\",\"1\",\"3\",\"900\",\"1\",\"12\",\"k1\",\"5\",\"1000\","
      "\"1100\",\"128\",\"2\",\"1\",\"1024\",\"4\",\"1\"\n"
      "\"KERNEL_DISPATCH\",\"Agent 4\",\"1\",\"6\",\"900\",\"2\",\"12\",\"k1\",\"6\",\"1050\","
      "\"1200\",\"128\",\"2\",\"1\",\"1024\",\"4\",\"1\"\n";
  EXPECT_EQ(ImportAndQuery(csv, rocprof_test::kPacketRows),
            (Rows{{"k1", "GPU 0 queue 1", "1000", "", "1000", "1100"},
                  {"k1", "GPU 0 queue 1", "1050", "", "1050", "1200"}}));
  EXPECT_EQ(ImportAndQuery(csv, "SELECT key, value FROM meta WHERE key LIKE 'queue_streams.%'"),
            (Rows{{"queue_streams.GPU 0 queue 1", "3 (1), 6 (1)"}}));
  EXPECT_EQ(ImportAndQuery(csv, "SELECT k.value, a.int_value FROM event_args a JOIN strings k "
                                "ON k.id = a.key_sid WHERE a.event_rowid = (SELECT min(event_id) "
                                "FROM packet_submitted) AND k.value LIKE '%size%' ORDER BY 1"),
            (Rows{{"grid_size_x", "1024"},
                  {"grid_size_y", "4"},
                  {"grid_size_z", "1"},
                  {"workgroup_size_x", "128"},
                  {"workgroup_size_y", "2"},
                  {"workgroup_size_z", "1"}}));
}

}  // namespace
