// Nsight Systems exports name API calls with their version (`cudaDeviceSynchronize_v3020`); the
// what-if options and the replay's device-sync rule take the names users write. The expected
// count is the file's: the hand-made export (make_nsys_sqlite.py `processes`) has one
// cudaDeviceSynchronize with its SYNCHRONIZATION row in each of its two processes.
#include <gtest/gtest.h>

#include "core/replay/api_call_name.h"
#include "tests/support/test_support.h"

using test_support::Quote;

TEST(ApiCallName, AVersionSuffixIsDroppedAndNothingElse) {
  using core::replay::ApiCallName;
  EXPECT_EQ(ApiCallName("cudaDeviceSynchronize_v3020"), "cudaDeviceSynchronize");
  EXPECT_EQ(ApiCallName("cudaGraphLaunch_v10000"), "cudaGraphLaunch");
  EXPECT_EQ(ApiCallName("cudaDeviceSynchronize"), "cudaDeviceSynchronize");
  EXPECT_EQ(ApiCallName("hipMemcpy_v"), "hipMemcpy_v");
  EXPECT_EQ(ApiCallName("my_v2x"), "my_v2x");
  EXPECT_EQ(ApiCallName("_v12"), "_v12");
}

TEST(WhatIfApiNames, RemoveSyncFindsNsightsVersionedCalls) {
  test_support::ScratchDir dir;
  const auto sqlite = dir / "ranks.sqlite";
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " processes " + Quote(sqlite));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto trace = dir / "ranks.db";
  auto r = test_support::RunFencescope("import " + Quote(sqlite) + " -o " + Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test_support::RunFencescope("whatif " + Quote(trace) + " -o " + Quote(dir / "p.db") +
                                  " --remove-sync cudaDeviceSynchronize");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 CPU waits"), std::string::npos) << r.out;
}
