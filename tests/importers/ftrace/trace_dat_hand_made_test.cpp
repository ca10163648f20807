// trace-cmd .dat files made by hand (make_trace_dat.py): the import of a whole file against what
// the script says it wrote, and each damaged shape the fuzz regressions hold refused at the byte
// offset the script reports, with no trace left behind and the input untouched.
#include <gtest/gtest.h>
#include <malloc.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "importers/ftrace/trace_dat_reader.h"

#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::FirstCell;
using test_support::Quote;
using test_support::RowsText;

// Writes the .dat of `shape` to `path`; the script's "key<TAB>value" lines.
std::map<std::string, int64_t> MakeDat(const fs::path& path, const std::string& shape) {
  return test_support::CommandFigures(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/ftrace/make_trace_dat.py") +
      " " + Quote(path) + " --shape " + shape);
}

TEST(TraceDatHandMade, JobsPerRingAndTheirBusyTimeAreWhatWasWritten) {
  test_support::ScratchDir dir;
  const fs::path dat = dir / "amdgpu.dat";
  auto written = MakeDat(dat, "good");
  ASSERT_EQ(written["cpus"], 2);
  const fs::path trace = dir / "amdgpu.db";
  const auto r = test_support::RunFencescope("import " + Quote(dat) + " -o " + Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Each amdgpu_cs_ioctl is a packet submitted on its ring's queue, started by its
  // amdgpu_sched_run_job and completed by the dma_fence_signaled of its fence.
  const std::string per_queue =
      "SELECT s.value || ':' || count(*) FROM %s e JOIN queues q ON q.id = e.queue_id "
      "JOIN strings s ON s.id = q.name_sid GROUP BY s.value ORDER BY s.value";
  const std::string expected = "gfx:" + std::to_string(written["jobs gfx"]) + "\nsdma0:" +
                               std::to_string(written["jobs sdma0"]) + "\n";
  for (const char* view : {"packet_submitted", "packet_started", "packet_completed"}) {
    std::string sql = per_queue;
    sql.replace(sql.find("%s"), 2, view);
    EXPECT_EQ(RowsText(trace, sql), expected) << view;
  }
  for (const std::string ring : {"gfx", "sdma0"}) {
    EXPECT_EQ(FirstCell(trace,
                        "SELECT sum(c.ts_ns - s.ts_ns) FROM packet_started s "
                        "JOIN packet_completed c ON c.packet_id = s.packet_id "
                        "JOIN queues q ON q.id = s.queue_id JOIN strings n ON n.id = q.name_sid "
                        "WHERE n.value = '" + ring + "'"),
              std::to_string(written["busy_ns " + ring]))
        << ring;
  }
  // Each dma_fence_signaled executes its fence's signal.
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM fence_signal_executed"),
            std::to_string(written["signals"]));
}

// An import stopped while its records are read (here by the record callback, as the importer's
// own checks stop a damaged file) leaves nothing of libtracecmd's allocated: each CPU's record the
// library had peeked next is freed. Measured as the C library's allocated bytes over 400 such
// reads; with those records kept it grew by 137 KB (two CPUs, each read).
TEST(TraceDatHandMade, AReadStoppedEarlyLeavesNoRecordAllocated) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan's allocator keeps no glibc counts (mallinfo2); the normal build runs it";
#else
  test_support::ScratchDir dir;
  const fs::path dat = dir / "amdgpu.dat";
  MakeDat(dat, "good");
  const std::string bytes = test_support::ReadFile(dat);
  auto stopped_read = [&] {
    int seen = 0;
    try {
      importers::ftrace::ReadTraceDat(bytes, dat.string(), [&](const importers::ftrace::FtraceEvent&) {
        if (++seen == 3) throw std::runtime_error("stop");
      });
    } catch (const std::runtime_error&) {
    }
    return seen;
  };
  ASSERT_EQ(stopped_read(), 3);  // (and warms up what the library keeps once per process)
  const size_t before = mallinfo2().uordblks;
  for (int i = 0; i < 400; ++i) stopped_read();
  const size_t after = mallinfo2().uordblks;
  EXPECT_LT(after, before + 16 * 1024) << "grew by " << after - before << " bytes";
#endif
}

// libtracecmd 3.1 leaves a ring-buffer page of each CPU mapped after tracecmd_close; each such
// mapping kept the memory file holding the whole input alive. After 50 reads (whole, and stopped
// early) none of the reader's memory files is mapped: /proc/self/maps, read here line by line,
// names no "memfd:fencescope-trace.dat".
TEST(TraceDatHandMade, NoMemoryFileStaysMappedAfterTheReads) {
  test_support::ScratchDir dir;
  const fs::path dat = dir / "amdgpu.dat";
  MakeDat(dat, "good");
  const std::string bytes = test_support::ReadFile(dat);
  auto mapped_memory_files = [] {
    int count = 0;
    std::istringstream maps(test_support::ReadFile("/proc/self/maps"));
    for (std::string line; std::getline(maps, line);) {
      if (line.find("memfd:fencescope-trace.dat") != std::string::npos) ++count;
    }
    return count;
  };
  ASSERT_EQ(mapped_memory_files(), 0);
  int events = 0;
  for (int i = 0; i < 50; ++i) {
    int seen = 0;
    try {
      importers::ftrace::ReadTraceDat(bytes, dat.string(),
                                      [&](const importers::ftrace::FtraceEvent&) {
                                        ++events;
                                        if (i % 2 == 1 && ++seen == 3)
                                          throw std::runtime_error("stop");
                                      });
    } catch (const std::runtime_error&) {
    }
  }
  EXPECT_GT(events, 50);  // the reads did read the pages
  EXPECT_EQ(mapped_memory_files(), 0);
}

// The shapes that crash libtracecmd 3.1 / libtraceevent 1.7 (fuzz regressions): refused by the
// importer first, naming the byte offset the script put the damage at.
TEST(TraceDatHandMade, DamagedShapesAreRefusedAtTheirByteOffset) {
  test_support::ScratchDir dir;
  for (const std::string shape :
       {"header_page_offset_without_semicolon", "header_page_type_of_other_characters",
        "latency_section_huge_cpu_count", "page_size_not_a_power_of_two",
        "pages_larger_than_cpu_data", "printk_format_too_short", "version_4_huge_header_page",
        "field_type_byte_not_text", "print_flags_of_no_field", "record_length_going_back",
        "long_size_zero", "cpu_count_option_not_the_header", "print_fmt_constant_remainder",
        "header_page_timestamp_of_4_bytes", "record_length_below_its_header",
        "field_array_not_closed", "clock_text_as_time_shift", "cpu_data_off_a_page_boundary",
        "record_time_past_2065", "print_fmt_conditional_then_hash",
        "header_page_type_of_two_words", "cpu_data_over_the_headers",
        "print_fmt_conditional_then_arrow"}) {
    SCOPED_TRACE(shape);
    const fs::path dat = dir / (shape + ".dat");
    auto written = MakeDat(dat, shape);
    ASSERT_TRUE(written.count("damage_at"));
    const std::string before = test_support::ReadFile(dat);
    const fs::path trace = dir / (shape + ".db");
    const auto r = test_support::RunFencescope("import " + Quote(dat) + " -o " + Quote(trace));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(dat.string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("byte offset " + std::to_string(written["damage_at"])),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(trace));
    EXPECT_EQ(test_support::ReadFile(dat), before);
  }
}

// The trace clock option empty (real captures have one; libtracecmd 3.1 sizes a buffer from
// memory it never set), or the clock's text after the CPU table claiming 0x7ffdcd180cf7 bytes
// (the library allocates what it reads), or the uname option's text with no NUL (the library
// strdup's it): the library is never shown the option, and the file imports as the whole one
// does. So does a print format with conditionals the library reads without a crash: the checks
// that refuse the ones it crashes on leave these alone.
TEST(TraceDatHandMade, TheClockOptionsDamageImportsTheSameJobs) {
  test_support::ScratchDir dir;
  for (const std::string shape : {"empty_clock_option", "trace_clock_size_huge",
                                  "uname_without_nul", "print_fmt_conditionals_the_library_reads"}) {
    SCOPED_TRACE(shape);
    const fs::path dat = dir / (shape + ".dat");
    auto written = MakeDat(dat, shape);
    const fs::path trace = dir / (shape + ".db");
    const auto r = test_support::RunFencescope("import " + Quote(dat) + " -o " + Quote(trace));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM packet_completed"),
              std::to_string(written["jobs gfx"] + written["jobs sdma0"]));
    if (shape == "uname_without_nul") {
      // Read by fencescope from the option's bytes, never by the library.
      EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'uname'"),
                "Linux 6.1.0 #1 SMP x86_64r");
    }
  }
}

}  // namespace
