// Malformed ROCm profiler files: `fencescope import` names the file and the record (JSON) or the
// line and column (CSV), exits non-zero and leaves no output database; --lenient counts and
// skips the bad records instead.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/store/query.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;

const char* const kAgents =
    R"("agents": [{"id": {"handle": 1}, "type": 1}, {"id": {"handle": 2}, "type": 2, "name": "gfx90a", "product_name": "AMD Instinct MI250X"}])";

std::string Dispatch(const std::string& agent, const std::string& end) {
  return R"({"thread_id": 5, "correlation_id": {"internal": 1, "external": 0}, "start_timestamp": 100, )" +
         end + R"("dispatch_info": {"agent_id": {"handle": )" + agent +
         R"(}, "queue_id": {"handle": 3}, "kernel_id": 1}})";
}

std::string JsonWith(const std::string& dispatches) {
  return std::string(R"({"rocprofiler-sdk-tool": [{)") + kAgents +
         R"(, "buffer_records": {"kernel_dispatch": [)" + dispatches + "]}}]}";
}

const char* const kCsvHeader =
    "Dispatch_ID,GPU_ID,Queue_ID,PID,TID,Kernel_Name,Start_Timestamp,End_Timestamp\n";

class RocprofBadInput : public ::testing::Test {
 protected:
  // Writes `text` to `name` and imports it; expects a failure naming the file and `place`.
  void ExpectRejected(const std::string& name, const std::string& text, const std::string& place) {
    const fs::path input = m_dir / name;
    std::ofstream(input) << text;
    const fs::path out = m_dir / (name + ".db");
    const auto r = test_support::RunFencescope("import " + Quote(input) + " -o " + Quote(out));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(input.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(place), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << "a failed import left " << out;
    EXPECT_EQ(test_support::ReadFile(input), text) << "the input was changed";
  }
  test_support::ScratchDir m_dir;
};

TEST_F(RocprofBadInput, JsonDispatchOnAnAgentTheFileDoesNotList) {
  ExpectRejected("a.json", JsonWith(Dispatch("2", R"("end_timestamp": 200, )") + "," +
                                    Dispatch("99", R"("end_timestamp": 200, )")),
                 "buffer_records.kernel_dispatch[1]: agent 99 is not among the file's agents");
}

TEST_F(RocprofBadInput, JsonDispatchOnACpuAgent) {
  ExpectRejected("b.json", JsonWith(Dispatch("1", R"("end_timestamp": 200, )")),
                 "buffer_records.kernel_dispatch[0]: agent 1 is not a GPU");
}

TEST_F(RocprofBadInput, JsonDispatchWithoutItsEnd) {
  ExpectRejected("c.json", JsonWith(Dispatch("2", "")),
                 "buffer_records.kernel_dispatch[0]: no whole number 'end_timestamp'");
}

TEST_F(RocprofBadInput, JsonDispatchEndingBeforeItStarts) {
  ExpectRejected("d.json", JsonWith(Dispatch("2", R"("end_timestamp": 50, )")),
                 "buffer_records.kernel_dispatch[0]: ends (50) before it starts (100)");
}

TEST_F(RocprofBadInput, JsonCutOff) {
  const std::string whole = JsonWith(Dispatch("2", R"("end_timestamp": 200, )"));
  ExpectRejected("e.json", whole.substr(0, whole.size() - 10), "not valid JSON");
}

TEST_F(RocprofBadInput, CsvWithoutAnEndColumn) {
  ExpectRejected("f.csv", "Dispatch_ID,GPU_ID,Queue_ID,Kernel_Name,Start_Timestamp\n1,2,3,k,100\n",
                 "no End_Timestamp column");
}

TEST_F(RocprofBadInput, CsvTimestampThatIsNotANumber) {
  ExpectRejected("g.csv",
                 std::string(kCsvHeader) + "1,7,1,10,10,\"k(int, int)\",100,200\n" +
                     "2,7,1,10,10,\"k(int, int)\",300,4O0\n",
                 "line 3: column End_Timestamp: '4O0' is not a whole number");
}

TEST_F(RocprofBadInput, CsvRowWithTooFewFields) {
  ExpectRejected("h.csv", std::string(kCsvHeader) + "1,7,1,10,10,k,100\n",
                 "line 2: 7 fields where the header has 8: no End_Timestamp");
}

TEST_F(RocprofBadInput, CsvQuoteNeverClosed) {
  ExpectRejected("i.csv", std::string(kCsvHeader) + "1,7,1,10,10,\"k(int, 100,200\n",
                 "line 2: a quoted field is not closed");
}

TEST_F(RocprofBadInput, LenientImportCountsAndSkipsTheBadRows) {
  const fs::path input = m_dir / "j.csv";
  std::ofstream(input) << kCsvHeader << "1,7,1,10,10,k,100,200\n"
                       << "2,7,1,10,10,k,300,x\n"
                       << "3,7,1,10,10,k,400,500\n";
  const fs::path out = m_dir / "j.db";
  const auto r =
      test_support::RunFencescope("import --lenient " + Quote(input) + " -o " + Quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(core::store::RunQuery(out, "SELECT count(*) FROM packet_completed").rows[0][0], "2");
  EXPECT_EQ(core::store::RunQuery(out, "SELECT count, first_place FROM import_problems WHERE "
                                       "name = 'rocprof_record_skipped'")
                .rows,
            (std::vector<std::vector<std::string>>{
                {"1", input.string() + ": line 3: column End_Timestamp: 'x' is not a whole number"}}));
}

}  // namespace
