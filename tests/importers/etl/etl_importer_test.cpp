// The ETL importer end to end on a hand-built capture whose expected records are worked out by
// hand below (QPC at 10 MHz, so tick t is t * 100 ns).
#include <gtest/gtest.h>

#include "core/store/query.h"
#include "core/store/trace_writer.h"
#include "importers/etl/etl_importer.h"
#include "tests/importers/etl/etl_builder.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using namespace importers::etl;
using etl_test::Bytes;
using etl_test::EtlBuilder;
using test_support::FirstCell;
using test_support::ScratchDir;

namespace {

constexpr uint64_t kCtxA = 0xA000, kCtxB = 0xB000, kFence = 0xF00;
constexpr std::string_view kDxg = etl_test::kDxgKrnl;

//  t   event                                        expected record(s)
//  5   23 SelectContext A and B on node 3           the node of A's DMA packets is "node 3";
//                                                   B's software queue belongs to it too
// 10   178 QueuePacket Start A seq 1 (render)       packet_submitted (software queue A)
// 20   175 DmaPacket Start A seq 1, submission 500  packet_submitted + packet_started (hardware),
//                                                   packet_started (software A seq 1)
// 30   245 signal packet A seq 2 (fence, 5)         packet_submitted (flags 64),
// fence_signal_queued 31   294 SignalFromGpu A (fence, 5), same thread  the call behind that
// packet: merged (it asks
//                                                   for the signal; it is not its execution)
// 40   244 wait packet B seq 1 (fence, 5)           packet_submitted (flags 32), fence_wait_queued
// 41   295 WaitFromGpu B (fence, 5)                 merged into the wait packet
// 50   177 DmaPacket Info completion 500, type 1    interrupt (dma_completion), packet_completed
// (hw) 55   180 QueuePacket Stop A seq 1                 packet_completed (software A) 65   297
// WaitFromCpu (fence, 6) on thread 201     cpu_wait_begin 70   238 UnwaitQueuePacket (B's wait
// packet)      fence_wait_unblocked, released_by_signal_id =
//                                                   the signal's op;
//                                                   the release shows the signal ran:
//                                                   fence_signal_executed (before its retirement)
// 75   180 QueuePacket Stop A seq 2                 packet_completed
// 80   180 QueuePacket Stop B seq 1                 packet_completed
// 88   300 UnwaitCpuWaiter (6, fence)               cpu_wait_released
// 90   17 VSyncDPC, FrameQPCTime 85                 marker vsync at 8500 ns
// 95   string provider "hello"                      marker text
// 96   DxgKrnl id 999 (unknown)                     counted only
// 97   other provider, binary payload               counted only
// 98   178 with a 59-byte payload                   counted as a bad size
std::string Capture() {
  EtlBuilder b;
  b.LogfileHeader();
  b.Event(kDxg, 23, 0, 5, Bytes().U64(0xAD).U64(kCtxA).U32(3).U32(0).U64(1).U64(0xFF), 4, 8);
  b.Event(kDxg, 23, 0, 5, Bytes().U64(0xAD).U64(kCtxB).U32(3).U32(0).U64(1).U64(0xFF), 4, 8);
  b.Event(kDxg, 178, 1, 10,
          Bytes().U64(kCtxA).U32(0).U32(1).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1A1).U64(0));
  b.Event(kDxg, 175, 1, 20, Bytes().U64(kCtxA).U64(0).U32(0).U64(500).U32(1).U64(0).U32(0), 4, 8);
  b.Event(kDxg, 245, 2, 30,
          Bytes().U64(kCtxA).U32(2).U32(0).U32(1).U64(kFence).U64(5).U64(0x1A2));
  b.Event(kDxg, 294, 0, 31, Bytes().U32(1).U64(kCtxA).U32(0).U32(1).U64(kFence).U64(5));
  b.Event(kDxg, 244, 1, 40, Bytes().U64(kCtxB).U32(1).U32(0).U64(kFence).U64(5).U64(0x1B1));
  b.Event(kDxg, 295, 0, 41, Bytes().U64(kCtxB).U32(1).U64(kFence).U64(5));
  b.Event(kDxg, 177, 1, 50,
          Bytes().U64(kCtxA).U32(0).U64(500).U32(1).U32(1).U32(0).U64(0).U32(0).U64(0), 4, 8);
  b.Event(kDxg, 180, 1, 55, Bytes().U64(kCtxA).U32(0).U32(1).U32(0).U32(0).U64(0x1A1));
  b.Event(kDxg, 297, 0, 65, Bytes().U64(0xDE).U32(1).U64(kFence).U64(6).U64(0x65C).U32(0), 100,
          201);
  b.Event(kDxg, 238, 0, 70, Bytes().U64(0x1B1).U64(kCtxB), 4, 8);
  b.Event(kDxg, 180, 1, 75, Bytes().U64(kCtxA).U32(5).U32(2).U32(0).U32(0).U64(0x1A2));
  b.Event(kDxg, 180, 1, 80, Bytes().U64(kCtxB).U32(4).U32(1).U32(0).U32(0).U64(0x1B1));
  b.Event(kDxg, 300, 0, 88, Bytes().U64(0xE0).U32(1).U64(6).U64(kFence).U32(0), 4, 8);
  b.Event(kDxg, 17, 0, 90,
          Bytes().U64(0xAD).U32(0).U64(0).U32(0).U32(7).U64(85).U64(0).U32(0).U64(0), 4, 8);
  b.Event(etl_test::kMarkerProvider, 0, 1, 95, Bytes().Text("hello"));
  b.Event(kDxg, 999, 0, 96, Bytes().U32(1));
  b.Event("11111111-2222-3333-4444-555555555555", 3, 0, 97, Bytes().U8(1).U8(2));
  b.Event(kDxg, 178, 1, 98, Bytes().Zeros(59));
  return b.Finish();
}


class EtlImporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_db = m_dir / "trace.db";
    core::store::TraceWriter writer(m_db, "etl");
    m_stats = ImportEtl(Capture(), "capture.etl", writer, {});
    writer.Commit();
  }
  std::string Q(const std::string& sql) { return FirstCell(m_db, sql); }

  ScratchDir m_dir;
  std::filesystem::path m_db;
  EtlImportStats m_stats;
};

}  // namespace

TEST_F(EtlImporterTest, CountsWhatWasRead) {
  EXPECT_EQ(m_stats.etw_events, 20u);
  EXPECT_EQ(m_stats.dxgkrnl_events, 18u);
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key='source'"), "etl");
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key='clock'"), "qpc");
  EXPECT_EQ(Q("SELECT value FROM meta WHERE key='qpc_frequency_hz'"), "10000000");
}

TEST_F(EtlImporterTest, SoftwareQueuesPerContextAndOneHardwareQueue) {
  EXPECT_EQ(Q("SELECT count(*) FROM queues WHERE type = 4"), "2");
  EXPECT_EQ(Q("SELECT count(*) FROM queues WHERE type <> 4"), "1");
  EXPECT_EQ(Q("SELECT count(*) FROM contexts"), "2");
  EXPECT_EQ(Q("SELECT ordinal || ',' || s.value FROM engines e JOIN strings s ON s.id = e.name_sid"),
            "3,node 3");
  EXPECT_EQ(Q("SELECT count(*) FROM queues WHERE engine_id = 1"), "3");  // hardware, A and B
  EXPECT_EQ(Q("SELECT count(*) FROM packet_submitted"), "4");
  EXPECT_EQ(Q("SELECT count(*) FROM packet_started"), "2");
  EXPECT_EQ(Q("SELECT count(*) FROM packet_completed"), "4");
  // The software packet A seq 1 goes to the hardware at t=20 and retires at t=55.
  EXPECT_EQ(Q("SELECT group_concat(e.ts_ns) FROM (SELECT s.ts_ns FROM packet_submitted p "
              "JOIN queues q ON q.id = p.queue_id AND q.type = 4 "
              "JOIN packet_started s ON s.packet_id = p.packet_id ORDER BY s.ts_ns) e"),
            "2000");
  // The DMA packet: submitted and started at 2000, completed at 5000 by the interrupt.
  EXPECT_EQ(Q("SELECT ts_ns FROM packet_completed c JOIN queues q ON q.id = c.queue_id "
              "WHERE q.type <> 4"),
            "5000");
  EXPECT_EQ(Q("SELECT ts_ns || ',' || interrupt_flags FROM interrupt"), "5000,3");
}

TEST_F(EtlImporterTest, SignalReleasesTheWaitOnTheSameFenceAndValue) {
  EXPECT_EQ(Q("SELECT ts_ns || ',' || fence_value FROM fence_signal_queued"), "3000,5");
  EXPECT_EQ(Q("SELECT count(*) FROM fence_signal_queued"), "1");
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = "
              "'etl_signal_from_gpu_call_merged'"),
            "1");
  // Executed when the wait's release (70) shows it ran: before its packet retired (75), never
  // at the call (31), which is before packet A seq 1 (queued ahead of it) completed at 55.
  EXPECT_EQ(Q("SELECT ts_ns || ',' || fence_value || ',' || previous_value "
              "FROM fence_signal_executed"),
            "7000,5,0");
  EXPECT_EQ(Q("SELECT ts_ns || ',' || fence_value FROM fence_wait_queued"), "4000,5");
  EXPECT_EQ(Q("SELECT u.ts_ns || ',' || u.wait_path || ',' || (u.released_by_signal_id = "
              "s.signal_id) || ',' || (u.fence_id = s.fence_id) "
              "FROM fence_wait_unblocked u, fence_signal_queued s"),
            "7000,1,1,1");
  EXPECT_EQ(Q("SELECT count(*) FROM fences WHERE kind = 1"), "1");  // monitored
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = 'etl_wait_call_merged'"), "1");
}

TEST_F(EtlImporterTest, CpuWaitBeginAndRelease) {
  EXPECT_EQ(Q("SELECT b.ts_ns || ',' || r.ts_ns || ',' || b.fence_value FROM cpu_wait_begin b "
              "JOIN cpu_wait_released r ON r.waiter_id = b.waiter_id"),
            "6500,8800,6");
}

TEST_F(EtlImporterTest, VSyncAndTextMarkers) {
  EXPECT_EQ(Q("SELECT ts_ns FROM marker WHERE marker_type = 1"), "8500");
  EXPECT_EQ(Q("SELECT s.value FROM marker m JOIN strings s ON s.id = m.name_sid "
              "WHERE marker_type = 0"),
            "hello");
}

TEST_F(EtlImporterTest, RecordsReadAreListedPerProviderIdVersion) {
  EXPECT_EQ(Q("SELECT count FROM import_problems "
              "WHERE name = 'etl_read Microsoft-Windows-DxgKrnl id 178 v1'"),
            "2");
  EXPECT_EQ(Q("SELECT description FROM import_problems "
              "WHERE name = 'etl_read Microsoft-Windows-DxgKrnl id 999 v0'"),
            "ETW records read: Microsoft-Windows-DxgKrnl event 999 version 0 (counted, not "
            "decoded)");
  EXPECT_EQ(Q("SELECT count FROM import_problems WHERE name = "
              "'etl_read {11111111-2222-3333-4444-555555555555} id 3 v0'"),
            "1");
  EXPECT_EQ(Q("SELECT description FROM import_problems WHERE name = "
              "'etl_read {8f8f13b1-60eb-4b6a-a433-de86104115ac} id 0 v1'"),
            "ETW records read: {8f8f13b1-60eb-4b6a-a433-de86104115ac} event 0 version 1 (read "
            "as text markers)");
  EXPECT_EQ(Q("SELECT count || ',' || severity FROM import_problems "
              "WHERE name = 'etl_bad_payload_size Microsoft-Windows-DxgKrnl id 178 v1'"),
            "1,1");
  EXPECT_EQ(Q("SELECT severity FROM import_problems WHERE name = 'etl_no_native_fence_logs'"),
            "0");
}

TEST(EtlImporterPreemption, PreemptedDmaPacketResumesUnderItsResubmission) {
  // t=10 DMA start (A, seq 7, submission 1); t=20 DMA Info preempted (type 2); t=30 DMA start
  // (A, seq 7, submission 2); t=40 DMA Info completed (submission 2). One packet: submitted 1000,
  // started 1000, preempted 2000, resumed 3000, completed 4000.
  EtlBuilder b;
  b.LogfileHeader();
  auto start = [&](int64_t t, uint64_t submission) {
    b.Event(kDxg, 175, 1, t, Bytes().U64(kCtxA).U64(0).U32(0).U64(submission).U32(7).U64(0).U32(0));
  };
  auto info = [&](int64_t t, uint64_t submission, uint32_t type) {
    b.Event(kDxg, 177, 1, t,
            Bytes().U64(kCtxA).U32(0).U64(submission).U32(7).U32(type).U32(0).U64(0).U32(0).U64(0));
  };
  start(10, 1);
  info(20, 1, 2);
  start(30, 2);
  info(40, 2, 1);
  ScratchDir dir;
  {
    core::store::TraceWriter writer(dir / "t.db", "etl");
    ImportEtl(b.Finish(), "p.etl", writer, {});
    writer.Commit();
  }
  EXPECT_EQ(FirstCell(dir / "t.db",
                      "SELECT group_concat(k.name || '@' || e.ts_ns) FROM "
                      "(SELECT * FROM events ORDER BY rowid) e JOIN event_kinds k "
                      "ON k.id = e.kind WHERE e.kind <> 30"),
            "packet_submitted@1000,packet_started@1000,packet_preempted@2000,"
            "packet_resumed@3000,packet_completed@4000");
  EXPECT_EQ(FirstCell(dir / "t.db", "SELECT count(DISTINCT op_id) FROM events WHERE kind <> 30"),
            "1");
}

// Kernel-Process ProcessRundown (id 15 v1) names pid 100, the owner of context A; ProcessStart
// v0 names pid 300, which owns no context; a classic kernel Process DCStart (v4, with a SID)
// names pid 500, the owner of context B, and one without a SID (v3) pid 600. Pid 700 of a
// third context is never named.
TEST(EtlImporterProcesses, ContextRowsCarryTheirProcessAndNode) {
  constexpr std::string_view kKernelProcess = "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716";
  EtlBuilder b;
  b.LogfileHeader();
  // ProcessID, sequence, CreateTime, parent, parent sequence, session, flags, elevation type,
  // elevated, then a SID with 1 sub-authority (12 bytes), then ImageName.
  b.Event(kKernelProcess, 15, 1, 1,
          Bytes()
              .U32(100)
              .U64(1)
              .U64(0)
              .U32(4)
              .U64(0)
              .U32(1)
              .U32(0)
              .U32(1)
              .U32(0)
              .U8(1)
              .U8(1)
              .Zeros(6)
              .U32(0x3000)
              .Utf16("\\Device\\HarddiskVolume2\\Games\\game.exe")
              .U32(0)
              .U32(0)
              .U16(0)
              .U16(0),
          4, 8);
  b.Event(kKernelProcess, 1, 0, 2, Bytes().U32(300).U64(0).U32(4).U32(1).Utf16("tool.exe"), 4, 8);
  // UniqueProcessKey, ProcessId, ParentId, SessionId, ExitStatus, DirectoryTableBase, Flags,
  // TOKEN_USER (two pointers), SID with 2 sub-authorities, ImageFileName, CommandLine.
  b.SystemEvent(3, 3, 4, 3,
                Bytes()
                    .U64(0xFFFF0001)
                    .U32(500)
                    .U32(4)
                    .U32(1)
                    .U32(0)
                    .U64(0x1AB000)
                    .U32(0)
                    .U64(0xFFFF0002)
                    .U64(0)
                    .U8(1)
                    .U8(2)
                    .Zeros(6)
                    .U32(21)
                    .U32(1001)
                    .Text("worker.exe")
                    .Utf16("worker.exe --run"));
  b.SystemEvent(3, 1, 3, 4,
                Bytes()
                    .U64(0xFFFF0003)
                    .U32(600)
                    .U32(4)
                    .U32(1)
                    .U32(0)
                    .U64(0x1AC000)
                    .U32(0)
                    .Text("idle.exe")
                    .Utf16("idle.exe"));
  b.Event(kDxg, 23, 0, 5, Bytes().U64(0xAD).U64(kCtxA).U32(3).U32(0).U64(1).U64(0xFF), 4, 8);
  b.Event(kDxg, 178, 1, 10,
          Bytes().U64(kCtxA).U32(0).U32(1).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1A1).U64(0),
          100, 200);
  b.Event(kDxg, 178, 1, 12,
          Bytes().U64(0xC000).U32(0).U32(1).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1C1).U64(0),
          700, 701);
  b.Event(kDxg, 175, 1, 20, Bytes().U64(kCtxA).U64(0).U32(0).U64(500).U32(1).U64(0).U32(0), 4, 8);
  b.Event(kDxg, 244, 1, 40, Bytes().U64(kCtxB).U32(1).U32(0).U64(kFence).U64(5).U64(0x1B1), 500,
          501);
  ScratchDir dir;
  const auto db = dir / "trace.db";
  {
    core::store::TraceWriter writer(db, "etl");
    ImportEtl(b.Finish(), "capture.etl", writer, {});
    writer.Commit();
  }
  EXPECT_EQ(test_support::RowsText(db,
                                    "SELECT s.value, p.pid FROM queues q JOIN strings s ON s.id = "
                                    "q.name_sid JOIN processes p ON p.id = q.process_id WHERE "
                                    "q.type = 4 ORDER BY p.pid"),
            "game.exe (pid 100): node 3 context 0xa000|100\n"
            "worker.exe (pid 500): context 0xb000 (node unknown)|500\n"
            "pid 700: context 0xc000 (node unknown)|700\n");
  EXPECT_EQ(
      FirstCell(db, "SELECT count FROM import_problems WHERE name = 'etl_kernel_process_records'"),
      "2");
  EXPECT_EQ(FirstCell(db, "SELECT count FROM import_problems WHERE name = 'etl_named_processes'"),
            "4");
  EXPECT_EQ(FirstCell(db,
                      "SELECT s.value FROM processes p JOIN strings s ON s.id = p.name_sid "
                      "WHERE p.pid = 100"),
            "game.exe");
  EXPECT_EQ(FirstCell(db,
                      "SELECT count(*) FROM contexts c JOIN processes p ON p.id = c.process_id "
                      "WHERE p.pid = 100"),
            "1");
  EXPECT_EQ(FirstCell(db,
                      "SELECT count FROM import_problems WHERE name = "
                      "'etl_read Microsoft-Windows-Kernel-Process id 15 v1'"),
            "1");
}

// A record timed past +-3e18 ns (a damaged timestamp: here -9e18 ticks, saturated at the
// int64's least ns) is refused naming it, or skipped and counted with --lenient; the records
// around it import as they would without it (found by fuzz_etl: a packet time saturated at
// INT64_MIN overflowed the mapper's signal-call window).
TEST(EtlImporterBadInput, ARecordTimedPastTheBoundIsRefusedOrSkippedWhenLenient) {
  constexpr int64_t kDamagedTicks = -9'000'000'000'000'000'000;
  auto capture = [](bool with_damaged) {
    EtlBuilder b;
    b.LogfileHeader();
    b.Event(kDxg, 178, 1, 10,
            Bytes().U64(kCtxA).U32(0).U32(1).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1A1).U64(0));
    if (with_damaged) {
      b.Event(kDxg, 178, 1, kDamagedTicks,
              Bytes().U64(kCtxA).U32(0).U32(2).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1A2).U64(0));
    }
    b.Event(kDxg, 180, 1, 55, Bytes().U64(kCtxA).U32(0).U32(1).U32(0).U32(0).U64(0x1A1));
    return b.Finish();
  };
  ScratchDir dir;
  {
    core::store::TraceWriter writer(dir / "strict.db", "etl");
    try {
      ImportEtl(capture(true), "damaged.etl", writer, {});
      FAIL() << "imported";
    } catch (const core::Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("damaged.etl: the event record whose payload is at byte offset "),
                std::string::npos)
          << what;
      EXPECT_NE(what.find("-9000000000000000000 ticks"), std::string::npos) << what;
      EXPECT_NE(what.find("past +-3e18 ns"), std::string::npos) << what;
    }
  }
  auto import = [&](const std::string& bytes, const std::string& name) {
    const auto db = dir / name;
    core::store::TraceWriter writer(db, "etl");
    importers::ImportOptions lenient;
    lenient.lenient = true;
    ImportEtl(bytes, "capture.etl", writer, lenient);
    writer.Commit();
    return db;
  };
  const auto damaged = import(capture(true), "damaged.db");
  const auto clean = import(capture(false), "clean.db");
  EXPECT_EQ(FirstCell(damaged, "SELECT count || ',' || severity FROM import_problems "
                               "WHERE name = 'etl_record_time_out_of_bounds'"),
            "1,2");
  const std::string every = "SELECT (SELECT group_concat(ts_ns) FROM packet_submitted) || ';' || "
                            "(SELECT group_concat(ts_ns) FROM packet_completed)";
  EXPECT_EQ(FirstCell(damaged, every), "1000;5500");
  EXPECT_EQ(FirstCell(clean, every), "1000;5500");
}
