// `fencescope record`: the trace-cmd command line it builds and the tracefs checks made before
// it runs (a capture itself cannot run in the test environment; the import of what trace-cmd
// writes is the .dat import tested on the gpuvis capture).
#include <gtest/gtest.h>

#include <fstream>

#include "core/model/error.h"
#include "importers/ftrace/trace_cmd_record.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using importers::ftrace::CheckTracefs;
using importers::ftrace::RecordPlan;
using importers::ftrace::TraceCmdRecordArgs;
using test_support::ScratchDir;

}  // namespace

TEST(TraceCmdRecord, AsksOnlyForEventsTheKernelHas) {
  RecordPlan plan;
  plan.dat = "/tmp/out.dat";
  plan.buffer_kb = 8192;
  plan.command = {"vkcube", "--c", "100"};
  const std::vector<std::string> available = {
      "sched:sched_switch", "dma_fence:dma_fence_signaled", "amdgpu:amdgpu_cs_ioctl",
      "amdgpu:amdgpu_sched_run_job", "drm:drm_vblank_event", "ext4:ext4_sync_file_enter"};
  const std::vector<std::string> want = {
      "trace-cmd", "record", "-o", "/tmp/out.dat", "-C", "mono", "-b", "8192",
      "-e", "dma_fence:dma_fence_signaled", "-e", "amdgpu:amdgpu_cs_ioctl",
      "-e", "amdgpu:amdgpu_sched_run_job", "-e", "drm:drm_vblank_event",
      "-e", "sched:sched_switch", "-e", "ftrace:print", "vkcube", "--c", "100"};
  EXPECT_EQ(TraceCmdRecordArgs(plan, available), want);
}

TEST(TraceCmdRecord, RefusesAKernelWithoutGpuEventsOrAnEmptyCommand) {
  RecordPlan plan;
  plan.dat = "out.dat";
  plan.command = {"true"};
  EXPECT_THROW(TraceCmdRecordArgs(plan, {"ext4:ext4_sync_file_enter"}), core::Error);
  plan.command.clear();
  EXPECT_THROW(TraceCmdRecordArgs(plan, {"sched:sched_switch"}), core::Error);
}

TEST(TraceCmdRecord, TracefsNotMountedSaysSo) {
  ScratchDir root;
  fs::create_directories(root / "sys/kernel/tracing");  // the mount point, empty
  try {
    CheckTracefs(root.path());
    FAIL() << "an empty mount point passed";
  } catch (const core::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("tracefs is not mounted"), std::string::npos) << message;
    EXPECT_NE(message.find("mount -t tracefs"), std::string::npos) << message;
  }
}

TEST(TraceCmdRecord, FindsTracefsAndItsEvents) {
  ScratchDir root;
  const fs::path tracefs = root / "sys/kernel/debug/tracing";
  fs::create_directories(tracefs);
  std::ofstream(tracefs / "tracing_on") << "0\n";
  std::ofstream(tracefs / "available_events") << "sched:sched_switch\ndrm:drm_vblank_event\n";
  EXPECT_EQ(CheckTracefs(root.path()), tracefs);
  EXPECT_EQ(importers::ftrace::AvailableEvents(tracefs),
            (std::vector<std::string>{"sched:sched_switch", "drm:drm_vblank_event"}));
}

TEST(TraceCmdRecord, CommandExplainsWhatIsMissing) {
  try {
    CheckTracefs();
  } catch (const core::Error& e) {
    ScratchDir dir;
    auto r = test_support::RunFencescope("record -o " + test_support::Quote(dir / "t.db") +
                                         " -- true");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(e.what()), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "t.db"));
    return;
  }
  GTEST_SKIP() << "tracefs is usable here: `record` would really capture";
}
