// Scenario files: every embedded scenario loads; mistakes name the file, line and key.
#include <gtest/gtest.h>

#include "core/model/error.h"
#include "core/sim/scenario_loader.h"
#include "tests/support/test_support.h"

using core::sim::ParseScenario;

namespace {

std::string ErrorOf(const std::string& text) {
  return test_support::ErrorOf([&] { ParseScenario(text, "bad.toml"); });
}

const char* kMinimal = R"([scenario]
name = "t"

[[adapter]]
name = "GPU"

[[engine]]
name = "3D"
adapter = "GPU"
type = "3d"

[[queue]]
name = "q"
engine = "3D"

[[fence]]
name = "f"
adapter = "GPU"
)";

}  // namespace

TEST(ScenarioLoader, EveryEmbeddedScenarioLoads) {
  auto names = core::sim::EmbeddedScenarioNames();
  for (const char* expected : {"default", "copy_prepass_lighting", "ring_buffer",
                               "pipelined_compute_graphics", "async_compute_graphics",
                               "cross_adapter", "cross_adapter_native", "log_overrun", "never_signalled",
                               "pgo_game_default", "pgo_benchmark_priming", "pgo_pix_single_frame",
                               "pgo_disabled", "pgo_pso_destroyed", "pgo_no_developer_mode"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const auto& name : names) {
    auto s = core::sim::LoadScenario(name);
    EXPECT_EQ(s.name, name);
    EXPECT_FALSE(s.threads.empty()) << name;
  }
}

TEST(ScenarioLoader, UnknownKeyNamesFileLineAndKey) {
  std::string text = std::string(kMinimal) +
                     "\n[[thread]]\nname = \"t\"\nframez = 3\n[[thread.step]]\nop = "
                     "\"cpu_work\"\n";
  // kMinimal has 18 lines; [[thread]] is line 20, frames misspelt on line 22.
  EXPECT_EQ(ErrorOf(text), "bad.toml:22: key 'thread[0].framez': unknown key");
}

TEST(ScenarioLoader, UnknownReferenceNamesTheKey) {
  std::string text = std::string(kMinimal) +
                     "\n[[thread]]\nname = \"t\"\n[[thread.step]]\nop = \"signal\"\nqueue = "
                     "\"q\"\nfence = \"nope\"\nvalue = 1\n";
  EXPECT_EQ(ErrorOf(text), "bad.toml:25: key 'thread[0].step[0].fence': no fence named 'nope'");
}

TEST(ScenarioLoader, BadFrameExpressionNamesTheKey) {
  std::string text = std::string(kMinimal) +
                     "\n[[thread]]\nname = \"t\"\n[[thread.step]]\nop = \"wait\"\nqueue = "
                     "\"q\"\nfence = \"f\"\nvalue = \"i +\"\n";
  std::string error = ErrorOf(text);
  EXPECT_EQ(error.rfind("bad.toml:26: key 'thread[0].step[0].value': ", 0), 0u) << error;
}

TEST(ScenarioLoader, TomlSyntaxErrorNamesTheLine) {
  std::string error = ErrorOf("[scenario]\nname = \"x\"\nduration_ms = = 3\n");
  EXPECT_EQ(error.rfind("bad.toml:3:", 0), 0u) << error;
}

TEST(ScenarioLoader, MissingFileAndUnknownNameAreErrors) {
  try {
    core::sim::LoadScenario("no_such_scenario");
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("embedded: "), std::string::npos);
  }
}

struct BadLine {
  const char* line;   // inserted into kMinimal after the line holding `after`
  const char* error;  // how the error message starts
};

template <size_t N>
void ExpectErrors(const std::string& after, const BadLine (&cases)[N]) {
  for (const BadLine& c : cases) {
    std::string text = kMinimal;
    text.insert(text.find('\n', text.find(after)) + 1, std::string(c.line) + "\n");
    const std::string error = ErrorOf(text);
    EXPECT_EQ(error.rfind(c.error, 0), 0u) << c.line << ": " << error;
  }
}

TEST(ScenarioLoader, NonFiniteNegativeAndOverflowingNumbersNameFileLineAndKey) {
  using Case = BadLine;
  const Case top[] = {
      {"duration_ms = nan", "bad.toml:3: key 'scenario.duration_ms': must be a finite number"},
      {"duration_ms = inf", "bad.toml:3: key 'scenario.duration_ms': must be a finite number"},
      {"duration_ms = -inf", "bad.toml:3: key 'scenario.duration_ms': must be a finite number"},
      {"duration_ms = 1e300", "bad.toml:3: key 'scenario.duration_ms': too large"},
      {"duration_ms = -1", "bad.toml:3: key 'scenario.duration_ms': must be > 0"},
  };
  ExpectErrors("name = \"t\"", top);
  const Case adapter[] = {
      {"interrupt_latency_us = nan", "bad.toml:6: key 'adapter[0].interrupt_latency_us': must be a finite number"},
      {"interrupt_latency_us = 1e300", "bad.toml:6: key 'adapter[0].interrupt_latency_us': too large"},
      {"interrupt_latency_us = -3", "bad.toml:6: key 'adapter[0].interrupt_latency_us': must not be negative"},
      {"tdr_timeout_ms = inf", "bad.toml:6: key 'adapter[0].tdr_timeout_ms': must be a finite number"},
      {"null_hwqueue_chance = nan", "bad.toml:6: key 'adapter[0].null_hwqueue_chance': must be a finite number"},
      {"log_bytes = 4294967296", "bad.toml:6: key 'adapter[0].log_bytes': must be between 0 and"},
  };
  ExpectErrors("name = \"GPU\"", adapter);
}

TEST(ScenarioLoader, FrameExpressions) {
  using core::sim::ParseFrameExpr;
  EXPECT_EQ(ParseFrameExpr("i - 3", "x").Eval(10), 7);
  EXPECT_EQ(ParseFrameExpr("2*i + 1", "x").Eval(4), 9);
  EXPECT_EQ(ParseFrameExpr("i % 3", "x").Eval(7), 1);
  EXPECT_EQ(ParseFrameExpr("i - 2 % 3", "x").Eval(1), 2);  // (1 - 2) mod 3
  EXPECT_EQ(ParseFrameExpr("7", "x").Eval(100), 7);
  EXPECT_EQ(ParseFrameExpr("-i + 5", "x").Eval(2), 3);
  EXPECT_THROW(ParseFrameExpr("i * 2", "x"), core::Error);
  EXPECT_THROW(ParseFrameExpr("j", "x"), core::Error);
  // Numbers and sums stay within 10^12, so that evaluating cannot overflow (found by fuzzing:
  // 20 threes times 10 overflowed while parsing).
  EXPECT_EQ(ParseFrameExpr("1000000000000 - i", "x").Eval(1), 999'999'999'999);
  EXPECT_EQ(ParseFrameExpr("1000000000000 * i", "x").Eval(1'000'000), 1'000'000'000'000'000'000);
  for (const char* too_large : {"33333333333333333333", "1000000000001", "-1000000000001 * i",
                                "999999999999 + 999999999999", "i % 1000000000001"}) {
    const std::string error = test_support::ErrorOf([&] { ParseFrameExpr(too_large, "x"); });
    EXPECT_NE(error.find("beyond 10^12"), std::string::npos) << too_large << ": " << error;
  }
}

TEST(ScenarioLoader, AQueueUsesOnlyFencesOpenedOnItsAdapter) {
  std::string text = std::string(kMinimal) +
                     "\n[[adapter]]\nname = \"iGPU\"\n\n[[engine]]\nname = \"i3D\"\n"
                     "adapter = \"iGPU\"\ntype = \"3d\"\n\n[[queue]]\nname = \"iq\"\n"
                     "engine = \"i3D\"\n\n[[thread]]\nname = \"t\"\n[[thread.step]]\n"
                     "op = \"wait\"\nqueue = \"iq\"\nfence = \"f\"\nvalue = 1\n";
  // kMinimal: 18 lines; the step's fence key is on line 37.
  EXPECT_EQ(ErrorOf(text),
            "bad.toml:37: key 'thread[0].step[0].fence': fence 'f' is not opened on adapter "
            "'iGPU' of queue 'iq' (make it a cross_adapter fence opened there)");
}
