// `bench import` prints the peak resident memory of an import run in a child process. Checked
// against the same import run by Python, whose resource.getrusage(RUSAGE_CHILDREN) reads the
// kernel's figure for it: nothing of fencescope makes the expectation.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/test_support.h"

using test_support::Quote;

TEST(BenchImportMemory, PeakResidentAgreesWithTheKernelsFigureForTheSameImport) {
  test_support::ScratchDir dir;
  const auto json = dir / "trace.json";
  auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/make_cuda_trace.py") + " " +
      Quote(json) + " --devices 1 --min-mb 24 --seed 5");
  ASSERT_EQ(made.exit_code, 0) << made.err;

  auto bench = test_support::RunFencescope("bench import " + Quote(json) + " --repeat 1 --dir " +
                                           Quote(dir.path()));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(bench.out, m,
                                std::regex(R"(import peak resident\s+([0-9.]+) MB)")))
      << bench.out;
  const double printed_mb = std::stod(m[1]);
  ASSERT_TRUE(std::regex_search(bench.out, m, std::regex(R"(peak / input bytes\s+([0-9.]+))")));
  const double printed_ratio = std::stod(m[1]);

  auto python = test_support::RunCommand(
      "python3 -c \"import resource, subprocess, sys; "
      "subprocess.run([sys.argv[1], 'import', sys.argv[2], '-o', sys.argv[3]], check=True, "
      "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
      "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\" " +
      Quote(FENCESCOPE_EXECUTABLE) + " " + Quote(json) + " " + Quote(dir / "python.db"));
  ASSERT_EQ(python.exit_code, 0) << python.err;
  const double kernel_mb = std::stod(python.out) / 1e6;
  // Two runs of one import differ by what the second core happened to hold: within a quarter.
  EXPECT_NEAR(printed_mb, kernel_mb, 0.25 * kernel_mb) << bench.out;
  const double file_mb = static_cast<double>(std::filesystem::file_size(json)) / 1e6;
  EXPECT_NEAR(printed_ratio, printed_mb / file_mb, 0.01 + 0.01 * printed_ratio);
}
