// MTIA device traces (Kineto's mtia_ccp_events): each device stream is a queue, event_record /
// event_wait become a stream's signals and waits (importers/chrome_json/mtia_gpu_mapping.h).
// Every expected value below is worked out by hand from the trace in the comment.
#include <gtest/gtest.h>

#include "tests/importers/chrome_json/import_fixture.h"
#include "tests/support/sql_text.h"

namespace {

// Times in µs. Device "MTIA 17" (pid 17): track 500 "Stream 101", track 600 "Stream 102",
// track 499 "Stream 101 Submission Queue". Host thread 1 (pid 100).
//   corr 1 runFunction 1..2            -> pe_exe on 101, 5..20 (ac2g flow)
//   corr 2 recordEvent 3..3.5          -> event_record on 101, 20.1..20.2
//   corr 3 waitOnEvent 4..4.2          -> event_wait on 102, 6..20.3, wait_on_stream 101: released
//                                         by the record at 20.1, which began during it
//   corr 4 memcpyDtoHAsync 4.5..4.7    -> dma_request on 102, 21..23 (no flow: by correlation;
//                                         the device's own "synchronize" of corr 4 is no call)
//   event_record on 102, 25..25.1 (no call)
//   event_wait on 101, 30..30.4, on 102: the record began before it and it took 0.4 µs: found
//       its fence signalled at once, released by that record
//   event_wait on 102, 40..50, on 101: 101 recorded nothing during it and it held 102 for
//       10 µs: waited for a record not in the trace (value 2), unlinked
//   event_wait on 102, 60..61, on stream 999: no such stream in the trace, unlinked, no fence
const char* kMtia = R"({"traceEvents":[
 {"ph":"M","name":"process_name","pid":17,"tid":0,"args":{"name":"MTIA 17"}},
 {"ph":"M","name":"process_labels","pid":17,"tid":0,"args":{"labels":"MTIA 17"}},
 {"ph":"M","name":"thread_name","pid":17,"tid":500,"args":{"name":"Stream 101"}},
 {"ph":"M","name":"thread_name","pid":17,"tid":600,"args":{"name":"Stream 102"}},
 {"ph":"M","name":"thread_name","pid":17,"tid":499,"args":{"name":"Stream 101 Submission Queue"}},
 {"ph":"X","cat":"mtia_runtime","name":"runFunction - job_prep_and_submit_for_execution","pid":100,"tid":1,"ts":1,"dur":1,"args":{"correlation":1,"device":17,"stream_id":101}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":1,"ts":1},
 {"ph":"X","cat":"mtia_ccp_events","name":"pe_exe","pid":17,"tid":500,"ts":5,"dur":15,"args":{"correlation":1,"stream":101,"column":"0","row":"0"}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":17,"tid":500,"ts":5,"bp":"e"},
 {"ph":"X","cat":"mtia_runtime","name":"recordEvent","pid":100,"tid":1,"ts":3,"dur":0.5,"args":{"correlation":2,"device":17,"stream_id":"101","cmd_name":"Event#7"}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_record","pid":17,"tid":500,"ts":20.1,"dur":0.1,"args":{"correlation":2,"stream":101,"seq_num":1,"sqid":1}},
 {"ph":"X","cat":"mtia_runtime","name":"enqueueCommand waitOnEvent","pid":100,"tid":1,"ts":4,"dur":0.2,"args":{"correlation":3,"device":17,"stream_id":102}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":600,"ts":6,"dur":14.3,"args":{"correlation":3,"stream":102,"wait_on_stream":101,"seq_num":2,"sqid":2}},
 {"ph":"X","cat":"mtia_runtime","name":"enqueueCommand memcpyDtoHAsync","pid":100,"tid":1,"ts":4.5,"dur":0.2,"args":{"correlation":4,"device":17,"stream_id":102,"mem size":"1024 bytes"}},
 {"ph":"X","cat":"mtia_runtime","name":"synchronize","pid":17,"tid":499,"ts":4.6,"dur":0.1,"args":{"correlation":4,"device":17,"stream_id":101}},
 {"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":17,"tid":600,"ts":21,"dur":2,"args":{"correlation":4,"stream":102,"direction":"DEVICE_TO_HOST","size":1024}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_record","pid":17,"tid":600,"ts":25,"dur":0.1,"args":{"stream":102,"seq_num":3,"sqid":2}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":500,"ts":30,"dur":0.4,"args":{"stream":101,"wait_on_stream":102,"seq_num":4,"sqid":1}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":600,"ts":40,"dur":10,"args":{"stream":102,"wait_on_stream":101,"seq_num":5,"sqid":2}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":600,"ts":60,"dur":1,"args":{"stream":102,"wait_on_stream":999,"seq_num":6,"sqid":2}}
]})";

// Queue and fence names as tables qn / fn for the queries below.
constexpr const char* kNames =
    "WITH qn AS (SELECT q.id, s.value AS name FROM queues q JOIN strings s ON s.id = q.name_sid), "
    "fn AS (SELECT f.id, s.value AS name FROM fences f JOIN strings s ON s.id = f.name_sid) ";

class MtiaStreams : public ChromeJsonImport {
 protected:
  std::string Text(const std::filesystem::path& db, const std::string& sql) {
    return test_support::RowsText(db, kNames + sql);
  }
};

TEST_F(MtiaStreams, StreamsAreQueuesAndTheirWorkIsPackets) {
  const auto db = Import(kMtia);
  // 101 runs a pe_exe: compute (type 1); 102 only DMA: other (type 5).
  EXPECT_EQ(Text(db, "SELECT name, q.type FROM qn JOIN queues q USING (id) ORDER BY name"),
            "MTIA 17 Stream 101|1\nMTIA 17 Stream 102|5\n");
  // pe_exe launched by its flow, dma_request by its correlation id from the host call (thread
  // 1), not from the device's "synchronize" of the same id.
  EXPECT_EQ(Text(db,
                 "SELECT n.value, q.name, s.ts_ns, t.tid, b.ts_ns, c.ts_ns FROM packet_submitted s "
                 "JOIN packet_started b USING (packet_id) JOIN packet_completed c USING "
                 "(packet_id) JOIN strings n ON n.id = s.name_sid JOIN threads t ON t.id = "
                 "s.thread_id JOIN qn q ON q.id = s.queue_id ORDER BY b.ts_ns"),
            "pe_exe|MTIA 17 Stream 101|1000|1|5000|20000\n"
            "dma_request|MTIA 17 Stream 102|4500|1|21000|23000\n");
  EXPECT_EQ(One(db, "SELECT value FROM meta WHERE key = 'gpu_mapping'"), "kineto");
  EXPECT_EQ(Problem(db, "kineto_mtia_device_events"), "<none>");
}

TEST_F(MtiaStreams, RecordsAreSignalsOfTheirStreamsFence) {
  const auto db = Import(kMtia);
  EXPECT_EQ(Text(db, "SELECT name FROM fn ORDER BY name"),
            "MTIA 17 Stream 101 event records\nMTIA 17 Stream 102 event records\n");
  // Queued at the recordEvent call (thread 1), or at the record itself when no call made it;
  // executed at the record's start.
  EXPECT_EQ(Text(db,
                 "SELECT f.name, q.ts_ns, coalesce(t.tid, 0), x.ts_ns, x.fence_value, "
                 "x.previous_value FROM fence_signal_queued q JOIN fence_signal_executed x "
                 "USING (signal_id) JOIN fn f ON f.id = x.fence_id LEFT JOIN threads t ON "
                 "t.id = q.thread_id ORDER BY q.ts_ns"),
            "MTIA 17 Stream 101 event records|3000|1|20100|1|0\n"
            "MTIA 17 Stream 102 event records|25000|0|25000|1|0\n");
}

TEST_F(MtiaStreams, EachWaitIsLinkedToTheRecordThatReleasedItOrSaysItCannotBe) {
  const auto db = Import(kMtia);
  // queue | queued | unblocked | observed | fence | value | released by (fence of the record's
  // signal, its value) | release_link
  EXPECT_EQ(Text(db,
                 "SELECT qu.name, q.ts_ns, u.ts_ns, u.observed_ns, coalesce(f.name, '-'), "
                 "u.fence_value, coalesce(sf.name || ' ' || s.fence_value, '-'), u.release_link "
                 "FROM fence_wait_queued q JOIN fence_wait_unblocked u USING (wait_id) "
                 "JOIN qn qu ON qu.id = u.queue_id LEFT JOIN fn f ON f.id = u.fence_id "
                 "LEFT JOIN fence_signal_executed s ON s.signal_id = u.released_by_signal_id "
                 "LEFT JOIN fn sf ON sf.id = s.fence_id ORDER BY q.ts_ns"),
            "MTIA 17 Stream 102|4000|20300|6000|MTIA 17 Stream 101 event records|1|"
            "MTIA 17 Stream 101 event records 1|2\n"
            "MTIA 17 Stream 101|30000|30400|30000|MTIA 17 Stream 102 event records|1|"
            "MTIA 17 Stream 102 event records 1|2\n"
            "MTIA 17 Stream 102|40000|50000|40000|MTIA 17 Stream 101 event records|2|-|0\n"
            "MTIA 17 Stream 102|60000|61000|60000|-|0|-|0\n");
  // The first wait was queued by the host's waitOnEvent call.
  EXPECT_EQ(One(db,
                "SELECT t.tid FROM fence_wait_queued q JOIN threads t ON t.id = q.thread_id "
                "WHERE q.ts_ns = 4000"),
            "1");
  EXPECT_EQ(Problem(db, "mtia_wait_linked_by_timing"), "2");
  EXPECT_EQ(Problem(db, "mtia_wait_release_not_in_trace"), "1");
  EXPECT_EQ(Problem(db, "mtia_wait_stream_not_in_trace"), "1");
}

}  // namespace

namespace {

// Host syncs. Times in µs; host thread 1, device "MTIA 17" track 500 "Stream 101", track 600
// "Stream 102".
//   corr 1 runFunction 1..2            -> pe_exe on 101, 5..20 (ac2g flow)
//   corr 2 memcpyDtoHAsync 3..3.2      -> dma_request on 102, 6..9
//   event_wait on 102, 9..12, on 101 (no call: given to 102 at 9)
//   synchronizeStream 101 at 0.5..0.6: nothing given to 101 yet: executed at the call
//   synchronizeStream 102 at 10..14: given to 102 before 10: the dma (ends 9) and the wait
//       (given at 9, ends 12): executed at 12
//   synchronizeStream 101 at 2.5..2.7: the pe_exe given at 1 ends at 20, after the call
//       returned: executed at the return (2.7), counted
//   synchronizeStream 555 at 30..31: no such stream: unlinked, on no fence
const char* kMtiaSyncs = R"({"traceEvents":[
 {"ph":"M","name":"process_labels","pid":17,"tid":0,"args":{"labels":"MTIA 17"}},
 {"ph":"M","name":"thread_name","pid":17,"tid":500,"args":{"name":"Stream 101"}},
 {"ph":"M","name":"thread_name","pid":17,"tid":600,"args":{"name":"Stream 102"}},
 {"ph":"X","cat":"mtia_runtime","name":"runFunction - job_prep_and_submit_for_execution","pid":100,"tid":1,"ts":1,"dur":1,"args":{"correlation":1,"device":17,"stream_id":101}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":1,"ts":1},
 {"ph":"X","cat":"mtia_ccp_events","name":"pe_exe","pid":17,"tid":500,"ts":5,"dur":15,"args":{"correlation":1,"stream":101}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":17,"tid":500,"ts":5,"bp":"e"},
 {"ph":"X","cat":"mtia_runtime","name":"enqueueCommand memcpyDtoHAsync","pid":100,"tid":1,"ts":3,"dur":0.2,"args":{"correlation":2,"device":17,"stream_id":102}},
 {"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":17,"tid":600,"ts":6,"dur":3,"args":{"correlation":2,"stream":102}},
 {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":600,"ts":9,"dur":3,"args":{"stream":102,"wait_on_stream":101}},
 {"ph":"X","cat":"mtia_runtime","name":"synchronizeStream","pid":100,"tid":1,"ts":0.5,"dur":0.1,"args":{"correlation":10,"device":17,"stream_id":101}},
 {"ph":"X","cat":"mtia_runtime","name":"synchronizeStream","pid":100,"tid":1,"ts":10,"dur":4,"args":{"correlation":11,"device":17,"stream_id":102}},
 {"ph":"X","cat":"mtia_runtime","name":"synchronizeStream","pid":100,"tid":1,"ts":2.5,"dur":0.2,"args":{"correlation":12,"device":17,"stream_id":101}},
 {"ph":"X","cat":"mtia_runtime","name":"synchronizeStream","pid":100,"tid":1,"ts":30,"dur":1,"args":{"correlation":13,"device":17,"stream_id":555}}
]})";

TEST_F(MtiaStreams, HostSyncsAreCpuWaitsReleasedWhenTheStreamsEarlierWorkEnded) {
  const auto db = Import(kMtiaSyncs);
  // begin | release | fence | value | link | the releasing signal: queued, executed
  EXPECT_EQ(Text(db,
                 "SELECT b.ts_ns, r.ts_ns, coalesce(f.name, '-'), r.fence_value, r.release_link, "
                 "coalesce(q.ts_ns, '-'), coalesce(x.ts_ns, '-') FROM cpu_wait_begin b JOIN "
                 "cpu_wait_released r USING (waiter_id) LEFT JOIN fn f ON f.id = r.fence_id "
                 "LEFT JOIN fence_signal_executed x ON x.fence_id = r.fence_id AND "
                 "x.fence_value = r.fence_value LEFT JOIN fence_signal_queued q ON q.signal_id = "
                 "x.signal_id ORDER BY b.ts_ns"),
            "500|600|MTIA 17 Stream 101 synchronize|1|1|500|500\n"
            "2500|2700|MTIA 17 Stream 101 synchronize|2|1|2500|2700\n"
            "10000|14000|MTIA 17 Stream 102 synchronize|1|1|10000|12000\n"
            "30000|31000|-|0|0|-|-\n");
  // All four on the calling thread, as are the signals queued for them.
  EXPECT_EQ(Text(db,
                 "SELECT group_concat(DISTINCT t.tid), count(*) FROM cpu_wait_begin b JOIN "
                 "threads t ON t.id = b.thread_id"),
            "1|4\n");
  EXPECT_EQ(Text(db,
                 "SELECT group_concat(DISTINCT t.tid), count(*) FROM fence_signal_queued q JOIN "
                 "threads t ON t.id = q.thread_id JOIN fn f ON f.id = q.fence_id WHERE f.name "
                 "LIKE '% synchronize'"),
            "1|3\n");
  EXPECT_EQ(Problem(db, "mtia_sync_before_work_end"), "1");
  EXPECT_EQ(Problem(db, "mtia_sync_stream_not_in_trace"), "1");
}

}  // namespace
