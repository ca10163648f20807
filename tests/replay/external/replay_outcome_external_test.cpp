// MeasureReplay on real captures of each importer: for no edit and each edit of the capture's
// opportunities, the span and step lengths (and unedited, the fidelity figures) equal those of
// the full replay (written to a trace file, loaded back, reconstructed).
#include <gtest/gtest.h>

#include "importers/import_file.h"
#include "tests/replay/replay_support.h"
#include "tests/support/test_support.h"

namespace {

void Check(const char* file) {
  SCOPED_TRACE(file);
  test_support::ScratchDir dir;
  const auto db = dir / "trace.db";
  importers::ImportFile(test_support::SharedDir() / "traces/external" / file, db);
  const auto trace = replay_test::Load(db);
  EXPECT_GT(replay_test::ExpectOutcomesAreFullReplays(trace, dir.path()), 0u);
}

}  // namespace

TEST(ReplayOutcomeExternal, KinetoCapture) { Check("kineto/worker0.1623143089861.pt.trace.json.gz"); }
TEST(ReplayOutcomeExternal, NsightSystemsExport) { Check("test-cuda/report1.sqlite"); }
TEST(ReplayOutcomeExternal, RocprofV3Json) { Check("tracelens/rocprofv3_908_results.json.gz"); }
TEST(ReplayOutcomeExternal, XlaXSpace) { Check("tracelens/jax_conv_minimal_08_tw003.xplane.pb"); }
TEST(ReplayOutcomeExternal, EtwCapture) { Check("gpuvis/windows_etl.zip"); }
