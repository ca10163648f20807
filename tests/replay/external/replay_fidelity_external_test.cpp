// The replay's fidelity on the real captures under ../shared/traces/external: each capture with
// GPU work is imported, replayed unedited (`fencescope whatif` with no edit, through the real
// binary) and the figures it prints are checked twice: against the targets (span and mean step
// error within 2 %, fixed delays under 5 % of the span) and against fidelity_check.py, which
// recomputes them from the two trace files with Python's sqlite3 alone.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::Quote;
using test_support::RunFencescope;

struct Capture {
  const char* file;  // under ../shared/traces/external
  // Why the capture misses the target, when it does (the dependency the trace does not show).
  const char* misses = nullptr;
};

const Capture kCaptures[] = {
    {"hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"},
    {"hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"},
    {"hta/critical_path/cuda_event_sync/event_sync_trace.json.gz"},
    {"hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz"},
    {"hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz"},
    {"hta/df_index_resolver/df_index_resolver.json.gz"},
    {"hta/execution_trace/benchmark_simple_add_trace.json.gz"},
    {"hta/mtia_inference_trace/mtia_inference_rank_0.json.gz"},
    {"hta/nccl_parser_config/nccl_data.json.gz"},
    {"hta/negative_queue_length_values_check/rank0.json.gz",
     "its 425 cudaStreamWaitEvent calls have no cuda_sync event, so the waits between its "
     "streams are not in the trace: the replay's streams run ahead"},
    {"hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"},
    {"hta/timeline_analysis/sampled_rank-0.json.gz"},
    {"hta/trace_compare/base/base.json.gz",
     "its two kernels with a launch start 57 ms and 52 ms after it, behind a memset and a copy "
     "of their stream that the trace shows launched later (16 of its 18 launches are not in "
     "it): what held them is not in the trace, and the steps run to their end"},
    {"hta/trace_diff/control/control.json.gz"},
    {"kineto/gpu_metrics_input.json"},
    {"kineto/worker0.1623143089861.pt.trace.json.gz"},
    {"tracelens/kineto_b200_eager_trace.json.gz"},
    {"tracelens/kineto_h100_qwen.json.gz"},
    {"tracelens/kineto_mi300_qwen.json.gz"},
    {"gpuvis/windows_etl.zip"},
    {"gpuvis/amdgpu_trace.zip"},
    // Nsight Systems exports.
    {"test-cuda/report1.sqlite"},
    {"nvfuser/report1.sqlite"},
    {"pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"},
    // 1,312 launch + cudaDeviceSynchronize iterations: each kernel is launched after its queue
    // went idle, so it starts after its launch latency alone, not its queue's resume gap.
    {"pipit/perlmutter-cloverleaf-cuda.sqlite"},
    // rocprofv3 and rocprof v2 (no HIP API records: every packet is launched by a stand-in at
    // its captured time), and a JAX XSpace profile.
    {"tracelens/rocprofv3_908_results.json.gz"},
    {"omniperf/MI300X_A1_path_timestamps.csv"},
    {"tracelens/jax_conv_minimal_08_tw003.xplane.pb"},
};

std::map<std::string, double> Figures(const std::string& text) {
  std::map<std::string, double> out;
  std::istringstream in(text);
  std::string key;
  double value = 0;
  while (in >> key >> value) out[key] = value;
  return out;
}

}  // namespace

TEST(ReplayFidelityOnRealCaptures, EachMeetsTheTargetOrSaysWhatTheTraceDoesNotShow) {
  const fs::path root = test_support::SharedDir() / "traces/external";
  const fs::path script =
      test_support::SourceDir() / "tests/replay/external/fidelity_check.py";
  for (const Capture& c : kCaptures) {
    SCOPED_TRACE(c.file);
    test_support::ScratchDir dir;
    const fs::path trace = dir / "trace.db", replay = dir / "replay.db";
    auto imported = RunFencescope("import " + Quote(root / c.file) + " -o " + Quote(trace));
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    auto r = RunFencescope("whatif " + Quote(trace) + " -o " + Quote(replay) + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const core::report::Json json = test_support::ParseJsonText(r.out);
    auto f = [&](const std::string& key) { return test_support::At(json, "replay." + key); };
    // The same figures from the two files, by a script.
    auto check = test_support::RunCommand("python3 " + Quote(script) + " " + Quote(trace) + " " +
                                          Quote(replay));
    ASSERT_EQ(check.exit_code, 0) << check.err;
    const auto want = Figures(check.out);
    EXPECT_EQ(f("trace_span_ns"), (want.at("trace_span_ns")));
    EXPECT_EQ(f("replay_span_ns"), (want.at("replay_span_ns")));
    EXPECT_EQ(f("packets_compared"), (want.at("packets_compared")));
    EXPECT_EQ(f("start_error_ns_p50"), (want.at("start_error_ns_p50")));
    EXPECT_EQ(f("start_error_ns_p99"), (want.at("start_error_ns_p99")));
    EXPECT_NEAR(f("step_error_pct_mean"), want.at("step_error_pct_mean"), 1e-6);
    std::cout << c.file << ": span " << f("span_error_pct") << "%, steps "
              << f("steps_compared") << " mean " << f("step_error_pct_mean")
              << "%\n";
    if (c.misses) {
      EXPECT_TRUE(std::abs(f("span_error_pct")) > 2.0 || f("step_error_pct_mean") > 2.0)
          << "meets the target now: take it off the list of misses";
      continue;
    }
    EXPECT_LE(std::abs(f("span_error_pct")), 2.0);
    EXPECT_LE(f("step_error_pct_mean"), 2.0);
    EXPECT_LE(f("fixed_delays.total_ns"), 0.05 * f("trace_span_ns"));
  }
}
