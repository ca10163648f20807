// The ETL importer on the real capture ../shared/traces/external/gpuvis/windows_etl.zip (a SteamVR
// run on Windows 10 build 17134).
//
// Expected figures were computed apart from the importer by etl_counts.py (next to this file)
// over the raw bytes, and agree with shared/guide/trace-formats.md section 2:
//   python3 tests/importers/external/etl/etl_counts.py ../shared/traces/external/gpuvis/windows_etl.zip
#include <gtest/gtest.h>

#include "core/model/error.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
#include "core/store/trace_writer.h"
#include "importers/common/compressed_input.h"
#include "importers/etl/etl_importer.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using test_support::FirstCell;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

std::filesystem::path SampleZip() {
  return test_support::SharedDir() / "traces/external/gpuvis/windows_etl.zip";
}

// One import of the sample through the real command, shared by the tests of this file.
class EtlSample : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = new ScratchDir();
    s_db = new std::filesystem::path(*s_dir / "sample.db");
    auto r = RunFencescope("import '" + SampleZip().string() + "' -o '" + s_db->string() + "'");
    s_setup_error = new std::string(r.exit_code == 0 ? "" : "import failed: " + r.err);
  }
  // A failed import in SetUpTestSuite would only skip the tests; fail each of them instead.
  void SetUp() override { ASSERT_TRUE(s_setup_error->empty()) << *s_setup_error; }
  static void TearDownTestSuite() {
    delete s_db;
    delete s_dir;
    delete s_setup_error;
  }
  static std::string Q(const std::string& sql) { return FirstCell(*s_db, sql); }

  static ScratchDir* s_dir;
  static std::filesystem::path* s_db;
  static std::string* s_setup_error;
};
ScratchDir* EtlSample::s_dir = nullptr;
std::filesystem::path* EtlSample::s_db = nullptr;
std::string* EtlSample::s_setup_error = nullptr;

}  // namespace

TEST_F(EtlSample, ReadsEveryDxgKrnlEvent) {
  // etl_counts.py: dxgkrnl_events 196500 (guide: 196,500), 117 (provider, id, version) tuples.
  EXPECT_EQ(Q("SELECT sum(count) FROM import_problems "
              "WHERE name LIKE 'etl_read Microsoft-Windows-DxgKrnl %'"),
            "196500");
  EXPECT_EQ(Q("SELECT count(*) FROM import_problems WHERE name LIKE 'etl_read %'"), "117");
  EXPECT_EQ(Q("SELECT count FROM import_problems "
              "WHERE name = 'etl_read Microsoft-Windows-DxgKrnl id 178 v1'"),
            "3312");
  EXPECT_EQ(Q("SELECT count(*) FROM import_problems WHERE name LIKE 'etl_bad_payload_size%'"),
            "0");
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key = 'qpc_frequency_hz'"), "3119142");
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key = 'etl_buffers'"), "345");
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key = 'os_version'"), "10.0 build 17134");
  // 2,148,568,420 ns between the first and last DxgKrnl event; the trace also holds the marker
  // provider's events, so its span is at least that.
  EXPECT_GE(std::stoll(Q("SELECT value FROM meta WHERE key = 'end_ns'")) -
                std::stoll(Q("SELECT value FROM meta WHERE key = 'start_ns'")),
            2'148'568'420LL);
}

TEST_F(EtlSample, QueuePacketsPairStartToStop) {
  // queue_packet_start_178 3312, matched on (hContext, SubmitSequence) 3312 (guide: 3,312 of 3,312).
  EXPECT_EQ(Q("SELECT count(*) FROM packet_submitted p JOIN queues q ON q.id = p.queue_id "
              "WHERE q.type = 4 AND (p.packet_flags & 96) = 0"),
            "3312");
  EXPECT_EQ(Q("SELECT count(*) FROM packet_submitted p JOIN queues q ON q.id = p.queue_id "
              "JOIN packet_completed c ON c.packet_id = p.packet_id "
              "WHERE q.type = 4 AND (p.packet_flags & 96) = 0"),
            "3312");
  // Software queues: one per context that queued packets (contexts_with_queue_packets 13).
  EXPECT_EQ(Q("SELECT count(DISTINCT c.handle) FROM packet_submitted p "
              "JOIN queues q ON q.id = p.queue_id AND q.type = 4 "
              "JOIN contexts c ON c.queue_id = q.id"),
            "13");
}

TEST_F(EtlSample, DmaPacketsPairSubmissionToCompletionAndLinkToQueuePackets) {
  // dma_start_175 2404, matched on submission/completion id 2404 (guide: 2,404 of 2,404):
  // each DMA start ends in a completion or a preemption on a hardware queue. The 25 preempted
  // packets come back (dma_preempted_then_resubmitted 25) and continue as the same packet.
  EXPECT_EQ(Q("SELECT count(*) FROM packet_submitted p JOIN queues q ON q.id = p.queue_id "
              "WHERE q.type <> 4"),
            "2379");
  EXPECT_EQ(Q("SELECT count(*) FROM packet_resumed"), "25");
  EXPECT_EQ(Q("SELECT count(*) FROM events e JOIN queues q ON q.id = e.queue_id "
              "WHERE q.type <> 4 AND e.kind IN (3, 4)"),
            "2404");
  EXPECT_EQ(Q("SELECT count(*) FROM packet_preempted p JOIN packet_resumed r "
              "ON r.packet_id = p.packet_id AND r.ts_ns >= p.ts_ns "
              "JOIN packet_completed c ON c.packet_id = p.packet_id AND c.ts_ns >= r.ts_ns"),
            "25");
  // dma_linked_to_queue_packet 2387 (guide: about 2,387).
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = 'etl_link_dma_to_queue_packet'"),
            "2387");
  // dma_contexts_per_select_context_node {0: 6, 1: 1, 9: 1, unknown: 1}: four hardware queues,
  // three of them named by SelectContext's node ordinal.
  EXPECT_EQ(Q("SELECT count(*) FROM queues WHERE type <> 4"), "4");
  EXPECT_EQ(Q("SELECT group_concat(ordinal) FROM (SELECT ordinal FROM engines "
              "WHERE ordinal IN (0, 1, 9) ORDER BY ordinal)"),
            "0,1,9");
  EXPECT_EQ(Q("SELECT count(DISTINCT p.context_id) FROM packet_submitted p "
              "JOIN queues q ON q.id = p.queue_id JOIN engines e ON e.id = q.engine_id "
              "WHERE q.type <> 4 AND e.ordinal = 0"),
            "6");
  // dma_completion_interrupts 2380 (DmaPacket Info with InterruptType 1).
  EXPECT_EQ(Q("SELECT count(*) FROM interrupt WHERE interrupt_flags = 3"), "2380");
}

TEST_F(EtlSample, WaitsAreReleasedBySignalsOnTheSameFence) {
  EXPECT_EQ(Q("SELECT count(*) FROM fence_wait_queued"), "1741");  // wait_packets_244
  // wait_packets_released_by_unwait 1735, plus one wait packet retired (180) with no unwait
  // event (wait_packets_244_matched_stop 1736): 1736 unblocked, each after a signal reached its
  // value (wait_packets_released_after_a_signal 1735 + the retired one).
  EXPECT_EQ(Q("SELECT count(*) FROM fence_wait_unblocked"), "1736");
  EXPECT_EQ(Q("SELECT count(*) FROM fence_wait_unblocked u JOIN events s "
              "ON s.op_id = u.released_by_signal_id AND s.kind = 11 "
              "AND s.fence_id = u.fence_id AND s.ts_ns <= u.ts_ns"),
            "1736");
  EXPECT_EQ(Q("SELECT count(*) FROM fence_wait_unblocked WHERE wait_path = 1"), "1736");
  EXPECT_EQ(Q("SELECT count(*) FROM cpu_wait_begin"), "73");  // cpu_wait_objects_297
}

TEST_F(EtlSample, MarkersForVSyncAndCompositorStrings) {
  EXPECT_EQ(Q("SELECT count(*) FROM marker WHERE marker_type = 1"), "438");   // vsync_dpc_17
  EXPECT_EQ(Q("SELECT count(*) FROM marker WHERE marker_type = 0"), "14533");  // string_markers
}

TEST_F(EtlSample, StatsShowSoftwareAndHardwareQueueTypes) {
  auto r = RunFencescope("stats '" + s_db->string() + "' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t software = 0;
  for (size_t at = r.out.find("\"type\": \"software\""); at != std::string::npos;
       at = r.out.find("\"type\": \"software\"", at + 1)) {
    ++software;
  }
  EXPECT_EQ(std::to_string(software), Q("SELECT count(*) FROM queues WHERE type = 4"));
  EXPECT_GE(software, 13u);  // contexts_with_queue_packets
  EXPECT_NE(r.out.find("\"engine\": \"node 0\""), std::string::npos);
}

TEST_F(EtlSample, InfoSaysWhatTheCaptureLacksAndListsRecordsRead) {
  auto r = RunFencescope("info '" + s_db->string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("etl_no_native_fence_logs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("etl_read Microsoft-Windows-DxgKrnl id 245 v2"), std::string::npos);
  EXPECT_NE(r.out.find("etl_read {8f8f13b1-60eb-4b6a-a433-de86104115ac} id 0 v1"),
            std::string::npos);
}

TEST_F(EtlSample, WaitsOpenAtTheEndWhoseSignalIsOutsideTheCaptureAreNotNeverSignalled) {
  // The capture is a window of a running system. Counted here with SQL over the views, apart
  // from the analysis: the waits open at the end (no unblock / release record), those whose
  // value the fence's CurrentValue at the end (wait_pending_at_end.current_value) reached, and
  // those no executed signal in the capture reaches although the capture shows the fence got
  // there (a wait for the value or more was released, or a thread waited for it and later
  // began a wait on the fence for a higher value).
  const std::string open =
      "WITH open_waits AS (SELECT q.wait_id AS id, q.fence_id, q.fence_value FROM "
      "fence_wait_queued q WHERE NOT EXISTS (SELECT 1 FROM fence_wait_unblocked u WHERE "
      "u.wait_id = q.wait_id) UNION ALL SELECT b.waiter_id, b.fence_id, b.fence_value FROM "
      "cpu_wait_begin b WHERE NOT EXISTS (SELECT 1 FROM cpu_wait_released r WHERE r.waiter_id = "
      "b.waiter_id) AND NOT EXISTS (SELECT 1 FROM cpu_wait_withdrawn w WHERE w.waiter_id = "
      "b.waiter_id)) SELECT count(*) FROM open_waits o ";
  const std::string reached_at_end =
      "(SELECT current_value FROM wait_pending_at_end p WHERE p.wait_id = o.id AND p.fence_id = "
      "o.fence_id) >= o.fence_value";
  const int64_t all = std::stoll(Q(open));
  const int64_t unprocessed = std::stoll(Q(open + "WHERE " + reached_at_end));
  const int64_t outside = std::stoll(
      Q(open + "WHERE NOT (" + reached_at_end +
        ") AND NOT EXISTS (SELECT 1 FROM fence_signal_executed x WHERE x.fence_id = o.fence_id "
        "AND x.fence_value >= o.fence_value) AND (EXISTS (SELECT 1 FROM cpu_wait_released r WHERE "
        "r.fence_id = o.fence_id AND r.fence_value >= o.fence_value) OR EXISTS (SELECT 1 FROM "
        "fence_wait_unblocked u WHERE u.fence_id = o.fence_id AND u.fence_value >= o.fence_value) "
        "OR EXISTS (SELECT 1 FROM cpu_wait_begin e JOIN cpu_wait_begin l ON l.thread_id = "
        "e.thread_id AND l.fence_id = e.fence_id AND l.ts_ns > e.ts_ns AND l.fence_value > "
        "e.fence_value WHERE e.fence_id = o.fence_id AND e.fence_value >= o.fence_value))"));
  // no open wait past its value has a queued, unexecuted signal that would reach it, and no
  // fence was rewound: the rest are never signalled
  EXPECT_EQ(Q(open + "WHERE NOT (" + reached_at_end +
              ") AND EXISTS (SELECT 1 FROM fence_signal_queued s WHERE s.fence_id = o.fence_id "
              "AND s.fence_value >= o.fence_value AND NOT EXISTS (SELECT 1 FROM "
              "fence_signal_executed x WHERE x.signal_id = s.signal_id))"),
            "0");
  EXPECT_EQ(Q("SELECT count(*) FROM fence_rewind"), "0");
  EXPECT_EQ(all, 8);
  EXPECT_EQ(unprocessed, 2);
  EXPECT_EQ(outside, 2);  // two CPU waits of threads that later waited for higher values

  auto r = RunFencescope("report '" + s_db->string() + "' -o '" + (*s_dir / "open.json").string() +
                         "' --format json "
                         "--fail-if 'fences.waits_signal_not_in_capture != 2'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto store = core::store::LoadTrace(*s_db);
  core::report::Json j = core::report::ReportJson(core::report::AnalyseTrace(store, true));
  using test_support::At;
  EXPECT_EQ(At(j, "fences.waits_signal_not_in_capture"), outside);
  EXPECT_EQ(At(j, "findings.signal_not_in_capture"), outside);
  EXPECT_EQ(At(j, "fences.waits_unprocessed_at_end"), unprocessed);
  EXPECT_EQ(At(j, "fences.waits_pending_at_end"), 0);
  EXPECT_EQ(At(j, "fences.waits_stuck_after_rewind"), 0);
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), all - unprocessed - outside);
  const std::string json = test_support::ReadFile(*s_dir / "open.json");
  EXPECT_NE(json.find("signal not in the capture"), std::string::npos);
}

TEST(EtlSampleTruncated, EveryCutGivesACleanErrorOrWithLenientACountedLoss) {
  importers::DecodedInput input = importers::ReadInput(SampleZip());
  const std::string_view bytes = input.bytes.view();
  ASSERT_EQ(bytes.size(), 22'609'920u);
  ScratchDir dir;
  int cuts = 0;
  for (uint64_t cut = 1; cut < bytes.size(); cut += 1'234'567) {
    core::store::TraceWriter writer(dir / "cut.db", "etl");
    try {
      importers::etl::ImportEtl(bytes.substr(0, cut), "cut.etl", writer, {});
      ADD_FAILURE() << "no error for a cut at " << cut;
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("byte offset"), std::string::npos) << e.what();
    }
    ++cuts;
  }
  EXPECT_GE(cuts, 18);
  // Cut inside buffer 200 (of 345): with --lenient the first 199 buffers are kept.
  core::store::TraceWriter writer(dir / "lenient.db", "etl");
  importers::ImportOptions lenient;
  lenient.lenient = true;
  importers::etl::ImportEtl(bytes.substr(0, 199 * 65536 + 1000), "cut.etl", writer, lenient);
  writer.Commit();
  EXPECT_EQ(FirstCell(dir / "lenient.db",
                      "SELECT count || ',' || severity FROM import_problems "
                      "WHERE name = 'etl_corrupt_buffer'"),
            "146,2");  // the cut buffer + 145 the logfile header counts but the file lacks
}

namespace {

using test_support::Quote;

// The value of "key": N in the JSON text after `after` (a section name); -1 when absent.
int64_t JsonNumberAfter(const std::string& json, const std::string& after, const std::string& key) {
  const size_t section = json.find("\"" + after + "\"");
  if (section == std::string::npos) return -1;
  const size_t at = json.find("\"" + key + "\": ", section);
  if (at == std::string::npos) return -1;
  return std::stoll(json.substr(at + key.size() + 4));
}

}  // namespace

TEST_F(EtlSample, ContextSignalsExecuteAfterThePacketsQueuedAheadOfThem) {
  // seed 001: a queue's Signal updates the fence only after the earlier work on that queue. The
  // SignalSynchronizationObjectFromGpu call is logged right after its signal packet is queued,
  // while packets ahead of it still run: it is no execution time. By SQL over the views, no
  // signal on a context's software queue may execute before a packet submitted to that queue
  // ahead of it completed.
  EXPECT_EQ(Q("WITH s AS (SELECT q.queue_id, q.ts_ns AS queued, e.ts_ns AS executed FROM "
              "fence_signal_queued q JOIN fence_signal_executed e USING (signal_id) JOIN queues "
              "qu ON qu.id = q.queue_id WHERE qu.type = 4) SELECT count(*) FROM s WHERE EXISTS "
              "(SELECT 1 FROM packet_submitted p JOIN packet_completed c USING (packet_id) "
              "WHERE p.queue_id = s.queue_id AND p.ts_ns < s.queued AND c.ts_ns > s.executed)"),
            "0");
  // The 294 calls (etl_counts.py): 483 ask for signals a 245 packet queued within the last
  // millisecond (signal_from_gpu_294_behind_a_packet: merged), 327 have no packet in the capture
  // (signal_from_gpu_294_without_packet: queued at the call).
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = "
              "'etl_signal_from_gpu_call_merged'"),
            "483");
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = "
              "'etl_signal_from_gpu_without_packet'"),
            "327");
}

TEST_F(EtlSample, EveryQueueSignalBeforeAnExecutedOneExecuted) {
  // seed 001 again: signals of one queue execute in the order they were queued. In this capture
  // one signal (queue of the value-0 present fence) has no execution event while the 234 signals
  // queued after it on its queue have one: its execution is placed at the first of those.
  // By SQL over the views: no signal is left unexecuted with a later one of its queue executed.
  const std::string later_executed =
      "FROM fence_signal_queued l JOIN fence_signal_executed le ON le.signal_id = l.signal_id "
      "WHERE l.queue_id = q.queue_id AND l.signal_id > q.signal_id";
  EXPECT_EQ(Q("SELECT count(*) FROM fence_signal_queued q WHERE NOT EXISTS (SELECT 1 FROM "
              "fence_signal_executed e WHERE e.signal_id = q.signal_id) AND EXISTS (SELECT 1 " +
              later_executed + ")"),
              "0");
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = "
              "'etl_signal_executed_by_queue_order'"),
            "1");
  // ... and it executed when the first of the 234 did, just before it.
  EXPECT_EQ(Q("SELECT count(*) FROM fence_signal_queued q JOIN fence_signal_executed e ON "
              "e.signal_id = q.signal_id WHERE (SELECT count(*) " + later_executed + ") = 234 "
              "AND e.ts_ns = (SELECT min(le.ts_ns) " + later_executed + ")"),
            "1");
}

TEST_F(EtlSample, StatsCountThePreemptedDmaPackets) {
  // dma_preempted (etl_counts.py): 25 DmaPacket Info events with InterruptType 2, each a
  // different packet; the capture has no preemption requests.
  EXPECT_EQ(Q("SELECT count(DISTINCT packet_id) FROM packet_preempted"), "25");
  auto r = RunFencescope("stats " + Quote(*s_db) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonNumberAfter(r.out, "preemption", "packets_preempted"), 25) << r.out;
  EXPECT_EQ(JsonNumberAfter(r.out, "preemption", "preemptions"), 25);
  EXPECT_EQ(JsonNumberAfter(r.out, "preemption", "requests"), 0);
}

TEST_F(EtlSample, ContextRowsCarryTheProcessThatOwnsThem) {
  // etl_counts.py context_owner_pid: the EVENT_HEADER ProcessId of each context's first queue
  // packet (178/244/245), for the 13 contexts with queue packets; contexts_per_owner_pid
  // {4: 1, 704: 1, 1072: 1, 2092: 1, 2272: 1, 14196: 1, 14808: 2, 15524: 5}. The capture has no
  // process rundown, so rows name the pid alone.
  const std::pair<const char*, int> kOwners[] = {
      {"0xffff840589fd0810", 4},     {"0xffffd687d8119820", 704},   {"0xffffd687dc138010", 14808},
      {"0xffffd687eff87260", 15524}, {"0xffffd687f0c5fe50", 15524}, {"0xffffd687f7239c90", 14808},
      {"0xffffd687fb6d7ab0", 2272},  {"0xffffd687fdf35b00", 14196}, {"0xffffd68808e8d8f0", 15524},
      {"0xffffd6880b68f720", 15524}, {"0xffffd6880b769010", 15524}, {"0xffffd6880c5d1c70", 1072},
      {"0xffffd6880dfc1a30", 2092}};
  for (const auto& [handle, pid] : kOwners) {
    const std::string where = std::string("WHERE printf('0x%x', c.handle) = '") + handle + "'";
    EXPECT_EQ(Q("SELECT p.pid FROM contexts c JOIN processes p ON p.id = c.process_id " + where),
              std::to_string(pid))
        << handle;
    const std::string name =
        Q("SELECT s.value FROM contexts c JOIN queues q ON q.id = c.queue_id "
          "JOIN strings s ON s.id = q.name_sid " +
          where);
    const std::string process = pid == 4 ? "System (pid 4)" : "pid " + std::to_string(pid);
    EXPECT_EQ(name.rfind(process + ": ", 0), 0u) << name;
    EXPECT_NE(name.find(std::string("context ") + handle), std::string::npos) << name;
  }
  // Every software queue is linked to its context's process, and names it.
  EXPECT_EQ(Q("SELECT count(*) FROM queues q JOIN contexts c ON c.queue_id = q.id "
              "WHERE q.type = 4 AND q.process_id = c.process_id"),
            Q("SELECT count(*) FROM queues WHERE type = 4"));
  EXPECT_EQ(Q("SELECT count(*) FROM queues q JOIN processes p ON p.id = q.process_id "
              "JOIN strings s ON s.id = q.name_sid WHERE q.type = 4 AND "
              "(s.value LIKE 'pid ' || p.pid || ': %' OR s.value LIKE 'System (pid 4): %')"),
            Q("SELECT count(*) FROM queues WHERE type = 4"));
  // Contexts that reached the hardware name their node (SelectContext ordinal).
  EXPECT_EQ(Q("SELECT s.value FROM contexts c JOIN queues q ON q.id = c.queue_id "
              "JOIN strings s ON s.id = q.name_sid "
              "WHERE printf('0x%x', c.handle) = '0xffffd6880c5d1c70'"),
            "pid 1072: node 0 context 0xffffd6880c5d1c70");
}
