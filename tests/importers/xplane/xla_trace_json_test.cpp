// The Chrome JSON the XLA profiler writes beside its XSpace (make_xspace.py --trace-json: the
// `launches` profile as TensorBoard's trace.json holds it), through the Chrome JSON importer:
// the same device streams as queues, the same packets and launches as the XSpace import of the
// same profile, and the figures worked out by hand from the shape make_xspace.py describes.
#include <gtest/gtest.h>

#include <string>

#include "importers/import_file.h"
#include "tests/importers/xplane/xspace_files.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::RowsText;

// Per queue, by its stream's name (the XSpace import adds the device's vendor to the device
// name, which the JSON does not carry): type, packets, busy ns, packets whose submit is a
// host thread's launch, their submit times after the first line's timestamp.
std::string PerStream(const fs::path& db, int64_t origin) {
  return RowsText(
      db,
      "SELECT substr(n.value, instr(n.value, 'Stream #')), q.type, count(*), "
      "sum(c.ts_ns - s.ts_ns), sum(p.thread_id != 0), group_concat(p.ts_ns - " +
          std::to_string(origin) +
          ") FROM packet_submitted p JOIN packet_started s ON s.packet_id = p.packet_id "
          "JOIN packet_completed c ON c.packet_id = p.packet_id "
          "JOIN queues q ON q.id = p.queue_id JOIN strings n ON n.id = q.name_sid "
          "GROUP BY q.id ORDER BY 1");
}

TEST(XlaTraceJson, DeviceStreamsAreTheQueuesTheXSpaceImportMakes) {
  test_support::ScratchDir dir;
  xspace_files::Make("launches", dir / "a.xplane.pb", "", dir / "trace.json");
  const auto json = importers::ImportFile(dir / "trace.json", dir / "json.db");
  EXPECT_EQ(json.format_name.rfind("JSON", 0), 0u) << json.format_name;
  importers::ImportFile(dir / "a.xplane.pb", dir / "xspace.db");
  // Stream #7 (compute, type 1): kernels of 10, 10 and 1 us, the first two launched at 1 and
  // 61 us after the lines' timestamp (1 us), the third by nothing (submitted when it started,
  // 80 us); Stream #8 (copy, type 2): one 3 us memcpy launched at 4 us. Aggregates are no
  // packets. Lines start 1 us into the JSON's time, 1 us after the profile start in the XSpace.
  const std::string expected =
      "Stream #7(Compute)|1|3|21000|2|2000,62000,81000\n"
      "Stream #8(MemcpyH2D)|2|1|3000|1|5000\n";
  EXPECT_EQ(PerStream(dir / "json.db", 0), expected);
  EXPECT_EQ(PerStream(dir / "xspace.db", xspace_files::kProfileStart), expected);
}

TEST(XlaTraceJson, LaunchesLinkByCorrelationIdAndDeviceRowsAreNoQueues) {
  test_support::ScratchDir dir;
  xspace_files::Make("launches", dir / "a.xplane.pb", "", dir / "trace.json");
  const fs::path db = dir / "json.db";
  importers::ImportFile(dir / "trace.json", db);
  // A launch flow from each host call with a correlation id to its packet's start: 11 and 13
  // (cudaLaunchKernel -> gemm_kernel), 12 (cudaMemcpyAsync -> MemcpyH2D).
  EXPECT_EQ(RowsText(db,
                     "SELECT a.value, b.value FROM flows f "
                     "JOIN cpu_slice c ON c.event_id = f.from_event "
                     "JOIN packet_started s ON s.event_id = f.to_event "
                     "JOIN packet_submitted p ON p.packet_id = s.packet_id "
                     "JOIN strings a ON a.id = c.name_sid JOIN strings b ON b.id = p.name_sid "
                     "ORDER BY c.ts_ns"),
            "cudaLaunchKernel|gemm_kernel\ncudaMemcpyAsync|MemcpyH2D\n"
            "cudaLaunchKernel|gemm_kernel\n");
  // XLA Modules and XLA Ops are rows of the device's process, not queues.
  EXPECT_EQ(RowsText(db, "SELECT count(*) FROM queues"), "2\n");
  EXPECT_EQ(RowsText(db,
                     "SELECT s.value FROM cpu_slice c JOIN threads t ON t.id = c.thread_id "
                     "JOIN strings s ON s.id = t.name_sid WHERE s.value LIKE 'XLA%' "
                     "ORDER BY s.value"),
            "XLA Modules\nXLA Ops\n");
}

}  // namespace
