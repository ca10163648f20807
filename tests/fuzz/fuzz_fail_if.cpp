// The --fail-if expression parser and evaluator, over a small report-shaped JSON.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/model/error.h"
#include "core/report/fail_if.h"
#include "core/report/json.h"

namespace {
core::report::Json Report() {
  using core::report::Json;
  Json report = Json::Object();
  Json interrupts = Json::Object();
  interrupts.Set("spurious", 3);
  interrupts.Set("ratio", 0.25);
  report.Set("interrupts", interrupts);
  Json fences = Json::Object();
  fences.Set("waits_never_unblocked", 0);
  fences.Set("waits_stuck", 0);
  fences.Set("native", true);
  report.Set("fences", fences);
  Json queues = Json::Array();
  for (const char* name : {"3d queue", "copy"}) {
    Json queue = Json::Object();
    queue.Set("name", name);
    queue.Set("busy_ns", int64_t{1} << 40);
    queues.Push(queue);
  }
  report.Set("queues", queues);
  return report;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const core::report::Json report = Report();
  try {
    core::report::EvaluateFailIf(report, std::string(reinterpret_cast<const char*>(data), size));
  } catch (const core::Error&) {
  }
  return 0;
}
