// CUDA streams are named by device, stream id and, where the trace gives one, the stream's own
// name (thread_name metadata), and keep the link to their device's process.
#include "tests/importers/chrome_json/import_fixture.h"

namespace {

// Device 0 labelled "GPU 0": stream 7 named "stream 7 " the way Kineto writes it, stream 8
// named "nccl comm" by the trace, stream 9 without metadata. Device 1 has only a process_name.
const char* kTrace = R"({"traceEvents":[
 {"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"python 4242"}},
 {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
 {"ph":"M","name":"thread_name","pid":0,"tid":7,"args":{"name":"stream 7 "}},
 {"ph":"M","name":"thread_name","pid":0,"tid":8,"args":{"name":"nccl comm"}},
 {"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"GPU 1"}},
 {"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":10,"dur":5,"args":{"stream":7}},
 {"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":8,"ts":10,"dur":5,"args":{"stream":8}},
 {"ph":"X","cat":"kernel","name":"K3","pid":0,"tid":9,"ts":10,"dur":5,"args":{"stream":9}},
 {"ph":"X","cat":"kernel","name":"K4","pid":1,"tid":3,"ts":10,"dur":5,"args":{"stream":3}}
]})";

}  // namespace

class StreamNames : public ChromeJsonImport {};

TEST_F(StreamNames, DeviceStreamIdAndTheTracesName) {
  const auto db = Import(kTrace);
  const auto rows = Rows(db,
                         "SELECT s.value, p.pid FROM queues q JOIN strings s ON s.id = q.name_sid "
                         "LEFT JOIN processes p ON p.id = q.process_id ORDER BY s.value");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0][0], "GPU 0 stream 7");
  EXPECT_EQ(rows[1][0], "GPU 0 stream 8 (nccl comm)");
  EXPECT_EQ(rows[2][0], "GPU 0 stream 9");
  EXPECT_EQ(rows[3][0], "GPU 1 stream 3");
  EXPECT_EQ(rows[0][1], "0");
  EXPECT_EQ(rows[3][1], "1");
}
