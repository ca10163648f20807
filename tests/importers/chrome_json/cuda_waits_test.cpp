// CUDA traces of the shape current CUPTI writes (PyTorch 2.x, CUDA 13): cuda_sync events with
// wait_on_cuda_event_record_corr_id and wait_on_stream = -1, record calls that carry only a
// correlation id. Every wait is placed; what released it is linked, by inference where the trace
// does not say (schemas/kineto_inference.md). The small traces below have every expected value
// worked out by hand in the comments; the generated ones are checked against the truth their
// generator (tests/importers/make_cuda_trace.py) wrote from its own model.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
#include "core/store/trace_store.h"
#include "importers/import_file.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

// Times in µs. Host thread 100; devices 0 and 1.
//   corr 1 cudaLaunchKernel   10..12  -> A  on GPU 0 stream 7, 20..40 (ac2g flow)
//   corr 2 cudaGraphLaunch    12..14  -> G0 40..50, G1 48..60 (starts before G0 ends), G2 60..70
//                                        on GPU 0 stream 7, all under correlation 2 (3 flow ends)
//   corr 3 cudaEventRecordWithFlags 15 (only a correlation id)
//   corr 4 cudaStreamWaitEvent 17, Stream Wait Event on GPU 0 stream 8, event 11, links -1
//   corr 5 cudaLaunchKernel   19      -> B  on GPU 0 stream 8, 72..80 (no flow: by correlation)
//   corr 6 cudaLaunchKernel   21      -> C  on GPU 1 stream 7, 25..35 (ac2g flow)
//   corr 7 cudaStreamSynchronize 23..43, Stream Sync on GPU 1 stream 7, 23.5..42.5
//   corr 8 cudaDeviceSynchronize 90..95, Context Sync on GPU 0, 90.5..94.5
const char* kCupti13 = R"({"traceEvents":[
 {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
 {"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"GPU 1"}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":10,"dur":2,"args":{"correlation":1,"cbid":211}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":100,"ts":10},
 {"ph":"X","cat":"kernel","name":"A","pid":0,"tid":7,"ts":20,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":0,"tid":7,"ts":20,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":100,"tid":100,"ts":12,"dur":2,"args":{"correlation":2,"cbid":311}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":2,"pid":100,"tid":100,"ts":12},
 {"ph":"X","cat":"kernel","name":"G0","pid":0,"tid":7,"ts":40,"dur":10,"args":{"correlation":2,"stream":7,"device":0}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":0,"tid":7,"ts":40,"bp":"e"},
 {"ph":"X","cat":"kernel","name":"G1","pid":0,"tid":7,"ts":48,"dur":12,"args":{"correlation":2,"stream":7,"device":0}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":0,"tid":7,"ts":48,"bp":"e"},
 {"ph":"X","cat":"kernel","name":"G2","pid":0,"tid":7,"ts":60,"dur":10,"args":{"correlation":2,"stream":7,"device":0}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":0,"tid":7,"ts":60,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaEventRecordWithFlags","pid":100,"tid":100,"ts":15,"dur":1,"args":{"correlation":3,"cbid":370}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamWaitEvent","pid":100,"tid":100,"ts":17,"dur":1,"args":{"correlation":4,"cbid":147}},
 {"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":8,"ts":17.5,"dur":0.5,"args":{"cuda_sync_kind":"Stream Wait Event","wait_on_stream":-1,"wait_on_cuda_event_record_corr_id":-1,"wait_on_cuda_event_id":11,"stream":8,"correlation":4,"device":0}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":19,"dur":1,"args":{"correlation":5,"cbid":211}},
 {"ph":"X","cat":"kernel","name":"B","pid":0,"tid":8,"ts":72,"dur":8,"args":{"correlation":5,"stream":8,"device":0}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":21,"dur":1,"args":{"correlation":6,"cbid":211}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":6,"pid":100,"tid":100,"ts":21},
 {"ph":"X","cat":"kernel","name":"C","pid":1,"tid":7,"ts":25,"dur":10,"args":{"correlation":6,"stream":7,"device":1}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":6,"pid":1,"tid":7,"ts":25,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":100,"tid":100,"ts":23,"dur":20,"args":{"correlation":7,"cbid":131}},
 {"ph":"X","cat":"cuda_sync","name":"Stream Sync","pid":1,"tid":7,"ts":23.5,"dur":19,"args":{"cuda_sync_kind":"Stream Sync","stream":7,"correlation":7,"device":1}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaDeviceSynchronize","pid":100,"tid":100,"ts":90,"dur":5,"args":{"correlation":8,"cbid":165}},
 {"ph":"X","cat":"cuda_sync","name":"Context Sync","pid":0,"tid":-1,"ts":90.5,"dur":4,"args":{"cuda_sync_kind":"Context Sync","stream":-1,"correlation":8,"device":0}}
]})";

// A record whose thread launched nothing before it: its stream comes from GPU timing.
//   thread 300: corr 21 cudaLaunchKernel 1 -> K on GPU 0 stream 7, 2..30
//   thread 200: corr 22 cudaEventRecord 5; corr 23 cudaStreamWaitEvent 6 (stream 8, event 12);
//               corr 24 cudaLaunchKernel 7 -> L on GPU 0 stream 8, 31..40
const char* kByTiming = R"({"traceEvents":[
 {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":300,"ts":1,"dur":0.5,"args":{"correlation":21}},
 {"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":2,"dur":28,"args":{"correlation":21,"stream":7}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaEventRecord","pid":100,"tid":200,"ts":5,"dur":0.5,"args":{"correlation":22}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamWaitEvent","pid":100,"tid":200,"ts":6,"dur":0.5,"args":{"correlation":23}},
 {"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":8,"ts":6.1,"dur":0.2,"args":{"wait_on_stream":-1,"wait_on_cuda_event_record_corr_id":-1,"wait_on_cuda_event_id":12,"stream":8,"correlation":23}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":200,"ts":7,"dur":0.5,"args":{"correlation":24}},
 {"ph":"X","cat":"kernel","name":"L","pid":0,"tid":8,"ts":31,"dur":9,"args":{"correlation":24,"stream":8}}
]})";

class CudaWaits : public ::testing::Test {
 protected:
  fs::path Import(const char* text, const std::string& name) {
    const fs::path input = m_dir / (name + ".json");
    std::ofstream(input) << text;
    const fs::path db = m_dir / (name + ".db");
    importers::ImportFile(input, db);
    return db;
  }
  static std::string Rows(const fs::path& db, const std::string& sql) {
    return test_support::RowsText(db, sql);
  }
  test_support::ScratchDir m_dir;
};

TEST_F(CudaWaits, GraphNodesOverlappingKernelsAndLaunchesWithoutFlowsAreAllKept) {
  const fs::path db = Import(kCupti13, "cupti13");
  // Six kernels; G1 overlaps G0 on its stream and is kept. B has no flow: its launch is the
  // runtime call of its correlation id (19, thread 100).
  EXPECT_EQ(Rows(db,
                 "SELECT n.value, s.ts_ns, t.tid, b.ts_ns, c.ts_ns FROM packet_submitted s "
                 "JOIN packet_started b USING (packet_id) JOIN packet_completed c USING "
                 "(packet_id) JOIN strings n ON n.id = s.name_sid JOIN threads t ON t.id = "
                 "s.thread_id ORDER BY b.ts_ns"),
            "A|10000|100|20000|40000\nC|21000|100|25000|35000\nG0|12000|100|40000|50000\n"
            "G1|12000|100|48000|60000\nG2|12000|100|60000|70000\nB|19000|100|72000|80000\n");
  // Launch flows: A, G0 and C by ac2g; B (no flow) and G1, G2 (the second and third end of the
  // graph launch's flow) by correlation id.
  EXPECT_EQ(Rows(db, "SELECT kind, count(*) FROM flows GROUP BY kind"), "1|6\n");
  EXPECT_EQ(Rows(db, "SELECT name, count FROM import_problems WHERE name IN "
                     "('kineto_launch_by_correlation', 'kineto_launch_flow_shared') ORDER BY name"),
            "kineto_launch_by_correlation|3\nkineto_launch_flow_shared|2\n");
  EXPECT_EQ(Rows(db,
                 "SELECT count FROM import_problems WHERE name IN "
                 "('json_flow_unmatched_end', 'json_flow_unmatched_start')"),
            "");
  // One adapter per device.
  EXPECT_EQ(Rows(db, "SELECT count(*) FROM adapters"), "2\n");
}

TEST_F(CudaWaits, StreamWaitWithoutRecordLinksIsPlacedAndLinkedByInference) {
  const fs::path db = Import(kCupti13, "cupti13");
  // The record is the thread's latest record call before the wait's call (corr 3 at 15); its
  // stream is that of the thread's last launch before it (the graph launch at 12: GPU 0 stream
  // 7); it executes when everything launched there before 15 has completed: G2's end, 70.
  EXPECT_EQ(Rows(db,
                 "SELECT f.value, s.fence_value, s.ts_ns, e.ts_ns, q.value FROM "
                 "fence_signal_queued s JOIN fence_signal_executed e USING (signal_id) JOIN "
                 "fences fe ON fe.id = s.fence_id JOIN strings f ON f.id = fe.name_sid JOIN "
                 "queues qu ON qu.id = s.queue_id JOIN strings q ON q.id = qu.name_sid "
                 "WHERE f.value LIKE 'CUDA event%'"),
            "CUDA event 11|1|15000|70000|GPU 0 stream 7\n");
  // The wait: queued at its call (17) on GPU 0 stream 8, reached at once (nothing launched there
  // before), held until the record executed (70); B, launched at 19 (before 70), starts at 72:
  // the wait ends there. Inferred (release_link 2).
  EXPECT_EQ(Rows(db,
                 "SELECT q.ts_ns, u.observed_ns, u.ts_ns, u.fence_value, u.release_link, "
                 "n.value FROM fence_wait_queued q JOIN fence_wait_unblocked u USING "
                 "(wait_id) JOIN queues qu ON qu.id = q.queue_id JOIN strings n ON n.id = "
                 "qu.name_sid"),
            "17000|17000|72000|1|2|GPU 0 stream 8\n");
  EXPECT_EQ(Rows(db,
                 "SELECT count FROM import_problems WHERE name IN "
                 "('kineto_wait_link_inferred', 'kineto_record_stream_by_launch') ORDER BY "
                 "name"),
            "1\n1\n");
}

TEST_F(CudaWaits, StreamAndContextSyncsAreCpuWaitsReleasedByTheWorkTheyWaitedFor) {
  const fs::path db = Import(kCupti13, "cupti13");
  // Stream Sync on GPU 1 stream 7 at 23: C (launched 21) ends at 35 -> a signal on "GPU 1
  // stream 7 synchronize" queued at 23, executed at 35. Context Sync on GPU 0 at 90: stream 8
  // finished last (B, 80) and all was done by 90 -> a signal on stream 8's sync fence executed at
  // once (90). Both CPU waits are on thread 100, from the sync events' times.
  EXPECT_EQ(Rows(db,
                 "SELECT b.ts_ns, r.ts_ns, t.tid, f.value, e.ts_ns, r.release_link FROM "
                 "cpu_wait_begin b JOIN cpu_wait_released r USING (waiter_id) JOIN threads t "
                 "ON t.id = b.thread_id JOIN fences fe ON fe.id = b.fence_id JOIN strings f "
                 "ON f.id = fe.name_sid JOIN fence_signal_executed e ON e.fence_id = "
                 "b.fence_id AND e.fence_value = b.fence_value ORDER BY b.ts_ns"),
            "23500|42500|100|GPU 1 stream 7 synchronize|35000|1\n"
            "90500|94500|100|GPU 0 stream 8 synchronize|90000|1\n");
}

TEST_F(CudaWaits, ObservedTimesShareTheTraceTimeBase) {
  // With baseTimeNanoseconds, every time moves by the base, observed_ns too: the wait of
  // kCupti13 is queued at 17 and observed at 17 (µs after the base).
  std::string text = kCupti13;
  text.replace(text.find("{\"traceEvents\""), 1, "{\"baseTimeNanoseconds\":5000000000,");
  const fs::path db = Import(text.c_str(), "based");
  EXPECT_EQ(Rows(db, "SELECT q.ts_ns, u.observed_ns FROM fence_wait_queued q JOIN "
                     "fence_wait_unblocked u USING (wait_id)"),
            "5000017000|5000017000\n");
}

TEST_F(CudaWaits, StatsCountLinkedAndInferredWaitsAsTheDatabaseHoldsThem) {
  const fs::path db = Import(kCupti13, "cupti13");
  const auto out = test_support::RunFencescope("stats " + test_support::Quote(db) + " --json");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  // By hand above: one GPU wait, linked by inference; two CPU waits, both linked, none inferred.
  EXPECT_NE(out.out.find("\"gpu_waits_linked\": 1"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("\"gpu_waits_linked_inferred\": 1"), std::string::npos);
  EXPECT_NE(out.out.find("\"cpu_waits_linked\": 2"), std::string::npos);
  EXPECT_NE(out.out.find("\"cpu_waits_linked_inferred\": 0"), std::string::npos);
}

TEST_F(CudaWaits, RecordStreamFromGpuTimingWhenItsThreadLaunchedNothingBefore) {
  const fs::path db = Import(kByTiming, "timing");
  // Thread 200 launched nothing before its record (5): the waiting stream's next packet, L,
  // started at 31; the latest end before it on another stream of the device is K (30, stream 7).
  // The record executes at 30; L was launched (7) before that: the wait ends at L's start, 31.
  EXPECT_EQ(Rows(db,
                 "SELECT n.value, e.ts_ns FROM fence_signal_executed e JOIN queues q ON "
                 "q.id = e.queue_id JOIN strings n ON n.id = q.name_sid"),
            "GPU 0 stream 7|30000\n");
  EXPECT_EQ(Rows(db, "SELECT ts_ns, observed_ns, release_link FROM fence_wait_unblocked"),
            "31000|6000|2\n");
  EXPECT_EQ(Rows(db,
                 "SELECT count FROM import_problems WHERE name = "
                 "'kineto_record_stream_by_gpu_timing'"),
            "1\n");
}

TEST_F(CudaWaits, ReportNamesTheKernelAndStreamEachLongestWaitWaitedFor) {
  const fs::path db = Import(kCupti13, "cupti13");
  auto store = core::store::LoadTrace(db);
  const core::report::Json j = core::report::ReportJson(core::report::AnalyseTrace(store, true));
  const core::report::Json* waits = j.Find("longest_waits");
  ASSERT_NE(waits, nullptr);
  // By hand from kCupti13: the GPU wait on stream 8 is held from when the stream reached it (17)
  // to 72 = 55 µs, released by stream 7's record, whose last work was G2 (inferred link); the
  // Stream Sync [23.5, 42.5] = 19 µs, released by GPU 1 stream 7 after C; the Context Sync
  // [90.5, 94.5] = 4 µs, released by GPU 0 stream 8 after B.
  std::string rows;
  for (const auto& w : waits->items()) {
    rows += w.Find("waiting")->String() + "|" + std::to_string(w.Find("held_ns")->Int()) + "|" +
            w.Find("released_by")->String() + "|" + w.Find("released_by_packet")->String() +
            "|" + w.Find("link")->String() + "\n";
  }
  EXPECT_EQ(rows,
            "GPU 0 stream 8|55000|GPU 0 stream 7|G2|inferred\n"
            "thread 100|19000|GPU 1 stream 7|C|from_trace\n"
            "thread 100|4000|GPU 0 stream 8|B|from_trace\n");
}

// Runs make_cuda_trace.py, imports its trace and checks it with check_cuda_import.py; returns
// the `name value` lines the checker printed, and every mismatch line in `mismatches`.
std::map<std::string, int64_t> GenerateImportCheck(const fs::path& dir, const std::string& args,
                                                   std::string* mismatches) {
  const fs::path tests = test_support::SourceDir() / "tests/importers";
  const fs::path json = dir / "gen.json", truth = dir / "gen.truth.json", db = dir / "gen.db";
  const std::string make = "python3 '" + (tests / "make_cuda_trace.py").string() + "' '" +
                           json.string() + "' --truth '" + truth.string() + "' " + args;
  EXPECT_EQ(std::system(make.c_str()), 0) << make;
  importers::ImportFile(json, db);
  const std::string check = "python3 '" + (tests / "check_cuda_import.py").string() + "' '" +
                            truth.string() + "' '" + db.string() + "'";
  const test_support::CommandResult result = test_support::RunCommand(check);
  std::map<std::string, int64_t> found;
  for (const std::string& text : test_support::Lines(result.out)) {
    if (text.rfind("mismatch", 0) == 0) {
      *mismatches += text + "\n";
      continue;
    }
    std::istringstream in(text);
    std::string key;
    int64_t value = 0;
    if (in >> key >> value) found[key] = value;
  }
  if (result.exit_code != 0 && mismatches->empty()) {
    *mismatches = "check_cuda_import.py failed: " + result.err;
  }
  return found;
}

TEST_F(CudaWaits, GeneratedCupti13TracesMatchTheirModelWaitByWait) {
  for (const char* args : {"--seed 1 --iterations 12", "--seed 2 --devices 2 --iterations 9",
                           "--seed 3 --iterations 15 --overlap"}) {
    SCOPED_TRACE(args);
    std::string mismatches;
    const auto found = GenerateImportCheck(m_dir.path(), args, &mismatches);
    EXPECT_EQ(mismatches, "");
    ASSERT_GT(found.count("stream_waits"), 0u);
    // Current CUPTI names neither record nor stream: every link is an inference.
    EXPECT_GT(found.at("stream_waits"), 0);
    EXPECT_EQ(found.at("gpu_waits_inferred"), found.at("stream_waits"));
    EXPECT_EQ(found.at("gpu_waits_from_capture"), 0);
    // Each record is waited for right after it: even the waits that held nothing take theirs.
    EXPECT_EQ(found.at("unheld_linked_elsewhere"), 0);
  }
}

TEST_F(CudaWaits, TorchStreamsProgramsLinkEveryWaitAndSyncToWhatReleasedIt) {
  // The programs of shared/capture/torch_streams.py (cuda_program_shapes.py): a throttle whose
  // Event Syncs wait for the record of three iterations back with records of other events in
  // between, a frame graph of back-to-back records waited for in order, a ring buffer whose
  // copy stream waits for the record of three iterations back. GPU-bound (kernels of ~300 µs,
  // the waits hold) and launch-bound (~30 µs, most waits hold nothing), with a new event id per
  // event or ids handed back from a small pool. Every CPU sync is linked; every wait or sync
  // that held its waiter is linked to exactly the record and kernel the model says
  // (check_cuda_import.py); one that held nothing to a record executed by the time it ended.
  for (const char* shape : {"throttle", "frame_graph", "ring_buffer"}) {
    for (const char* kernel : {"300", "30"}) {
      for (const char* reuse : {"", " --reuse-events"}) {
        const std::string args =
            std::string("--shape ") + shape + " --kernel-us " + kernel + reuse + " --seed 7";
        SCOPED_TRACE(args);
        std::string mismatches;
        const auto found = GenerateImportCheck(m_dir.path(), args, &mismatches);
        EXPECT_EQ(mismatches, "");
        ASSERT_GT(found.count("cpu_syncs"), 0u);
        EXPECT_GT(found.at("cpu_syncs"), 0);
        EXPECT_EQ(found.at("cpu_syncs_linked_to_truth"), found.at("cpu_syncs"));
        EXPECT_EQ(found.at("gpu_waits_linked"), found.at("stream_waits"));
        if (std::string(kernel) == "300" && std::string(shape) != "frame_graph") {
          // GPU-bound, every wait of these two holds its stream or thread: all exact.
          EXPECT_EQ(found.at("unheld_linked_elsewhere"), 0);
        }
      }
    }
  }
}

TEST_F(CudaWaits, GeneratedTracesWithRecordLinksAreLinkedFromTheCapture) {
  std::string mismatches;
  const auto found =
      GenerateImportCheck(m_dir.path(), "--seed 4 --devices 2 --legacy-links", &mismatches);
  EXPECT_EQ(mismatches, "");
  ASSERT_GT(found.count("stream_waits"), 0u);
  EXPECT_EQ(found.at("gpu_waits_from_capture"), found.at("stream_waits"));
  EXPECT_EQ(found.at("gpu_waits_inferred"), 0);
  EXPECT_EQ(found.at("cpu_waits_inferred"), 0);
}

}  // namespace
