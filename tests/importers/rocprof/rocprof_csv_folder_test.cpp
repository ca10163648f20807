// rocprofv3's CSV output folder made by hand: agents, a kernel trace on two GPUs, a
// host-to-device copy, HIP calls and a roctx range, joined on agent ids and correlation ids.
// Expected rows are read off the files below.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/store/query.h"
#include "tests/importers/rocprof/packet_rows.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::vector<std::string>>;
using test_support::Quote;

// Node ids 4 and 5 are the GPUs, logical 1 and 2: GPU 0 and GPU 1.
const char* const kAgents =
    "\"Node_Id\",\"Logical_Node_Id\",\"Agent_Type\",\"Name\",\"Vendor_Name\",\"Product_Name\"\n"
    "0,0,\"CPU\",\"AMD EPYC\",\"CPU\",\"AMD EPYC\"\n"
    "4,1,\"GPU\",\"gfx90a\",\"AMD\",\"AMD Instinct MI250X\"\n"
    "5,2,\"GPU\",\"gfx90a\",\"AMD\",\"AMD Instinct MI250X\"\n";

const char* const kKernelHeader =
    "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\","
    "\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\","
    "\"Private_Segment_Size\",\"Group_Segment_Size\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
    "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n";

void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

void WriteFolder(const fs::path& dir, const std::string& kernel_rows) {
  fs::create_directories(dir);
  Write(dir / "900_agent_info.csv", kAgents);
  Write(dir / "900_kernel_trace.csv", kKernelHeader + kernel_rows);
  Write(dir / "900_memory_copy_trace.csv",
        "\"Kind\",\"Direction\",\"Source_Agent_Id\",\"Destination_Agent_Id\",\"Correlation_Id\","
        "\"Start_Timestamp\",\"End_Timestamp\"\n"
        "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",0,4,1,1500,1900\n");
  Write(dir / "900_hip_api_trace.csv",
        "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
        "\"Start_Timestamp\",\"End_Timestamp\"\n"
        "\"HIP_RUNTIME_API\",\"hipMemcpyAsync\",900,77,1,1000,1010\n"
        "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",900,77,2,1020,1030\n"
        "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",900,77,4,1040,1050\n");
  Write(dir / "900_marker_api_trace.csv",
        "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
        "\"Start_Timestamp\",\"End_Timestamp\"\n"
        "\"MARKER_CORE_API\",\"iteration 3\",900,77,9,900,3000\n");
  Write(dir / "900_counter_collection.csv", "\"Counter_Name\",\"Counter_Value\"\n\"x\",1\n");
}

const char* const kKernels =
    "\"KERNEL_DISPATCH\",4,1,77,1,3,\"gemm(float*)\",2,2000,2600,0,0,256,1,1,4096,1,1\n"
    "\"KERNEL_DISPATCH\",5,2,77,2,3,\"gemm(float*)\",4,2100,2300,0,0,256,1,1,4096,1,1\n";

TEST(RocprofCsvFolder, TheFilesAreJoinedOnAgentsAndCorrelationIds) {
  test_support::ScratchDir dir;
  WriteFolder(dir / "run", kKernels);
  const fs::path db = dir / "t.db";
  const auto r = test_support::RunFencescope("import " + Quote(dir / "run") + " -o " + Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto query = [&](const std::string& sql) { return core::store::RunQuery(db, sql).rows; };
  EXPECT_EQ(query(rocprof_test::kPacketRows),
            (Rows{{"Memcpy HtoD", "GPU 0 copies (SDMA)", "1000", "77", "1500", "1900"},
                  {"gemm(float*)", "GPU 0 queue 1", "1020", "77", "2000", "2600"},
                  {"gemm(float*)", "GPU 1 queue 2", "1040", "77", "2100", "2300"}}));
  EXPECT_EQ(query("SELECT s.value FROM adapters a JOIN strings s ON s.id = a.name_sid ORDER BY "
                  "s.value"),
            (Rows{{"AMD Instinct MI250X (GPU 0, gfx90a)"},
                  {"AMD Instinct MI250X (GPU 1, gfx90a)"}}));
  EXPECT_EQ(query(rocprof_test::kSliceRows),
            (Rows{{"-1", "ProfilerStep#3", "roctx step", "900", "2100", "0"},
                  {"77", "iteration 3", "roctx", "900", "2100", "0"},
                  {"77", "hipMemcpyAsync", "hip_api", "1000", "10", "1"},
                  {"77", "hipLaunchKernel", "hip_api", "1020", "10", "1"},
                  {"77", "hipLaunchKernel", "hip_api", "1040", "10", "1"}}));
  EXPECT_EQ(query("SELECT pid FROM processes"), (Rows{{"900"}}));
  EXPECT_EQ(query("SELECT value FROM meta WHERE key = 'rocprof_format'"),
            (Rows{{"rocprofv3-csv"}}));
}

TEST(RocprofCsvFolder, TheFolderZippedGivesTheSamePackets) {
  test_support::ScratchDir dir;
  WriteFolder(dir / "run", kKernels);
  // Zipped as `zip -r run.zip run` would: members named run/..., the agents first.
  const auto zipped = test_support::RunCommand(
      "cd " + Quote(dir.path()) +
      " && python3 -c \"import zipfile, os; z = zipfile.ZipFile('run.zip', 'w', "
      "zipfile.ZIP_DEFLATED); [z.write(os.path.join('run', f)) for f in "
      "sorted(os.listdir('run'))]\"");
  ASSERT_EQ(zipped.exit_code, 0) << zipped.err;
  const fs::path db = dir / "t.db";
  const auto r = test_support::RunFencescope("import " + Quote(dir / "run.zip") + " -o " +
                                             Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(core::store::RunQuery(db, rocprof_test::kPacketRows).rows,
            (Rows{{"Memcpy HtoD", "GPU 0 copies (SDMA)", "1000", "77", "1500", "1900"},
                  {"gemm(float*)", "GPU 0 queue 1", "1020", "77", "2000", "2600"},
                  {"gemm(float*)", "GPU 1 queue 2", "1040", "77", "2100", "2300"}}));
}

TEST(RocprofCsvFolder, AKernelOnAnAgentNotListedIsNamedByFileAndLine) {
  test_support::ScratchDir dir;
  WriteFolder(dir / "run",
              "\"KERNEL_DISPATCH\",9,1,77,1,3,\"gemm(float*)\",2,2000,2600,0,0,256,1,1,4096,1,1\n");
  const auto r = test_support::RunFencescope("import " + Quote(dir / "run") + " -o " +
                                             Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find((dir / "run" / "900_kernel_trace.csv").string() +
                       ": line 2: agent 9 is not in agent_info.csv"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

TEST(RocprofCsvFolder, AFolderWithoutRocprofFilesIsRefusedNamingIt) {
  test_support::ScratchDir dir;
  fs::create_directories(dir / "empty");
  Write(dir / "empty" / "notes.csv", "a,b\n1,2\n");
  const auto r = test_support::RunFencescope("import " + Quote(dir / "empty") + " -o " +
                                             Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find((dir / "empty").string() + ": no rocprofv3 CSV files"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

}  // namespace
